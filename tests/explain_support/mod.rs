//! Helpers of `tests/explain.rs`: crafted OpenClaw message arrays, the provider envelopes, and
//! running `lint --explain` on them.

use std::path::Path;
use std::process::{Command, Output};

use replaylens::json;
use replaylens::model::json::Value;

/// The provider, API and model that wrote an assistant turn.
pub type Model = (&'static str, &'static str, &'static str);

/// Claude on the Anthropic API.
pub const ANTHROPIC: Model = ("anthropic", "anthropic-messages", "claude-sonnet-4-6");
/// GPT on OpenAI Chat Completions.
pub const OPENAI_CHAT: Model = ("openai", "openai-completions", "gpt-4.1");
/// GPT on the Responses API.
pub const RESPONSES: Model = ("openai", "openai-responses", "gpt-5.2");
/// Codex on the Responses API (foreign to the other targets).
pub const CODEX: Model = ("openai", "openai-responses", "gpt-5.1-codex");
/// Gemini on the Gemini API.
pub const GEMINI: Model = ("google", "google-generative-ai", "gemini-2.5-pro");
/// Claude on Bedrock Converse.
pub const BEDROCK: Model = (
    "amazon-bedrock",
    "bedrock-converse-stream",
    "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
);
/// Devstral on Mistral.
pub const MISTRAL: Model = ("mistral", "mistral-conversations", "devstral-medium-2507");

/// A user prompt.
pub fn user(text: &str) -> Value {
    json!({"role": "user", "content": text, "timestamp": 1_773_000_000_000_u64})
}

/// An assistant turn with text only.
pub fn said(m: Model, text: &str) -> Value {
    json!({"role": "assistant", "content": [{"type": "text", "text": text}], "provider": m.0, "api": m.1,
        "model": m.2, "stopReason": "stop", "timestamp": 1_773_000_001_000_u64})
}

/// An assistant turn calling `(id, tool)` pairs, after an optional text.
pub fn calls(m: Model, text: Option<&str>, ids: &[(&str, &str)]) -> Value {
    let mut content: Vec<Value> = text.map(|t| json!({"type": "text", "text": t})).into_iter().collect();
    for (id, name) in ids {
        content.push(json!({"type": "toolCall", "id": id, "name": name, "arguments": {"path": "src/main.rs"}}));
    }
    json!({"role": "assistant", "content": content, "provider": m.0, "api": m.1, "model": m.2,
        "stopReason": "toolUse", "timestamp": 1_773_000_002_000_u64})
}

/// A tool result.
pub fn result(id: &str, name: &str, text: &str) -> Value {
    json!({"role": "toolResult", "toolCallId": id, "toolName": name,
        "content": [{"type": "text", "text": text}], "isError": false, "timestamp": 1_773_000_003_000_u64})
}

/// A JSON string literal.
pub fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// The OpenAI envelope with a `param`.
pub fn openai_envelope(message: &str, param: &str) -> String {
    let m = quoted(message);
    format!(r#"{{"error":{{"message":{m},"type":"invalid_request_error","param":"{param}","code":null}}}}"#)
}

/// The Gemini envelope, and Code Assist's (an array, with `errors`).
pub fn gemini_envelopes(message: &str) -> [String; 2] {
    let m = quoted(message);
    let errors = format!(r#""errors":[{{"message":{m},"domain":"global","reason":"badRequest"}}]"#);
    [
        format!(r#"{{"error":{{"code":400,"message":{m},"status":"INVALID_ARGUMENT"}}}}"#),
        format!(r#"[{{"error":{{"code":400,"message":{m},{errors},"status":"INVALID_ARGUMENT"}}}}]"#),
    ]
}

/// The Mistral envelope (`code` as JSON: `null` or a quoted number).
pub fn mistral_envelope(message: &str, kind: &str, code: &str) -> String {
    let m = quoted(message);
    format!(r#"{{"object":"error","message":{m},"type":"{kind}","param":null,"code":{code}}}"#)
}

/// Run `lint PATH` with `args`.
pub fn run(path: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_replaylens"))
        .arg("lint")
        .arg(path)
        .args(args)
        .output();
    out.unwrap()
}

/// The JSON document `lint` printed.
pub fn document(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        let stderr = String::from_utf8_lossy(&out.stderr);
        panic!("{e}: {}\n{stderr}", String::from_utf8_lossy(&out.stdout))
    })
}

/// Write `session` as a `.json` message array and run `lint` on it with `args`.
pub fn lint(session: &[Value], args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.json");
    std::fs::write(&path, serde_json::to_string_pretty(session).unwrap()).unwrap();
    run(&path, args)
}

/// `lint SESSION --stage both --explain ERROR --format json`: the document and the exit status.
pub fn explain(session: &[Value], error: &str) -> (Value, i32) {
    let out = lint(session, &["--stage", "both", "--format", "json", "--explain", error]);
    (document(&out), out.status.code().unwrap())
}

/// The findings of one stage of a lint document.
pub fn findings<'a>(doc: &'a Value, stage: &str) -> Vec<&'a Value> {
    let stages = doc["stages"].as_array().unwrap();
    let stage = stages.iter().find(|s| s["stage"] == stage).unwrap();
    stage["findings"].as_array().unwrap().iter().collect()
}

/// What the explanation must say.
pub struct Expect {
    /// The constraint id.
    pub constraint: &'static str,
    /// The stored messages to blame.
    pub stored: &'static [usize],
    /// Whether the projection avoids the error.
    pub avoided: bool,
    /// The rule named as the fix.
    pub fixed_by: Option<&'static str>,
}

impl Expect {
    /// Avoided by `tool-result-pairing`.
    pub fn paired(constraint: &'static str, stored: &'static [usize]) -> Self {
        Self::fixed(constraint, stored, "tool-result-pairing")
    }

    /// Avoided by `rule`.
    pub fn fixed(constraint: &'static str, stored: &'static [usize], rule: &'static str) -> Self {
        Self {
            constraint,
            stored,
            avoided: true,
            fixed_by: Some(rule),
        }
    }
}

/// Check the explanation, that the naive payload really draws this very error (the lint's own
/// text for it equals the pasted provider message), that the replay stage agrees with
/// `avoided`, and that the exit status follows the replay-stage verdict.
pub fn check(session: &[Value], error: &str, want: &Expect) -> Value {
    let (doc, status) = explain(session, error);
    let e = &doc["explain"];
    assert_eq!(e["constraint"], want.constraint, "{error}\n{e:#}");
    assert_eq!(e["stored"], json!(want.stored), "{error}\n{e:#}");
    assert_eq!(e["avoided"], want.avoided, "{error}\n{e:#}");
    assert_eq!(e["fixed_by"], json!(want.fixed_by), "{e:#}");
    let summary = e["summary"].as_str().unwrap();
    let blamed: Vec<String> = want.stored.iter().map(|s| format!("s{s}")).collect();
    assert!(summary.contains(&blamed.join(", ")), "{summary}");
    let verdict = match want.fixed_by.filter(|_| want.avoided) {
        Some(rule) => format!("avoids it: rule {rule} fixes this"),
        None => "would still be rejected".to_string(),
    };
    assert!(summary.contains(&verdict), "{summary}");
    let message = e["message"].as_str().unwrap().trim_end_matches('.');
    let same = |f: &Value| f["constraint"] == want.constraint;
    let stored = findings(&doc, "stored");
    let drawn = stored
        .iter()
        .any(|f| same(f) && f["message"].as_str().unwrap().trim_end_matches('.') == message);
    assert!(drawn, "the stored transcript does not draw {message:?}: {stored:#?}");
    let replay = findings(&doc, "replay");
    assert_eq!(replay.iter().any(|f| same(f)), !want.avoided, "{replay:#?}");
    assert_eq!(status, i32::from(!replay.is_empty()), "{}", doc["verdict"]);
    doc
}
