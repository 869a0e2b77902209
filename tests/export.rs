//! `replaylens export`: every sample in every format, valid Markdown, deterministic output,
//! planted secrets never leak, and hostile transcript text stays text.

mod chromium;
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use replaylens::json;
use replaylens::model::json::Value;

fn export(path: &Path, args: &[&str]) -> String {
    let out = Command::new(common::bin())
        .arg("export")
        .arg(path)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Code blocks and headings as the Markdown parser sees them.
fn markdown_structure(md: &str) -> (usize, Vec<String>) {
    let mut blocks = 0;
    let mut headings = Vec::new();
    let mut in_heading = false;
    for event in Parser::new_ext(md, pulldown_cmark::Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => blocks += 1,
            Event::Start(Tag::Heading { .. }) => {
                in_heading = true;
                headings.push(String::new());
            }
            Event::End(TagEnd::Heading(_)) => in_heading = false,
            Event::Text(t) | Event::Code(t) if in_heading => headings.last_mut().unwrap().push_str(&t),
            _ => {}
        }
    }
    (blocks, headings)
}

#[test]
fn every_sample_exports_in_every_format() {
    for path in common::bundled_session_files() {
        let md = export(&path, &["--format", "md"]);
        let (blocks, headings) = markdown_structure(&md);
        assert!(headings[0].starts_with("replaylens export: "), "{}", path.display());
        assert_eq!(headings[1], "Verdict", "{}: the verdict comes first", path.display());
        assert!(md.contains("\nReproduce this report:\n\n```sh\nreplaylens export "));
        assert!(headings.iter().any(|h| h == "Rewrites by rule"));
        // Every change has a diff block but a moved message's old position, which points to
        // where it landed.
        let changes = headings
            .iter()
            .filter(|h| h.contains(" → ") && !h.contains("moved away"))
            .count();
        assert_eq!(
            blocks,
            changes + 2,
            "{}: one diff block per change plus the reproduce command and the policy",
            path.display()
        );
        assert!(
            md.chars().count() <= 65_536,
            "{}: within the default budget",
            path.display()
        );
        let html = export(&path, &["--format", "html"]);
        assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
        for external in ["<script", "<link", "@import", "url(", "src=\""] {
            assert!(
                !html.contains(external),
                "{}: self-contained, found {external}",
                path.display()
            );
        }
        let doc: Value = serde_json::from_str(&export(&path, &["--format", "json"])).unwrap();
        for key in ["session", "target", "policy", "stored", "replay", "rewrites", "export"] {
            assert!(doc.get(key).is_some(), "{}: {key}", path.display());
        }
        assert_eq!(doc["export"]["redaction"], "none");
    }
}

/// An export with the checkout's path (in the reproduce command) made neutral.
fn export_anywhere(path: &Path, args: &[&str]) -> String {
    export(path, args).replace(env!("CARGO_MANIFEST_DIR"), "[checkout]")
}

#[test]
fn markdown_and_html_snapshots() {
    let repair = common::bundled_samples().join("anthropic-tool-repair.jsonl");
    insta::assert_snapshot!(
        "anthropic_tool_repair_md",
        export_anywhere(&repair, &["--format", "md", "--context", "1"])
    );
    let noise = common::bundled_samples().join("gateway-channel-noise.jsonl");
    insta::assert_snapshot!(
        "gateway_channel_noise_redacted_md",
        export_anywhere(&noise, &["--format", "md", "--redact"])
    );
    insta::assert_snapshot!(
        "gateway_channel_noise_html",
        export_anywhere(&noise, &["--format", "html"])
    );
}

#[test]
fn exports_are_deterministic_and_written_to_files() {
    let path = common::bundled_samples().join("anthropic-tool-repair.jsonl");
    for format in ["md", "html", "json"] {
        assert_eq!(
            export(&path, &["--format", format]),
            export(&path, &["--format", format]),
            "{format}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.html");
    let out = Command::new(common::bin())
        .arg("export")
        .arg(&path)
        .args(["--format", "html", "-o"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("wrote"));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        export(&path, &["--format", "html"])
    );
}

#[test]
fn context_and_only_changed_select_rows() {
    let path = common::bundled_samples().join("anthropic-tool-repair.jsonl");
    let narrow = export(&path, &["--format", "md"]);
    let wide = export(&path, &["--format", "md", "--context", "2"]);
    assert!(wide.len() > narrow.len());
    assert!(wide.contains(": unchanged ("));
    // HTML: unchanged messages fold into their run's line (`<details class="gap">`) in a full
    // report, are only counted with `--only-changed`, and stand open around each change with
    // `--context`.
    let unchanged = |html: &str| html.matches("<div class=\"same\" id=\"row-").count();
    let all = export(&path, &["--format", "html"]);
    let changed = export(&path, &["--format", "html", "--only-changed"]);
    let near = export(&path, &["--format", "html", "--only-changed", "--context", "1"]);
    assert!(unchanged(&all) > 0 && all.contains("<details class=\"gap\">"));
    // With `--only-changed`, the unchanged messages left are those a lint finding names (the
    // verdict's), with one row of context each; the rest are only counted.
    assert!(
        unchanged(&changed) < unchanged(&all),
        "{} of {}",
        unchanged(&changed),
        unchanged(&all)
    );
    assert!(changed.contains("<p class=\"gap\">… "));
    assert!(unchanged(&near) > 0 && unchanged(&near) <= unchanged(&all));
    assert_eq!(
        all.matches("<article class=\"change").count(),
        changed.matches("<article class=\"change").count(),
        "the same changes either way"
    );
}

/// Values of an attribute across a document.
fn attribute_values<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!(" {name}=\"");
    html.match_indices(&key)
        .map(|(i, _)| {
            let rest = &html[i + key.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

#[test]
fn html_report_reads_verdict_first_and_links_hold() {
    for path in common::bundled_session_files() {
        let html = export(&path, &["--format", "html"]);
        let name = path.display();
        assert_eq!(
            html.matches("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">").count(),
            1,
            "{name}: the strict policy"
        );
        let at = |needle: &str| html.find(needle).unwrap_or_else(|| panic!("{name}: no {needle}"));
        assert!(
            at("<nav class=\"index\"") < at("<main>"),
            "{name}: the index comes first in the source"
        );
        assert!(
            at("<section id=\"verdict\" class=\"card verdict\">") < at("<section id=\"changes\">")
                && at("<section id=\"changes\">") < at("<section id=\"lint\">"),
            "{name}: verdict, then changes, then lint"
        );
        assert!(at("Reproduce this report:") < at("<pre class=\"command\">replaylens export "));
        let ids = attribute_values(&html, "id");
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{name}: ids are unique");
        for href in attribute_values(&html, "href") {
            let target = href
                .strip_prefix('#')
                .unwrap_or_else(|| panic!("{name}: a link out: {href}"));
            assert!(ids.contains(&target), "{name}: #{target} leads nowhere");
        }
        assert_eq!(
            html.matches("<details").count(),
            html.matches("</details>").count(),
            "{name}: balanced details"
        );
        // Every change names its rules, linked to the Rules section.
        for card in html.split("<article class=\"change ").skip(1) {
            let card = &card[..card.find("</article>").unwrap()];
            if !card.starts_with("movedFrom") {
                assert!(
                    card.contains("<div class=\"diff"),
                    "{name}: a change without a diff: {card}"
                );
            }
        }
        assert_eq!(
            html.matches("<article class=\"change ").count(),
            html.matches("<li><a href=\"#row-").count(),
            "{name}: every change is in the index"
        );
    }
}

#[test]
fn html_changes_are_diffs_not_dumps() {
    let path = common::bundled_samples().join("mistral-ids-and-images.jsonl");
    let mistral = [
        "--provider",
        "mistral",
        "--api",
        "mistral-conversations",
        "--model",
        "devstral-medium-2507",
    ];
    let html = export(&path, &[&mistral[..], &["--format", "html"]].concat());
    let card = |label: &str| -> &str {
        let at = html.find(&format!("<span class=\"ids\">{label}</span>")).unwrap();
        let start = html[..at].rfind("<article").unwrap();
        &html[start..start + html[start..].find("</article>").unwrap()]
    };
    // s2 → r2: a call id rewritten and `details` removed: those paths and a little context.
    let s2 = card("s2 → r2");
    assert!(s2.contains("<a class=\"tag\" href=\"#rule-tool-call-id\""), "{s2}");
    assert!(
        s2.contains("<a class=\"tag\" href=\"#rule-tool-result-details\""),
        "{s2}"
    );
    assert!(s2.contains("removed <code>details</code>"), "{s2}");
    assert!(
        s2.contains("<div class=\"diff split\">"),
        "a path on both sides: side by side"
    );
    assert!(
        s2.contains("<span class=\"p\">toolCallId</span>: <span class=\"v\">&quot;")
            || s2.contains("<span class=\"p\">toolCallId</span>: <span class=\"v\">\"")
    );
    assert!(s2.contains("<div class=\"l rm\"><span class=\"sg\">-</span> <span class=\"p\">details</span>"));
    assert!(
        !s2.contains("{\n  \"") && !s2.contains("<pre>"),
        "no pretty-printed dump: {s2}"
    );
    // A long value is elided with its length, and whole in a details.
    let s0 = card("s0 → r0");
    assert!(s0.contains("<span class=\"el\">… 7,692 chars …</span>"), "{s0}");
    assert!(s0.contains("<details class=\"l ctx"), "the elided context line opens");
    // A string replaced as a whole has no word marks; one changed in part marks the words.
    let s10 = card("s10 → r10");
    assert!(
        s10.contains("<span class=\"v\">\"[empty content omitted]\"</span>"),
        "{s10}"
    );
    let noise = export(
        &common::bundled_samples().join("gateway-channel-noise.jsonl"),
        &["--format", "html"],
    );
    assert!(
        noise.contains("<span class=\"v\">\"<ins>[Inter-session message] "),
        "word-level marks"
    );
    // Rules section with every rule's explanation.
    for rule in ["blank-text", "image-sanitize", "tool-call-id", "tool-result-details"] {
        assert!(
            html.contains(&format!("<section class=\"rule\" id=\"rule-{rule}\">")),
            "{rule}"
        );
    }
    assert!(html.contains("… 1 unchanged message …"));
}

/// Secrets planted in every field a transcript has.
const SECRETS: &[&str] = &[
    "sk-ant-api03-Zx9Qw7Er5Ty3Ui1OpAsDfGhJkL",
    "sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4",
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
    "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "AIzaSyD-1234567890abcdefghijklmnopqrstu",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "hunter2pass",
    "alice.smith@example.com",
    "+1 415-555-0199",
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
    "bearertoken1234567890abcd",
];

fn planted_session(dir: &Path) -> PathBuf {
    let s = SECRETS;
    let pem = format!("-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----", s[12]);
    let header = json!({"type": "session", "version": 3, "id": format!("sess-{}", s[10]), "timestamp": "2026-09-01T08:00:00.000Z", "cwd": "/w"});
    let entries = [
        json!({"type": "message", "id": "e1", "parentId": null, "timestamp": "2026-09-01T08:00:01.000Z",
            "message": {"role": "user", "content": [{"type": "text", "text": format!("my key is {} and mail {} phone {}", s[0], s[10], s[11])}],
                "timestamp": 1788249601000_i64, "futureField": {"token": s[1]}}}),
        json!({"type": "message", "id": "e2", "parentId": "e1", "timestamp": "2026-09-01T08:00:02.000Z",
            "message": {"role": "assistant", "content": [
                {"type": "thinking", "thinking": format!("the aws key {} has aws_secret_access_key={}", s[2], s[3]), "thinkingSignature": "c2ln"},
                {"type": "text", "text": format!("Using Authorization: Bearer {}", s[13])},
                {"type": "toolCall", "id": format!("call_{}", s[4]), "name": "exec",
                    "arguments": {"command": format!("curl -H 'x: {}' https://admin:{}@example.org", s[7], s[9]), "env": {"SLACK": s[6], "GH": s[5]}}}],
                "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-6", "stopReason": "toolUse",
                "usage": {"input": 1, "output": 1, "totalTokens": 2}, "timestamp": 1788249602000_i64}}),
        json!({"type": "message", "id": "e3", "parentId": "e2", "timestamp": "2026-09-01T08:00:03.000Z",
            "message": {"role": "toolResult", "toolCallId": format!("call_{}", s[4]), "toolName": "exec",
                "content": [{"type": "text", "text": format!("{pem}\njwt={}", s[8])}], "details": {"raw": s[0]}, "isError": false,
                "timestamp": 1788249603000_i64}}),
    ];
    let mut text = header.to_string() + "\n";
    for e in entries {
        text.push_str(&e.to_string());
        text.push('\n');
    }
    let path = dir.join("planted.jsonl");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn planted_secrets_never_appear_in_any_format_or_level() {
    let dir = tempfile::tempdir().unwrap();
    let path = planted_session(dir.path());
    let plain = export(&path, &["--format", "json"]);
    for secret in SECRETS {
        assert!(plain.contains(secret), "the corpus really plants {secret}");
    }
    for level in ["--redact", "--redact=secrets", "--redact=all-text"] {
        for format in ["md", "html", "json"] {
            let out = export(&path, &["--format", format, level]);
            for secret in SECRETS {
                assert!(!out.contains(secret), "{format} {level} leaks {secret}");
                let html_form = secret.replace('/', "&#x2F;").replace('+', "&#x2B;");
                assert!(!out.contains(&html_form), "{format} {level} leaks {secret} (escaped)");
            }
            // all-text replaces the prose around a secret too, so only `secrets` must show the
            // secret placeholders.
            assert!(
                level.ends_with("all-text") || out.contains("[secret:"),
                "{format} {level}"
            );
            assert!(out.contains("exec"), "{format} {level}: structure is kept");
        }
    }
    let doc: Value = serde_json::from_str(&export(&path, &["--format", "json", "--redact"])).unwrap();
    let redacted = &doc["export"]["redacted"];
    assert!(redacted["secret"].as_u64().unwrap() >= 12, "{redacted}");
    assert!(redacted["email"].as_u64().unwrap() >= 1 && redacted["phone"].as_u64().unwrap() >= 1);
    let ids: Vec<&Value> = doc["stored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["message"])
        .collect();
    assert_eq!(
        ids[2]["toolCallId"], ids[1]["content"][2]["id"],
        "the same secret gets the same placeholder everywhere"
    );
    let all = export(&path, &["--format", "md", "--redact=all-text"]);
    assert!(
        !all.contains("my key is") && !all.contains("Using Authorization"),
        "prose replaced"
    );
}

const XSS: &[&str] = &[
    "<script>document.body.setAttribute('data-pwned','script')</script>",
    "<img src=x onerror=\"document.body.setAttribute('data-pwned','img')\">",
    "<a href=\"javascript:document.body.setAttribute('data-pwned','link')\">click</a>",
    "</pre></td></tr></table><script>document.title='pwned'</script>",
    "\u{1b}]0;pwned\u{7}\u{1b}[2J",
];

fn xss_session(dir: &Path) -> PathBuf {
    let messages: Vec<Value> = XSS
        .iter()
        .enumerate()
        .flat_map(|(i, x)| {
            [
                json!({"role": "user", "content": [{"type": "text", "text": x}]}),
                json!({"role": "assistant", "content": [{"type": "toolCall", "id": format!("call {i} {x}"), "name": "exec", "arguments": {"cmd": x}}],
                    "stopReason": "toolUse", "provider": "anthropic", "api": "anthropic-messages", "model": "claude-sonnet-4-6"}),
            ]
        })
        .collect();
    let path = dir.join("xss.json");
    std::fs::write(&path, serde_json::to_string(&messages).unwrap()).unwrap();
    path
}

#[test]
fn hostile_text_is_escaped_in_html_and_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let path = xss_session(dir.path());
    let html = export(&path, &["--format", "html"]);
    assert!(!html.contains("<script") && !html.contains("<img") && !html.contains("<a href=\"javascript"));
    assert!(html.contains("&lt;script&gt;"));
    assert!(
        !html.contains('\u{1b}') || html.contains("\\u001b"),
        "escape sequences stay JSON-escaped"
    );
    let md = export(&path, &["--format", "md"]);
    for event in Parser::new(&md) {
        if let Event::Html(h) | Event::InlineHtml(h) = event {
            assert!(
                !h.contains("script") && !h.contains("onerror") && !h.contains("javascript"),
                "raw HTML in Markdown: {h}"
            );
        }
    }
}

#[test]
fn html_in_headless_chromium_renders_text_and_runs_nothing() {
    let Some(browser) = chromium::find_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = xss_session(dir.path());
    let file = dir.path().join("xss.html");
    std::fs::write(&file, export(&path, &["--format", "html"])).unwrap();
    let out = chromium::dump_dom(&browser, &dir.path().join("profile"), &file, (1280, 900));
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(
        dom.contains("<section id=\"changes\">"),
        "the page rendered: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let body_start = dom.find("<body").expect("a body element");
    let body_tag = &dom[body_start..body_start + dom[body_start..].find('>').unwrap()];
    assert!(!body_tag.contains("data-pwned"), "a transcript script ran: {body_tag}");
    assert!(!dom.contains("<title>pwned</title>"));
    assert!(
        !dom.contains("<script") && !dom.contains("<img"),
        "no element was created from transcript text"
    );
    assert!(
        dom.contains("&lt;script&gt;document.body.setAttribute"),
        "the payload is shown as text"
    );
    assert!(
        dom.contains("onerror=") && dom.contains("javascript:"),
        "attribute payloads are visible text"
    );
}
