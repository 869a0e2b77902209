//! `replaylens releases`: a session replayed and linted under every OpenClaw rule set names the
//! release boundary at which its verdict changes. One crafted session per boundary at which a
//! verdict can change (`tests/releases/<before>__<after>.json`, message arrays found by
//! searching the differential test's generator for sessions whose verdict differs between
//! neighbouring rule sets, then cut to the messages the difference needs).

mod common;

use std::path::Path;
use std::process::{Command, Output};

use replaylens::model::json::Value;

fn releases(session: &Path, target: (&str, &str, &str), extra: &[&str]) -> Output {
    Command::new(common::bin())
        .arg("releases")
        .arg(session)
        .args(["--provider", target.0, "--api", target.1, "--model", target.2])
        .args(extra)
        .output()
        .expect("run replaylens releases")
}

fn json(out: &Output) -> Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/releases")
        .join(format!("{name}.json"))
}

/// The boundaries of the matrix as `before>after:from>to`.
fn boundaries(m: &Value) -> Vec<String> {
    m["matrix"]["boundaries"]
        .as_array()
        .expect("boundaries")
        .iter()
        .map(|b| {
            format!(
                "{}>{}:{}>{}",
                b["before"].as_str().unwrap(),
                b["after"].as_str().unwrap(),
                b["from"].as_str().unwrap(),
                b["to"].as_str().unwrap()
            )
        })
        .collect()
}

/// Run one boundary's session and check the boundaries, the summary and the text output.
fn check(name: &str, target: (&str, &str, &str), expect: &[&str], summary: &str) {
    let m = json(&releases(&fixture(name), target, &["--format", "json"]));
    assert_eq!(boundaries(&m), expect, "{name}");
    assert_eq!(m["matrix"]["summary"].as_str(), Some(summary), "{name}");
    let rows = m["matrix"]["rows"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["ruleSet"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "2026.6.9", "2026.6", "2026.7", "2026.8", "2026.9.2", "2026.9.3", "2026.9.6", "newest"
        ],
        "every rule set, oldest first"
    );
    let text = releases(&fixture(name), target, &[]);
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains(&format!("verdict: {summary}\n")), "{text}");
}

#[test]
fn the_2026_7_to_2026_8_boundary_is_named() {
    check(
        "2026.7__2026.8",
        ("anthropic", "anthropic-messages", "claude-sonnet-4-5"),
        &["2026.7>2026.8:would-be-rejected>accepted"],
        "rejected up to 2026.7.x, accepted since 2026.8",
    );
}

#[test]
fn the_2026_6_to_2026_7_boundary_is_named() {
    check(
        "2026.6__2026.7",
        ("minimax", "anthropic-messages", "MiniMax-M2.7"),
        &[
            "2026.6>2026.7:accepted>would-be-rejected",
            "2026.7>2026.8:would-be-rejected>accepted",
        ],
        "accepted up to 2026.6.x, rejected from 2026.7 to 2026.7.x, accepted since 2026.8",
    );
}

#[test]
fn the_2026_9_2_to_2026_9_3_boundary_is_named() {
    check(
        "2026.9.2__2026.9.3",
        (
            "amazon-bedrock",
            "bedrock-converse-stream",
            "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        ),
        &["2026.9.2>2026.9.3:would-be-rejected>accepted"],
        "rejected up to 2026.9.2, accepted since 2026.9.3",
    );
}

#[test]
fn a_session_with_one_verdict_says_so_and_the_export_carries_the_line() {
    let sample = common::bundled_samples().join("mistral-ids-and-images.jsonl");
    let target = ("mistral", "mistral-conversations", "devstral-medium-2507");
    let m = json(&releases(&sample, target, &["--format", "json"]));
    assert!(boundaries(&m).is_empty());
    let line = "rejected under every rule set (OpenClaw 2026.6.9 to main)";
    assert_eq!(m["matrix"]["summary"].as_str(), Some(line));
    let export = Command::new(common::bin())
        .args(["export", "--format", "json"])
        .arg(&sample)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&export.stdout).unwrap();
    assert_eq!(doc["releases"].as_str(), Some(line));
    let skipped = Command::new(common::bin())
        .args(["export", "--format", "json", "--no-releases"])
        .arg(&sample)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&skipped.stdout).unwrap();
    assert!(doc.get("releases").is_none(), "--no-releases leaves the line out");
}
