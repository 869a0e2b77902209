//! A generated corpus of realistic secrets, planted in every kind of message and nesting a
//! session holds (prose, thinking, tool arguments nested in arrays and objects, tool output
//! and its details, error messages, shell executions, custom messages, summaries, unknown
//! entries, a Codex tool output whose stdout is JSON): `export --redact` and
//! `--redact=all-text` leak none of them, in any export format.
//!
//! Each secret is random (a fixed seed, so a failure names the same secret every run) and
//! written in the form real tools print it. The exports are decoded before they are searched
//! (HTML entities, Markdown backslash escapes, JSON strings), so an escaped leak still counts.

mod common;
mod redaction_support;

use redaction_support::forms::{FAMILIES, Plant, Rng, SPLIT_FORMS, plant, split_plant};

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Prose planted in the OpenClaw session: in user text, thinking, tool output and arguments,
/// an error message, a shell execution, a custom message and the summaries.
const PROSE: &[&str] = &[
    "please check this",
    "The user pasted",
    "request failed",
    "Earlier the user shared",
    "On the other branch",
    "sshpass",
    "heroku",
    "huggingface",
];

fn entry(id: usize, message: serde_json::Value) -> serde_json::Value {
    let parent = if id == 0 {
        serde_json::Value::Null
    } else {
        serde_json::Value::String(format!("e{}", id - 1))
    };
    serde_json::json!({"type": "message", "id": format!("e{id}"), "parentId": parent,
        "timestamp": "2026-09-01T08:00:01.000Z", "message": message})
}

/// One message of `kind` holding `p` (and `q` where the kind has two places).
fn placed(kind: usize, p: &Plant, q: &Plant) -> serde_json::Value {
    use serde_json::json;
    let assistant = |content: serde_json::Value| {
        json!({"role": "assistant", "content": content, "api": "anthropic-messages", "provider": "anthropic",
            "model": "claude-sonnet-4-6", "stopReason": "toolUse", "timestamp": 2})
    };
    match kind % 12 {
        0 => json!({"role": "user", "content": format!("please check this: {}", p.text), "timestamp": 1}),
        1 => {
            json!({"role": "user", "content": [{"type": "text", "text": p.text}, {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo=", "alt": q.text}], "timestamp": 1})
        }
        2 => assistant(
            json!([{"type": "thinking", "thinking": format!("The user pasted {}", p.text), "thinkingSignature": "sig"},
            {"type": "text", "text": q.text}]),
        ),
        3 => assistant(json!([{"type": "toolCall", "id": "c1", "name": "bash",
            "arguments": {"command": p.text, "env": [{"name": "X", "value": q.text}], "timeout": 30}}])),
        4 => json!({"role": "toolResult", "toolCallId": "c1", "toolName": "bash", "isError": false, "timestamp": 3,
            "content": [{"type": "text", "text": format!("$ run\n{}\ndone", p.text)}],
            "details": {"stdout": q.text, "nested": [{"deeper": {"line": p.text}}]}}),
        5 => json!({"role": "assistant", "content": [], "api": "anthropic-messages", "provider": "anthropic",
            "model": "claude-sonnet-4-6", "stopReason": "error", "errorMessage": format!("request failed: {}", p.text), "timestamp": 2}),
        6 => json!({"role": "bashExecution", "command": p.text, "output": q.text, "exitCode": 0, "timestamp": 4}),
        7 => {
            json!({"role": "custom", "customType": "note", "content": p.text, "display": true, "details": {"raw": q.text}, "timestamp": 5})
        }
        8 => json!({"role": "user", "content": [{"type": "text", "text": "config:"},
            {"type": "text", "text": serde_json::to_string(&json!({"settings": {"nested": [p.text, {"deep": q.text}]}})).unwrap()}], "timestamp": 1}),
        9 => assistant(json!([{"type": "toolCall", "id": "c2", "name": "http",
            "arguments": {"headers": {"Authorization": p.text}, "body": serde_json::to_string(&json!({"line": q.text})).unwrap()}}])),
        10 => json!({"role": "toolResult", "toolCallId": "c2", "toolName": "http", "isError": true, "timestamp": 3,
            "content": [{"type": "text", "text": serde_json::to_string(&json!({"output": serde_json::to_string(&json!({"log": p.text, "env": q.text})).unwrap(), "metadata": {"exit_code": 1}})).unwrap()}]}),
        _ => {
            json!({"role": "user", "content": [{"type": "text", "text": format!("{}\n{}", p.text, q.text)}], "timestamp": 1})
        }
    }
}

/// An OpenClaw session holding every plant, and the plants.
fn openclaw_session(dir: &Path, rng: &mut Rng) -> (PathBuf, Vec<Plant>) {
    use serde_json::json;
    let mut plants = Vec::new();
    let mut lines = vec![
        json!({"type": "session", "version": 3, "id": "corpus", "timestamp": "2026-09-01T08:00:00.000Z", "cwd": "/srv/app"}),
    ];
    let mut id = 0;
    for family in 0..FAMILIES * 6 {
        let p = plant(rng, family);
        let q = plant(rng, family + 7);
        lines.push(entry(id, placed(family, &p, &q)));
        id += 1;
        plants.push(p);
        plants.push(q);
    }
    // Summaries and entries that are not messages.
    for family in 0..12 {
        let p = plant(rng, family * 2 + 1);
        let parent = format!("e{}", id - 1);
        let line = match family % 3 {
            0 => {
                json!({"type": "compaction", "id": format!("e{id}"), "parentId": parent, "timestamp": "2026-09-01T08:00:02.000Z",
                "summary": format!("Earlier the user shared {}", p.text), "firstKeptEntryId": "e0", "tokensBefore": 1000})
            }
            1 => {
                json!({"type": "branch_summary", "id": format!("e{id}"), "parentId": parent, "timestamp": "2026-09-01T08:00:02.000Z",
                "fromId": parent, "summary": format!("On the other branch: {}", p.text)})
            }
            _ => {
                json!({"type": "custom", "id": format!("e{id}"), "parentId": parent, "timestamp": "2026-09-01T08:00:02.000Z",
                "customType": "audit", "data": {"line": p.text}})
            }
        };
        lines.push(line);
        id += 1;
        plants.push(p);
    }
    // Secrets split over two text blocks (issue 45 finding 11).
    for n in 0..SPLIT_FORMS * 4 {
        let (first, second, split) = split_plant(rng, n % SPLIT_FORMS);
        let blocks = json!([{"type": "text", "text": first}, {"type": "text", "text": second}]);
        let message = if n % 2 == 0 {
            json!({"role": "user", "content": blocks, "timestamp": 1})
        } else {
            json!({"role": "assistant", "content": blocks, "api": "anthropic-messages", "provider": "anthropic",
                "model": "claude-sonnet-4-6", "stopReason": "stop", "timestamp": 2})
        };
        lines.push(entry(id, message));
        id += 1;
        plants.extend(split);
    }
    let path = dir.join("corpus.jsonl");
    let mut text = String::new();
    for l in &lines {
        let _ = writeln!(text, "{l}");
    }
    std::fs::write(&path, text).unwrap();
    (path, plants)
}

/// The forms of the Codex rollout: a JSON tool output, a function call's arguments, a local
/// shell call's argument vector.
const CODEX_FORMS: usize = 3;

/// A Codex rollout whose tool outputs are JSON documents (stdout of `cat config.json`), with
/// secrets in function call arguments and local shell calls.
fn codex_session(dir: &Path, rng: &mut Rng) -> (PathBuf, Vec<Plant>) {
    use serde_json::json;
    let mut plants = Vec::new();
    let mut lines = vec![json!({"timestamp": "2026-08-03T10:48:56.000Z", "type": "session_meta",
        "payload": {"id": "019fc8be-3658-7ca3-9e29-000000000001", "timestamp": "2026-08-03T10:48:56.000Z", "cwd": "/tmp/repo",
            "originator": "codex_cli_rs", "cli_version": "0.146.0", "model_provider": "openai"}})];
    for i in 0..8 {
        let (password, key) = (rng.password(), rng.alnum(32));
        let stdout = serde_json::to_string(&json!({"password": password, "api_key": key, "port": 5432})).unwrap();
        let call = format!("call-{i}");
        lines.push(json!({"timestamp": "2026-08-03T10:48:57.000Z", "type": "response_item",
            "payload": {"type": "function_call", "call_id": call, "name": "shell", "arguments": "{\"command\":[\"cat\",\"config.json\"]}"}}));
        let output = if i % 2 == 0 {
            json!(serde_json::to_string(&json!({"output": stdout, "metadata": {"exit_code": 0}})).unwrap())
        } else {
            json!({"type": "input_text", "text": stdout})
        };
        lines.push(json!({"timestamp": "2026-08-03T10:48:58.000Z", "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": call, "output": output}}));
        // A function call's arguments and a local shell call's argument vector (issue 45
        // finding 11).
        let (token, db) = (rng.alnum(40), rng.password());
        let command = format!("curl -H 'Authorization: Bearer {token}' https://api.example.com");
        lines.push(json!({"timestamp": "2026-08-03T10:48:59.000Z", "type": "response_item",
            "payload": {"type": "function_call", "call_id": format!("fc-{i}"), "name": "shell",
                "arguments": serde_json::to_string(&json!({"command": ["bash", "-lc", command]})).unwrap()}}));
        lines.push(json!({"timestamp": "2026-08-03T10:49:00.000Z", "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": format!("fc-{i}"), "output": "ok"}}));
        lines.push(json!({"timestamp": "2026-08-03T10:49:01.000Z", "type": "response_item",
            "payload": {"type": "local_shell_call", "call_id": format!("ls-{i}"), "status": "completed",
                "action": {"type": "exec", "command": ["mysql", "-uroot", format!("-p{db}"), "app"]}}}));
        lines.push(json!({"timestamp": "2026-08-03T10:49:02.000Z", "type": "response_item",
            "payload": {"type": "function_call_output", "call_id": format!("ls-{i}"), "output": "ok"}}));
        plants.push(Plant {
            text: command,
            secret: token,
        });
        plants.push(Plant {
            text: format!("mysql -uroot -p{db} app"),
            secret: db,
        });
        plants.push(Plant {
            text: stdout.clone(),
            secret: password,
        });
        plants.push(Plant {
            text: stdout,
            secret: key,
        });
    }
    let path = dir.join("rollout-2026-08-03T10-48-56-019fc8be-3658-7ca3-9e29-000000000001.jsonl");
    let mut text = String::new();
    for l in &lines {
        let _ = writeln!(text, "{l}");
    }
    std::fs::write(&path, text).unwrap();
    (path, plants)
}

/// Every string of a JSON document, joined.
fn json_strings(v: &serde_json::Value, out: &mut String) {
    match v {
        serde_json::Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        serde_json::Value::Array(items) => items.iter().for_each(|i| json_strings(i, out)),
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                out.push_str(k);
                out.push('\n');
                json_strings(v, out);
            }
        }
        serde_json::Value::Number(n) => {
            out.push_str(&n.to_string());
            out.push('\n');
        }
        _ => {}
    }
}

/// The export as a reader sees it: entities and escapes decoded, JSON strings unquoted (and
/// JSON inside them unquoted again).
fn decoded(format: &str, raw: &str) -> String {
    let mut text = match format {
        "html" => html_unescape(raw),
        "md" => raw.replace('\\', ""),
        _ => {
            let mut out = String::new();
            json_strings(&serde_json::from_str(raw).expect("JSON export parses"), &mut out);
            out
        }
    };
    text.push_str(&raw.replace("\\\"", "\"").replace("\\\\", "\\"));
    text
}

fn html_unescape(s: &str) -> String {
    let mut out = s
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'");
    out = out.replace("&#39;", "'").replace("&#x2F;", "/").replace("&#47;", "/");
    out.replace("&amp;", "&")
}

fn export(session: &Path, format: &str, level: &str) -> String {
    let out_file = session.with_extension(format!("redacted.{format}"));
    let out = Command::new(common::bin())
        .args(["export", session.to_str().unwrap(), "--format", format])
        .args((!level.is_empty()).then_some(level))
        .args([
            "--provider",
            "anthropic",
            "--model",
            "claude-sonnet-4-6",
            "-o",
            out_file.to_str().unwrap(),
        ])
        .output()
        .expect("run replaylens");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::read_to_string(out_file).unwrap()
}

#[test]
fn no_planted_secret_survives_any_export() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (openclaw, plants) = openclaw_session(dir.path(), &mut rng);
    let (codex, codex_plants) = codex_session(dir.path(), &mut rng);
    let (secrets, forms) = (plants.len() + codex_plants.len(), FAMILIES + SPLIT_FORMS + CODEX_FORMS);
    eprintln!("corpus: {secrets} secrets in {forms} forms");
    assert!(secrets >= 500 && forms >= 100, "{secrets} secrets in {forms} forms");
    let mut leaks = Vec::new();
    for (session, plants) in [(&openclaw, &plants), (&codex, &codex_plants)] {
        for format in ["md", "html", "json"] {
            // The search is not vacuous: unredacted, the export shows the secrets (Markdown the
            // changed rows only; the others all but the dropped turns' and hidden fields').
            let plain = decoded(format, &export(session, format, ""));
            let shown = plants.iter().filter(|p| plain.contains(&p.secret)).count();
            let needed = match format {
                // Markdown shows the changed rows only.
                "md" => 60.min(plants.len() / 8),
                _ => plants.len() * 3 / 4,
            };
            if session == &openclaw && format == "json" {
                for phrase in PROSE {
                    assert!(plain.contains(phrase), "{format}: {phrase:?} not shown unredacted");
                }
            }
            let missing: Vec<&str> = plants
                .iter()
                .filter(|p| !plain.contains(&p.secret))
                .map(|p| p.text.as_str())
                .collect();
            assert!(
                shown >= needed,
                "{format}: only {shown} of {} secrets found unredacted; not shown: {missing:#?}",
                plants.len()
            );
            for level in ["--redact", "--redact=all-text"] {
                let raw = export(session, format, level);
                // No absolute path of this machine (issue 45 finding 12): the session is named
                // by its base name, in the reproduce command too.
                let folder = dir.path().to_str().unwrap();
                if raw.contains(folder) || decoded(format, &raw).contains(folder) {
                    leaks.push(format!("{format} {level}: the session's folder {folder}"));
                }
                let seen = decoded(format, &raw);
                for p in plants {
                    if seen.contains(&p.secret) {
                        leaks.push(format!("{format} {level}: {} (in {:?})", p.secret, p.text));
                    }
                }
                // all-text: the prose around the secrets goes too, wherever it was written.
                for phrase in PROSE.iter().filter(|_| level.ends_with("all-text")) {
                    if seen.contains(phrase) {
                        leaks.push(format!("{format} {level}: prose {phrase:?}"));
                    }
                }
            }
        }
    }
    assert!(leaks.is_empty(), "{} leaks:\n{}", leaks.len(), leaks.join("\n"));
}

/// `export --format session --redact`: the shareable session file leaks none of the planted
/// secrets (the unredacted one shows every one the file holds), is a session of the same format, and
/// replays to the same rewrites (rule, action and stored messages) as the original.
#[test]
fn a_shared_session_keeps_no_planted_secret_and_replays_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (openclaw, plants) = openclaw_session(dir.path(), &mut rng);
    let session = |level: &str| {
        let out_file = dir.path().join(format!("shared{}.jsonl", level.len()));
        let out = Command::new(common::bin())
            .args(["export", openclaw.to_str().unwrap(), "--format", "session"])
            .args((!level.is_empty()).then_some(level))
            .args(["-o", out_file.to_str().unwrap()])
            .output()
            .expect("run replaylens");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        out_file
    };
    // Each line decoded as the JSON export is (strings unquoted, JSON inside them too).
    let lines = |raw: String| raw.lines().map(|l| decoded("json", l)).collect::<Vec<_>>().join("\n");
    let plain = lines(std::fs::read_to_string(session("")).unwrap());
    // Not vacuous: unredacted, the shared session holds the secrets the session file holds.
    let raw = lines(std::fs::read_to_string(&openclaw).unwrap());
    let held = plants.iter().filter(|p| raw.contains(&p.secret)).count();
    let shown = plants.iter().filter(|p| plain.contains(&p.secret)).count();
    assert!(
        held >= plants.len() / 2 && shown == held,
        "unredacted, {shown} of the {held} secrets in the file are there"
    );
    let rewrites = |file: &Path| -> Vec<(String, String, String)> {
        let out = Command::new(common::bin())
            .args([
                "replay",
                file.to_str().unwrap(),
                "--provider",
                "anthropic",
                "--model",
                "claude-sonnet-4-6",
            ])
            .args(["--format", "json"])
            .output()
            .unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["rewrites"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["rule"].to_string(), r["action"].to_string(), r["stored"].to_string()))
            .collect()
    };
    let original = rewrites(&openclaw);
    assert!(!original.is_empty());
    for level in ["--redact", "--redact=all-text"] {
        let shared = session(level);
        let seen = lines(std::fs::read_to_string(&shared).unwrap());
        let leaks: Vec<&str> = plants
            .iter()
            .filter(|p| seen.contains(&p.secret))
            .map(|p| p.secret.as_str())
            .collect();
        assert!(leaks.is_empty(), "{level}: {} leaks: {leaks:?}", leaks.len());
        let first = std::fs::read_to_string(&shared).unwrap();
        assert!(first.starts_with(r#"{"type":"session""#), "still an OpenClaw session");
        assert_eq!(
            rewrites(&shared),
            original,
            "{level}: the same rewrites as the original"
        );
    }

    // A report with its case beside it: the copy is redacted even when the report is not, and
    // the report's reproduce command names the copy, not the customer's file.
    let (report, case) = (dir.path().join("report.md"), dir.path().join("case.jsonl"));
    let out = Command::new(common::bin())
        .args(["export", openclaw.to_str().unwrap(), "--provider", "anthropic"])
        .args(["-o", report.to_str().unwrap(), "--with-session", case.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let seen = lines(std::fs::read_to_string(&case).unwrap());
    assert!(
        plants.iter().all(|p| !seen.contains(&p.secret)),
        "the shared case is redacted"
    );
    let report = std::fs::read_to_string(&report).unwrap();
    // Named by its base name: the copy travels beside the report (issue 45 finding 12).
    let command = "replaylens export case.jsonl --provider anthropic";
    assert!(report.contains(command), "{command} in:\n{report}");
    assert!(!report.contains(&case.display().to_string()), "{report}");
    assert!(!report.contains(&format!("export {}", openclaw.display())));
}

/// `export --format session` of the Codex rollout keeps none of its secrets (the unredacted
/// copy shows them: the search is not vacuous).
#[test]
fn a_shared_codex_session_keeps_no_planted_secret() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (codex, plants) = codex_session(dir.path(), &mut rng);
    let lines = |raw: String| raw.lines().map(|l| decoded("json", l)).collect::<Vec<_>>().join("\n");
    for level in ["", "--redact", "--redact=all-text"] {
        let out_file = dir.path().join(format!("shared{}.jsonl", level.len()));
        let out = Command::new(common::bin())
            .args(["export", codex.to_str().unwrap(), "--format", "session"])
            .args((!level.is_empty()).then_some(level))
            .args(["-o", out_file.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let seen = lines(std::fs::read_to_string(&out_file).unwrap());
        let shown: Vec<&str> = plants
            .iter()
            .filter(|p| seen.contains(&p.secret))
            .map(|p| p.secret.as_str())
            .collect();
        if level.is_empty() {
            assert_eq!(shown.len(), plants.len(), "unredacted, every secret is there");
        } else {
            assert!(shown.is_empty(), "{level}: {} leaks: {shown:?}", shown.len());
        }
    }
}

/// `reduce` (redacting by default) writes a case that keeps none of the secrets planted in the
/// tool calls it keeps, nor the user name of the session's working directory; with
/// `--no-redact` the case shows them (the search is not vacuous).
#[test]
fn a_reduced_case_keeps_no_planted_secret() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let sample = common::bundled_samples().join("mistral-ids-and-images.jsonl");
    let mut plants = Vec::new();
    let mut text = String::new();
    for line in std::fs::read_to_string(sample).unwrap().lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Some(blocks) = v.pointer_mut("/message/content").and_then(|c| c.as_array_mut()) {
            for block in blocks.iter_mut().filter(|b| b["type"] == "toolCall") {
                let p = plant(&mut rng, plants.len() * 7);
                block["arguments"]["note"] = serde_json::Value::String(p.text.clone());
                plants.push(p);
            }
        }
        let _ = writeln!(text, "{v}");
    }
    assert!(
        text.contains("/home/maya/"),
        "the sample's working directory names a user"
    );
    let session = dir.path().join("planted.jsonl");
    std::fs::write(&session, text).unwrap();
    let case = |extra: &[&str]| {
        let out_file = dir.path().join(format!("case{}.jsonl", extra.len()));
        let out = Command::new(common::bin())
            .args(["reduce", session.to_str().unwrap(), "-o", out_file.to_str().unwrap()])
            .args(["--keep", "mistral-user-after-tool"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let raw = std::fs::read_to_string(out_file).unwrap();
        raw.lines().map(|l| decoded("json", l)).collect::<Vec<_>>().join("\n")
    };
    let plain = case(&["--no-redact"]);
    assert!(
        plants.iter().any(|p| plain.contains(&p.secret)),
        "unredacted, the case shows secrets"
    );
    assert!(plain.contains("/home/maya/"));
    let redacted = case(&[]);
    let mut leaks: Vec<&str> = plants
        .iter()
        .filter(|p| redacted.contains(&p.secret))
        .map(|p| p.secret.as_str())
        .collect();
    if redacted.contains("maya") {
        leaks.push("the user name maya");
    }
    assert!(leaks.is_empty(), "{} leaks: {leaks:?}", leaks.len());
}
