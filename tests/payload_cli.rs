//! `replaylens payload` on every sample session, for every provider API (and the GitHub
//! Copilot and Gemini CLI variants, whose bodies differ) and both stages:
//! the body's conversation array and the provenance of each item line up, and every stored
//! message the replay sends is accounted for. (That the bodies equal OpenClaw's own is the
//! payload differential in `oracle_differential.rs`.)

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use replaylens::model::json::Value;

const TARGETS: [(&str, &str, &str, &str); 11] = [
    ("anthropic", "anthropic-messages", "claude-sonnet-4-6", "messages"),
    ("openai", "openai-completions", "gpt-4o", "messages"),
    ("openai", "openai-responses", "gpt-5", "input"),
    ("google", "google-generative-ai", "gemini-2.5-pro", "contents"),
    (
        "amazon-bedrock",
        "bedrock-converse-stream",
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "messages",
    ),
    ("mistral", "mistral-conversations", "mistral-large-latest", "messages"),
    ("google-vertex", "google-vertex", "gemini-2.5-pro", "contents"),
    (
        "google-gemini-cli",
        "google-generative-ai",
        "gemini-3.1-pro-preview",
        "contents",
    ),
    ("github-copilot", "anthropic-messages", "claude-sonnet-4.6", "messages"),
    ("github-copilot", "openai-responses", "gpt-5.4", "input"),
    ("ollama", "ollama", "llama3.1", "messages"),
];

fn sessions() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = common::files_under(&common::bundled_samples())
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl" || e == "sqlite"))
        .collect();
    files.extend(common::shared_openclaw_jsonl());
    files
}

fn payload(session: &Path, target: (&str, &str, &str), stage: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_replaylens"))
        .arg("payload")
        .arg(session)
        .args(["--provider", target.0, "--api", target.1, "--model", target.2])
        .args(["--stage", stage, "--format", "json"])
        .output()
        .expect("run replaylens");
    assert!(
        out.status.success(),
        "payload {} {target:?} {stage}: {}",
        session.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("payload prints JSON")
}

#[test]
fn every_sample_converts_for_every_api_with_provenance() {
    let sessions = sessions();
    assert!(sessions.len() >= 8, "too few sample sessions: {sessions:?}");
    let mut payloads = 0;
    for session in &sessions {
        for (provider, api, model, key) in TARGETS {
            for stage in ["stored", "replay"] {
                let doc = payload(session, (provider, api, model), stage);
                let where_ = format!("{} {api} {stage}", session.display());
                assert_eq!(doc["api"], api, "{where_}");
                assert_eq!(doc["stage"], stage, "{where_}");
                let body = doc["body"][key]
                    .as_array()
                    .unwrap_or_else(|| panic!("{where_}: no body.{key}"));
                let items = doc["items"].as_array().unwrap();
                assert_eq!(body.len(), items.len(), "{where_}");
                // A replay may be empty (every stored message dropped); the stored side is not.
                assert!(stage == "replay" || !body.is_empty(), "{where_}: empty body");
                for (i, item) in items.iter().enumerate() {
                    assert_eq!(item["path"], format!("{key}[{i}]"), "{where_}");
                    if stage == "stored" {
                        assert!(item["replay"].as_array().unwrap().is_empty(), "{where_}");
                    }
                }
                let compact = serde_json::to_vec(&doc["body"]).unwrap().len() as u64;
                assert_eq!(doc["body_bytes"].as_u64(), Some(compact), "{where_}: body_bytes");
                payloads += 1;
            }
        }
    }
    eprintln!("{payloads} payloads from {} sessions", sessions.len());
}

#[test]
fn an_api_without_a_converter_is_refused_in_one_sentence() {
    let session = common::bundled_samples().join("anthropic-tool-repair.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_replaylens"))
        .arg("payload")
        .arg(&session)
        .args(["--provider", "acme", "--api", "acme-chat", "--model", "acme-1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no wire converter for the API `acme-chat`"), "{err}");
    assert!(err.contains("bedrock-converse-stream"), "{err}");
}

#[test]
fn api_ids_without_a_transport_of_their_own_name_the_one_openclaw_uses() {
    let session = common::bundled_samples().join("anthropic-tool-repair.jsonl");
    for (provider, api, model, instead) in [
        (
            "google-gemini-cli",
            "google-gemini-cli",
            "gemini-2.5-pro",
            "give --api google-generative-ai",
        ),
        (
            "github-copilot",
            "github-copilot",
            "gpt-5.4",
            "openai-responses for GPT",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_replaylens"))
            .arg("payload")
            .arg(&session)
            .args(["--provider", provider, "--api", api, "--model", model])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{api}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("no wire converter for the API `{api}`")), "{err}");
        assert!(err.contains(instead), "{err}");
    }
}

/// A session that alternates Ollama and the Codex backend converts for either side; the
/// Ollama body keeps string content, object arguments and base64 `images`.
#[test]
fn a_session_alternating_ollama_and_codex_converts_for_ollama() {
    let assistant = |provider: &str, api: &str, model: &str, content: Value| {
        replaylens::json!({"role": "assistant", "content": content, "provider": provider, "api": api,
            "model": model, "stopReason": "toolUse", "timestamp": 2, "usage": {"input": 1, "output": 1}})
    };
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    let messages = replaylens::json!([
        {"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image", "data": png, "mimeType": "image/png"}], "timestamp": 1},
        assistant("ollama", "ollama", "llama3.1", replaylens::json!([
            {"type": "thinking", "thinking": "plan"},
            {"type": "toolCall", "id": "call_1", "name": "read", "arguments": "{\"path\":\"a\"}"}])),
        {"role": "toolResult", "toolCallId": "call_1", "toolName": "read", "content": [{"type": "text", "text": "data"}], "isError": false, "timestamp": 3},
        assistant("openai-codex", "openai-codex-responses", "gpt-5.1-codex", replaylens::json!([
            {"type": "toolCall", "id": "call_2|fc_2", "name": "exec", "arguments": {"cmd": "ls"}}])),
        {"role": "toolResult", "toolCallId": "call_2|fc_2", "toolName": "exec", "content": [{"type": "text", "text": "ok"}], "isError": false, "timestamp": 4},
    ]);
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("ollama-codex.json");
    std::fs::write(&session, messages.to_string()).unwrap();
    for (target, api) in [
        (("ollama", "ollama", "llama3.1"), "ollama"),
        (
            ("openai-codex", "openai-codex-responses", "gpt-5.1-codex"),
            "openai-responses",
        ),
    ] {
        for stage in ["stored", "replay"] {
            let doc = payload(&session, target, stage);
            assert_eq!(doc["api"], api, "{target:?} {stage}");
        }
    }
    let doc = payload(&session, ("ollama", "ollama", "llama3.1"), "replay");
    let body = doc["body"]["messages"].as_array().unwrap();
    assert_eq!(body.len(), 5);
    assert_eq!(
        body[0],
        replaylens::json!({"role": "user", "content": "look", "images": [png]})
    );
    assert_eq!(
        body[1],
        replaylens::json!({"role": "assistant", "content": "", "thinking": "plan",
            "tool_calls": [{"id": "call_1", "function": {"name": "read", "arguments": {"path": "a"}}}]})
    );
    assert_eq!(
        body[2],
        replaylens::json!({"role": "tool", "content": "data", "tool_call_id": "call_1", "tool_name": "read"})
    );
    assert!(body.iter().all(|m| m["content"].is_string()), "{body:?}");
    assert_eq!(
        body[3]["tool_calls"][0]["function"]["arguments"],
        replaylens::json!({"cmd": "ls"})
    );
}
