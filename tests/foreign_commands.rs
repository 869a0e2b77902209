//! Every command works on Claude Code and Codex sessions as on OpenClaw's: `show`, `replay`,
//! `lint`, `payload` and `export` run the binary on samples and check what they print.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use replaylens::model::json::Value;

const CLAUDE: &str = "claude-code/claude-code-log/representative_messages.jsonl";
const CODEX: &str =
    "codex/claude-code-log/sessions/2026/01/02/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl";

fn run(args: &[&str], session: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_replaylens"))
        .args(args)
        .arg(session)
        .output()
        .expect("run replaylens")
}

fn json_of(out: &Output) -> Value {
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn samples(root: &Path) -> [(PathBuf, &'static str, &'static str, &'static str); 2] {
    [
        (
            root.join(CLAUDE),
            "claude-code-jsonl",
            "anthropic",
            "anthropic-messages",
        ),
        // The rollout names its own provider (`session_meta.model_provider`).
        (root.join(CODEX), "codex-rollout", "synthetic", "openai-responses"),
    ]
}

#[test]
fn show_prints_the_mapped_messages_with_their_source_lines() {
    let Some(root) = common::shared_samples() else { return };
    for (session, format, _, _) in samples(&root) {
        let text = run(&["show"], &session);
        assert!(text.status.success());
        let stdout = String::from_utf8_lossy(&text.stdout);
        assert!(stdout.contains(&format!("({format})")), "{stdout}");
        let doc = json_of(&run(&["show", "--format", "json"], &session));
        let stored = doc["stored"].as_array().unwrap();
        assert!(stored.len() >= 2, "{format}: {stored:?}");
        assert!(
            stored.iter().all(|m| m["mappedFrom"]["line"].as_u64().is_some()),
            "{format}: every mapped message names its line"
        );
    }
}

#[test]
fn replay_uses_the_sessions_own_target_and_can_retarget() {
    let Some(root) = common::shared_samples() else { return };
    for (session, format, provider, api) in samples(&root) {
        let doc = json_of(&run(&["replay", "--format", "json"], &session));
        assert_eq!(doc["session"]["format"], format);
        assert_eq!(doc["target"]["provider"], provider, "{format}");
        assert_eq!(doc["target"]["api"], api, "{format}");
        assert!(!doc["replay"].as_array().unwrap().is_empty(), "{format}");
        let other = json_of(&run(
            &[
                "replay",
                "--format",
                "json",
                "--provider",
                "mistral",
                "--api",
                "mistral-conversations",
                "--model",
                "mistral-large-latest",
            ],
            &session,
        ));
        assert_eq!(other["family"], "mistral", "{format}");
    }
}

#[test]
fn lint_and_payload_answer_for_the_sessions_own_provider() {
    let Some(root) = common::shared_samples() else { return };
    for (session, format, _, api) in samples(&root) {
        let lint = run(&["lint", "--format", "json", "--stage", "both"], &session);
        let doc = json_of(&lint);
        assert_eq!(doc["api"], api, "{format}");
        assert_eq!(doc["stages"].as_array().unwrap().len(), 2, "{format}");
        let payload = json_of(&run(&["payload", "--format", "json"], &session));
        let body = &payload["body"];
        let items = if api == "anthropic-messages" {
            &body["messages"]
        } else {
            &body["input"]
        };
        assert!(!items.as_array().unwrap().is_empty(), "{format}: {payload}");
        assert!(
            payload["items"]
                .as_array()
                .unwrap()
                .iter()
                .all(|i| i["stored"].is_array()),
            "{format}: every item names its stored messages"
        );
    }
}

#[test]
fn export_in_every_format() {
    let Some(root) = common::shared_samples() else { return };
    for (session, format, _, _) in samples(&root) {
        let md = run(&["export", "--format", "md"], &session);
        assert!(md.status.success(), "{}", String::from_utf8_lossy(&md.stderr));
        let md = String::from_utf8_lossy(&md.stdout);
        assert!(md.contains(&format!("({format})")), "{md}");
        let html = run(&["export", "--format", "html", "--redact"], &session);
        assert!(String::from_utf8_lossy(&html.stdout).contains("<html"));
        let doc = json_of(&run(&["export", "--format", "json"], &session));
        assert_eq!(doc["session"]["format"], format);
        assert!(doc["lint"].is_object() || doc["lint"].is_array(), "{format}");
    }
}
