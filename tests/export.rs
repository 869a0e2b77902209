//! `replaylens export`: every sample in every format, valid Markdown, deterministic output,
//! planted secrets never leak, and hostile transcript text stays text.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use serde_json::{Value, json};

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
    let all = export(&path, &["--format", "html"]);
    let changed = export(&path, &["--format", "html", "--only-changed"]);
    assert!(all.matches("<tr class=").count() > changed.matches("<tr class=").count());
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
            assert!(out.contains("[secret:"), "{format} {level}");
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

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let out = Command::new("sh")
                .arg("-c")
                .arg(format!("command -v {name}"))
                .output()
                .ok()?;
            out.status
                .success()
                .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
        })
}

#[test]
fn html_in_headless_chromium_renders_text_and_runs_nothing() {
    let Some(browser) = chromium() else {
        if std::env::var("REPLAYLENS_REQUIRE_CHROMIUM").as_deref() == Ok("1") {
            panic!("chromium is required (REPLAYLENS_REQUIRE_CHROMIUM=1) but was not found");
        }
        eprintln!("SKIPPED: chromium not installed (.ci/run installs it)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = xss_session(dir.path());
    let file = dir.path().join("xss.html");
    std::fs::write(&file, export(&path, &["--format", "html"])).unwrap();
    let profile = dir.path().join("profile");
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=2000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", file.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(
        dom.contains("<table class=\"rows\">"),
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
