//! What `policy`, `lint`, `replay` and `scan` say of a target OpenClaw 2026.9.6 cannot route
//! (the legacy API `openai-codex-responses`, the provider `anthropic-vertex`) and of a
//! ClawHub-only provider whose plugin replaylens assumes installed.

use std::process::{Command, Output};

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/sample-sessions/anthropic-tool-repair.jsonl"
);

fn replaylens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_replaylens"))
        .args(args)
        .output()
        .expect("run replaylens")
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn lint_of_a_legacy_api_is_no_route_never_accepted() {
    let args = [
        "lint",
        SAMPLE,
        "--provider",
        "openai",
        "--api",
        "openai-codex-responses",
        "--model",
        "gpt-5",
    ];
    let out = replaylens(&args);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("verdict: no route (OpenClaw 2026.9.6 has no route for the API `openai-codex-responses`"),
        "{text}"
    );
    let out = replaylens(&[&args[..], &["--format", "json"]].concat());
    let doc = json(&out);
    assert_eq!(doc["verdict"], "no route");
    assert!(
        doc["noRoute"].as_str().unwrap().contains("openai-chatgpt-responses"),
        "{doc}"
    );
}

#[test]
fn scan_and_replay_name_a_provider_without_a_route() {
    let target = [
        "--provider",
        "anthropic-vertex",
        "--api",
        "anthropic-messages",
        "--model",
        "claude-sonnet-4-6",
    ];
    let out = replaylens(&[&["scan", SAMPLE, "--format", "json"][..], &target].concat());
    let doc = json(&out);
    let text = doc.to_string();
    assert!(text.contains("\"no-route\""), "{text}");
    let out = replaylens(&[&["replay", SAMPLE][..], &target].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("OpenClaw 2026.9.6 has no route for the provider `anthropic-vertex`"),
        "{text}"
    );
}

#[test]
fn a_clawhub_provider_names_the_plugin_it_assumes() {
    let target = [
        "--provider",
        "moonshot",
        "--api",
        "openai-completions",
        "--model",
        "kimi-k2.6",
    ];
    let doc = json(&replaylens(&[&["policy", "--format", "json"][..], &target].concat()));
    assert_eq!(doc["family"], "moonshot-kimi");
    assert_eq!(doc["owner"], "ClawHub plugin moonshot (assumed installed)");
    let said = doc["assumption"].as_str().expect("an assumption");
    assert!(
        said.starts_with("assumes the ClawHub plugin `moonshot` is installed; without it: the unowned fallback (unowned-openai-completions) applies, duplicateToolCallIdStyle: openai → -"),
        "{said}"
    );
    let out = replaylens(&[&["lint", SAMPLE][..], &target].concat());
    assert!(String::from_utf8_lossy(&out.stdout).contains("policy assumes the ClawHub plugin `moonshot`"));
    let out = replaylens(&[&["replay", SAMPLE, "--format", "json"][..], &target].concat());
    assert!(json(&out)["assumption"].as_str().is_some());
    // A provider a bundled plugin owns rests on nothing.
    let doc = json(&replaylens(&[
        "policy",
        "--format",
        "json",
        "--provider",
        "claude-cli",
        "--api",
        "anthropic-messages",
        "--model",
        "claude-sonnet-4-6",
    ]));
    assert_eq!(doc["owner"], "plugin anthropic (bundled)");
    assert!(doc.get("assumption").is_none());
    assert_eq!(doc["preserveNativeAnthropicToolUseIds"], true);
}
