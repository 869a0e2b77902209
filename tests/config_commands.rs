//! `--config` on every replaying command: the configuration is used (a custom provider's API and
//! model object reach the replay and the payload), every report names the file, and nothing it
//! holds (a planted key, header and token) reaches any output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SECRET_KEY: &str = "sk-planted-config-secret-4242";
const SECRET_HEADER: &str = "Bearer planted-header-token-1717";
const SECRET_TOKEN: &str = "planted-gateway-token-9090";

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions").join(name)
}

/// A configuration declaring `lab` on Chat Completions with a reasoning model, and secrets.
fn write_config(dir: &Path) -> PathBuf {
    let path = dir.join("openclaw.json");
    let text = format!(
        r#"{{
  // JSON5, as OpenClaw reads it
  models: {{ providers: {{ lab: {{
    api: "openai-completions",
    baseUrl: "https://llm.example.com/v1",
    apiKey: "{SECRET_KEY}",
    headers: {{ Authorization: "{SECRET_HEADER}" }},
    models: [{{ id: "qwen3", reasoning: true, compat: {{ requiresToolResultName: true }} }}],
  }} }} }},
  gateway: {{ auth: {{ token: "{SECRET_TOKEN}" }} }},
  agents: {{ defaults: {{ imageMaxDimensionPx: 800 }} }},
}}"#
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_replaylens"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("OPENCLAW_STATE_DIR", "/nonexistent-openclaw-state")
        .env_remove("OPENCLAW_CONFIG_PATH")
        .output()
        .expect("run replaylens")
}

fn all_text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn assert_no_secret(what: &str, text: &str) {
    for secret in [SECRET_KEY, SECRET_HEADER, "planted-header-token", SECRET_TOKEN] {
        assert!(
            !text.contains(secret),
            "{what} shows a configuration secret ({secret}):\n{text}"
        );
    }
    assert!(!text.contains("read by `policy` only"), "{what}: {text}");
}

#[test]
fn every_command_reads_the_configuration_and_shows_none_of_its_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path());
    let config_arg = config.to_str().unwrap();
    let session = sample("anthropic-tool-repair.jsonl");
    let session = session.to_str().unwrap();
    let target = ["--provider", "lab", "--model", "qwen3", "--config", config_arg];

    let replay = run(&[&["replay", session, "--format", "json"][..], &target[..]].concat());
    assert!(replay.status.success(), "{}", all_text(&replay));
    let doc: serde_json::Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(doc["configuration"], config_arg);
    // The configuration names the API; reasoning: true keeps reasoning in the history.
    assert_eq!(doc["target"]["api"], "openai-completions", "{}", doc["target"]);
    assert_ne!(doc["policy"]["dropReasoningFromHistory"], true, "{}", doc["policy"]);
    assert_no_secret("replay --format json", &all_text(&replay));

    let payload = run(&[&["payload", session, "--format", "json"][..], &target[..]].concat());
    assert!(payload.status.success(), "{}", all_text(&payload));
    let body = String::from_utf8_lossy(&payload.stdout);
    // compat.requiresToolResultName: tool messages carry the tool's name.
    assert!(
        body.contains("\"role\": \"tool\"") || body.contains("\"role\":\"tool\""),
        "{body}"
    );
    assert_no_secret("payload", &all_text(&payload));

    for args in [
        &["lint", session][..],
        &["lint", session, "--explain", "messages.3: tool_call_id is invalid"][..],
        &["releases", session][..],
    ] {
        let out = run(&[args, &target[..]].concat());
        assert_no_secret(&args.join(" "), &all_text(&out));
    }

    for format in ["md", "html", "json"] {
        let file = dir.path().join(format!("report.{format}"));
        let out = run(&[
            &["export", session, "-o", file.to_str().unwrap(), "--no-releases"][..],
            &target[..],
        ]
        .concat());
        assert!(out.status.success(), "export {format}: {}", all_text(&out));
        let report = std::fs::read_to_string(&file).unwrap();
        assert!(
            report.contains(config_arg),
            "export {format} does not name the configuration"
        );
        assert_no_secret(&format!("export {format}"), &report);
        assert_no_secret(&format!("export {format} (terminal)"), &all_text(&out));
    }
    let without = dir.path().join("plain.md");
    let out = run(&["export", session, "-o", without.to_str().unwrap(), "--no-releases"]);
    assert!(out.status.success(), "{}", all_text(&out));
    assert!(std::fs::read_to_string(&without).unwrap().contains("no configuration"));

    let show = run(&["show", session, "--config", config_arg]);
    assert!(show.status.success(), "{}", all_text(&show));
    assert!(
        all_text(&show).contains(&format!("configuration: {config_arg}")),
        "{}",
        all_text(&show)
    );
    assert_no_secret("show", &all_text(&show));

    let scan = run(&["scan", session, "--config", config_arg, "--target", "lab"]);
    assert_no_secret("scan", &all_text(&scan));
}

#[test]
fn a_configuration_that_cannot_be_read_is_one_sentence_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("openclaw.json");
    std::fs::write(&bad, "{ models: ").unwrap();
    let session = sample("anthropic-tool-repair.jsonl");
    for command in ["replay", "payload", "lint", "show"] {
        let out = run(&[command, session.to_str().unwrap(), "--config", bad.to_str().unwrap()]);
        assert!(!out.status.success(), "{command} accepted a broken configuration");
        let text = all_text(&out);
        assert!(text.contains("openclaw.json"), "{command}: {text}");
        assert!(!text.contains("panicked"), "{command}: {text}");
    }
}
