//! Issue 29: whatever code points a session holds, in whichever field, no command prints a
//! character `replaylens::text::is_unsafe_for_terminal` flags (on stdout or stderr, error
//! paths included); JSON outputs parse and keep the hostile text (escaped as `\uXXXX`, not
//! dropped). The strings come from every code point category (`escape_support`).

mod common;
mod escape_support;

use std::path::Path;
use std::process::{Command, Output};

use escape_support::{Fields, arg, fields, write_session};
use proptest::prelude::*;
use replaylens::text::first_unsafe;
use serde_json::Value;

/// A target every command accepts, so the JSON outputs are complete.
const ANTHROPIC: [&str; 6] = [
    "--provider",
    "anthropic",
    "--api",
    "anthropic-messages",
    "--model",
    "claude-sonnet-4-6",
];

fn run(args: &[&str]) -> Output {
    Command::new(common::bin()).args(args).output().expect("run replaylens")
}

/// Panics, naming the command, when its stdout or stderr is not UTF-8 or holds a character a
/// terminal could act on or a reader could not see.
fn assert_safe(args: &[&str], out: &Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let text =
            std::str::from_utf8(bytes).unwrap_or_else(|e| panic!("{args:?} wrote invalid UTF-8 on {stream}: {e}"));
        if let Some((at, c)) = first_unsafe(text) {
            let start = text[..at].char_indices().rev().nth(40).map_or(0, |(i, _)| i);
            panic!(
                "{args:?} printed U+{:04X} raw on {stream} after {:?}",
                c as u32,
                &text[start..at]
            );
        }
    }
}

/// Run a command and check both its streams.
fn check(args: &[&str]) -> Output {
    let out = run(args);
    assert_safe(args, &out);
    out
}

/// Every string and object key in a JSON document.
fn strings(doc: &Value, out: &mut Vec<String>) {
    match doc {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                strings(v, out);
            }
        }
        _ => {}
    }
}

/// Run a JSON command: its streams are safe, stdout is one JSON document, and each of `keep`
/// is in one of its strings or keys, character for character.
fn check_json(args: &[&str], keep: &[(&str, &str)]) {
    let out = check(args);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?} printed no JSON document ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let mut all = Vec::new();
    strings(&doc, &mut all);
    for (field, text) in keep {
        assert!(
            all.iter().any(|s| s.contains(text)),
            "{args:?} lost the {field} {text:?}"
        );
    }
}

/// The session's message text every stage keeps (user, assistant and tool result text).
fn message_text(f: &Fields) -> Vec<(&'static str, &str)> {
    vec![
        ("user string content", &f.user_string),
        ("user text block", &f.user_block),
        ("assistant text", &f.assistant_text),
        ("tool result text", &f.result_text),
    ]
}

/// Every command over one generated session, its folder and its broken neighbour.
fn every_output_is_escaped(dir: &Path, f: &Fields) {
    let (session, broken) = write_session(dir, f);
    let s = session.to_str().unwrap();
    let b = broken.to_str().unwrap();
    let d = dir.to_str().unwrap();
    let cmd = |name: &'static str, rest: Vec<&'static str>| {
        let mut args = vec![name, s];
        args.extend(rest);
        args
    };

    // Text outputs, with the session's own (hostile) target and with a known one.
    for args in [
        vec!["show", s],
        cmd("replay", vec![]),
        cmd("replay", ANTHROPIC.to_vec()),
        cmd("lint", vec!["--stage", "both"]),
        cmd("lint", [&["--stage", "both"][..], &ANTHROPIC].concat()),
        cmd("payload", vec![]),
        cmd("payload", ANTHROPIC.to_vec()),
        cmd(
            "payload",
            vec![
                "--stage",
                "stored",
                "--provider",
                "mistral",
                "--api",
                "mistral-conversations",
            ],
        ),
        cmd("export", [&["--format", "md"][..], &ANTHROPIC].concat()),
        cmd("export", [&["--format", "md", "--redact"][..], &ANTHROPIC].concat()),
        cmd(
            "export",
            [&["--format", "md", "--redact=all-text"][..], &ANTHROPIC].concat(),
        ),
        cmd("export", [&["--format", "html"][..], &ANTHROPIC].concat()),
        cmd("export", [&["--format", "html", "--redact"][..], &ANTHROPIC].concat()),
        cmd("export", vec!["--format", "html"]),
        cmd("export", [&["--format", "json", "--redact"][..], &ANTHROPIC].concat()),
        cmd("repair", vec!["--dry-run"]),
        cmd("export", vec!["--format", "session"]),
        cmd("export", vec!["--format", "session", "--redact"]),
        vec!["sessions", d],
        vec!["scan", d],
        vec!["scan", d, "--format", "csv"],
        vec!["scan", s, "--target", "openai/openai-responses"],
        // Error paths: a broken file named with hostile text, a missing one, a hostile
        // argument echoed back.
        vec!["show", b],
        vec!["replay", b, "--format", "json"],
        vec!["export", b, "--format", "html"],
        vec!["show", &format!("{d}/missing-{}", arg(&f.label).replace('/', ""))],
        vec!["lint", s, "--explain", &arg(&f.error_message)],
        vec!["policy", "--provider", &arg(&f.provider), "--model", &arg(&f.model)],
        vec!["rules", &arg(&f.label)],
    ] {
        check(&args);
    }

    // JSON outputs: valid, and the hostile text kept.
    let text = message_text(f);
    let more: [(&str, &str); 8] = [
        ("thinking", &f.thinking),
        ("tool call id", &f.tool_id),
        ("tool name", &f.tool_name),
        ("argument key", &f.arg_key),
        ("argument value", &f.arg_value),
        ("tool result toolName", &f.result_tool_name),
        ("custom message", &f.custom_message),
        ("errorMessage", &f.error_message),
    ];
    let stored = [&text[..], &more[..]].concat();
    check_json(&["show", s, "--format", "json"], &stored);
    check_json(&cmd("replay", vec!["--format", "json"]), &[]);
    check_json(
        &cmd("replay", [&["--format", "json"][..], &ANTHROPIC].concat()),
        &stored,
    );
    check_json(
        &cmd(
            "lint",
            [&["--stage", "both", "--format", "json"][..], &ANTHROPIC].concat(),
        ),
        &[],
    );
    // The replay drops a tool call whose name has characters outside [A-Za-z0-9_:.-], and
    // then its result, as OpenClaw does; the stored stage converts every message as it is.
    let openai = [
        "--provider",
        "openai",
        "--api",
        "openai-completions",
        "--format",
        "json",
    ];
    check_json(&cmd("payload", openai.to_vec()), &text[..3]);
    check_json(
        &cmd("payload", [&["--stage", "stored"][..], &openai].concat()),
        &[
            &text[..],
            &[("tool call id", f.tool_id.as_str()), ("tool name", &f.tool_name)][..],
        ]
        .concat(),
    );
    check_json(
        &cmd("export", [&["--format", "json"][..], &ANTHROPIC].concat()),
        &stored,
    );
    let header = [
        ("file name", session.file_name().unwrap().to_str().unwrap()),
        ("session id", f.session_id.as_str()),
        ("cwd", &f.cwd),
        ("model_change provider", &f.provider),
        ("model_change modelId", &f.model),
    ];
    check_json(&["sessions", d, "--format", "json"], &header);
    check_json(&["scan", d, "--format", "json"], &header[..2]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, max_shrink_iters: 32, ..ProptestConfig::default() })]

    #[test]
    fn no_output_path_prints_an_unsafe_character(f in fields()) {
        let dir = tempfile::tempdir().unwrap();
        every_output_is_escaped(dir.path(), &f);
    }
}

/// Issue 45 finding 13: one session holding every Unicode scalar value (each after a letter,
/// 4,096 to a message) goes through every output, raw and redacted; no output prints a
/// character a terminal could act on or a reader could not see, and the session export is
/// still the same data.
#[test]
fn every_scalar_value_in_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let scalars: Vec<char> = (0..=0x10ffff_u32).filter_map(char::from_u32).collect();
    let mut text = String::from(
        r#"{"type":"session","version":3,"id":"every-scalar","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}"#,
    );
    text.push('\n');
    let mut parent = serde_json::Value::Null;
    for (i, chunk) in scalars.chunks(4096).enumerate() {
        let body: String = chunk.iter().flat_map(|&c| ['a', c]).collect();
        let id = format!("m{i}");
        let line = serde_json::json!({"type": "message", "id": id, "parentId": parent,
            "timestamp": "2026-01-01T00:00:00Z",
            "message": {"role": "user", "content": [{"type": "text", "text": body}], "timestamp": 1}});
        text.push_str(&line.to_string());
        text.push('\n');
        parent = serde_json::Value::String(id);
    }
    let path = dir.path().join("every-scalar.jsonl");
    std::fs::write(&path, &text).unwrap();
    let s = path.to_str().unwrap();
    let d = dir.path().to_str().unwrap();
    for args in [
        vec!["show", s],
        vec!["sessions", d],
        vec!["scan", d],
        vec!["scan", d, "--format", "csv"],
        vec!["export", s, "--format", "md", "--redact", "--no-releases"],
        vec!["export", s, "--format", "html", "--no-releases"],
        vec!["export", s, "--format", "html", "--redact=all-text", "--no-releases"],
        vec!["export", s, "--format", "json", "--redact", "--no-releases"],
        vec!["export", s, "--format", "session", "--redact"],
    ] {
        check(&args);
    }
    let out = check(&["export", s, "--format", "session"]);
    let written = String::from_utf8(out.stdout).unwrap();
    let same =
        |text: &str| -> Vec<serde_json::Value> { text.lines().map(|l| serde_json::from_str(l).unwrap()).collect() };
    assert_eq!(same(&written), same(&text));
}
