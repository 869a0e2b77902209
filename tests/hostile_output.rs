//! A session is untrusted input: whatever it holds, no command prints a character a terminal
//! could act on (C0 but newline and tab, DEL, C1, bidi controls), and `export -o` never
//! overwrites the session it reads.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use replaylens::json;

/// Escape sequences an attacker would use: set the title, clear the screen, write the
/// clipboard (OSC 52), ask the terminal to type a reply (DSR), a C1 CSI, DEL, bidi override.
const NASTY: &str =
    "x\u{1b}]0;pwned\u{7}\u{1b}[2J\u{1b}]52;c;ZWNobyBoaQ==\u{7}\u{1b}[6n\u{9b}31m\u{7f}\u{202e}gnp.exe\u{2066}";

fn hostile_session(dir: &Path) -> std::path::PathBuf {
    let lines = [
        json!({"type": "session", "version": 3, "id": format!("id-{NASTY}"), "timestamp": "2026-03-09T08:41:07.000Z", "cwd": NASTY}),
        json!({"type": "model_change", "id": "m1", "parentId": null, "timestamp": "2026-03-09T08:41:07.010Z",
               "provider": format!("prov{NASTY}"), "modelId": format!("model{NASTY}")}),
        json!({"type": "message", "id": "a1", "parentId": "m1", "timestamp": "2026-03-09T08:41:08.000Z",
               "message": {"role": format!("user{NASTY}"), "content": format!("hello {NASTY}"), "timestamp": 1}}),
        json!({"type": "message", "id": "a2", "parentId": "a1", "timestamp": "2026-03-09T08:41:09.000Z",
               "message": {"role": "user", "content": [{"type": "text", "text": NASTY},
                   {"type": "image", "data": "iVBORw0KGgo=", "mimeType": format!("image/png{NASTY}")}], "timestamp": 2}}),
        json!({"type": "message", "id": "a3", "parentId": "a2", "timestamp": "2026-03-09T08:41:10.000Z",
               "message": {"role": "assistant", "content": [
                   {"type": "thinking", "thinking": NASTY, "thinkingSignature": NASTY},
                   {"type": "toolCall", "id": format!("call{NASTY}"), "name": format!("exec{NASTY}"), "arguments": {"cmd": NASTY}}],
                   "stopReason": format!("toolUse{NASTY}"), "model": format!("m{NASTY}"), "provider": NASTY, "api": NASTY, "timestamp": 3}}),
        json!({"type": "message", "id": "a4", "parentId": "a3", "timestamp": "2026-03-09T08:41:11.000Z",
               "message": {"role": "toolResult", "toolCallId": format!("call{NASTY}"), "toolName": NASTY,
                   "content": [{"type": "text", "text": NASTY}], "details": {"k": NASTY}, "isError": false, "timestamp": 4}}),
    ];
    let path = dir.join("hostile.jsonl");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    Command::new(common::bin()).args(args).output().expect("run replaylens")
}

/// The first character a terminal could act on, with its position, if any.
fn unsafe_char(bytes: &[u8]) -> Option<(usize, char)> {
    String::from_utf8_lossy(bytes)
        .char_indices()
        .find(|&(_, c)| replaylens::text::is_unsafe_for_terminal(c))
}

#[test]
fn no_command_prints_terminal_controls_from_a_session() {
    let dir = tempfile::tempdir().unwrap();
    let session = hostile_session(dir.path());
    let s = session.to_str().unwrap();
    let d = dir.path().to_str().unwrap();
    let provider = format!("evil{NASTY}");
    let commands: Vec<Vec<&str>> = vec![
        vec!["show", s],
        vec!["show", s, "--format", "json"],
        vec!["replay", s],
        vec!["replay", s, "--format", "json"],
        vec![
            "replay",
            s,
            "--provider",
            "anthropic",
            "--api",
            "anthropic-messages",
            "--model",
            "claude-sonnet-4-6",
        ],
        vec!["replay", s, "--provider", &provider],
        vec!["export", s, "--format", "md"],
        vec!["export", s, "--format", "html"],
        vec!["export", s, "--format", "json"],
        vec!["export", s, "--format", "md", "--redact"],
        vec!["payload", s, "--provider", "anthropic", "--api", "anthropic-messages"],
        vec![
            "payload",
            s,
            "--stage",
            "stored",
            "--provider",
            "mistral",
            "--api",
            "mistral-conversations",
        ],
        vec![
            "payload",
            s,
            "--provider",
            "openai",
            "--api",
            "openai-responses",
            "--format",
            "json",
        ],
        vec![
            "lint",
            s,
            "--stage",
            "both",
            "--provider",
            "google",
            "--api",
            "google-generative-ai",
        ],
        vec![
            "lint",
            s,
            "--stage",
            "both",
            "--provider",
            "openai",
            "--api",
            "openai-completions",
            "--format",
            "json",
        ],
        vec!["lint", s, "--api", "anthropic-messages", "--explain", &provider],
        vec!["payload", s, "--api", &provider],
        vec!["sessions", d],
        vec!["sessions", d, "--format", "json"],
        vec!["policy", "--provider", &provider, "--model", &provider],
        vec!["policy", "--provider", &provider, "--format", "json"],
        vec!["repair", s, "--dry-run"],
        vec!["rules", &provider],
        vec!["show", &provider],
    ];
    for args in &commands {
        let out = run(args);
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            if let Some((at, c)) = unsafe_char(bytes) {
                let text = String::from_utf8_lossy(bytes);
                let start = text[..at].char_indices().rev().nth(40).map_or(0, |(i, _)| i);
                panic!(
                    "{args:?} printed U+{:04X} on {stream} near {:?}",
                    c as u32,
                    &text[start..at]
                );
            }
        }
    }
}

#[test]
fn json_outputs_keep_the_hostile_strings_losslessly() {
    let dir = tempfile::tempdir().unwrap();
    let session = hostile_session(dir.path());
    let out = run(&["show", session.to_str().unwrap(), "--format", "json"]);
    assert!(out.status.success());
    let doc: replaylens::model::json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(doc["stored"][1]["message"]["content"][0]["text"], NASTY);
}

#[test]
fn export_never_overwrites_its_own_session() {
    let dir = tempfile::tempdir().unwrap();
    let session = hostile_session(dir.path());
    let before = std::fs::read(&session).unwrap();
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink(&session, &link).unwrap();
    let hard = dir.path().join("hard.jsonl");
    std::fs::hard_link(&session, &hard).unwrap();
    for target in [&session, &link, &hard] {
        let out = run(&[
            "export",
            session.to_str().unwrap(),
            "--format",
            "md",
            "-o",
            target.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains("refusing to write the export over the session"));
        assert_eq!(std::fs::read(&session).unwrap(), before, "the session is unchanged");
    }
    let other = dir.path().join("report.md");
    let out = run(&[
        "export",
        session.to_str().unwrap(),
        "--format",
        "md",
        "-o",
        other.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(other.is_file());
}
