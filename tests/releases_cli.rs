//! `replaylens releases`: a session replayed and linted under every OpenClaw rule set names the
//! release boundary at which its verdict changes. One crafted session per pair of neighbouring
//! rule sets (`tests/releases/<before>__<after>.json`, message arrays: the first three found by
//! searching the differential test's generator for sessions whose verdict differs, the others
//! written against the switches that differ at their boundary). Some need a payload too large
//! to check in; their test pads one string of the fixture before running it.

mod common;

use std::path::{Path, PathBuf};
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

fn fixture(name: &str) -> PathBuf {
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

/// A copy of the fixture `name` in a new temporary folder, `count` copies of `pad` appended to
/// the string at `pointer`.
fn padded(name: &str, pointer: &str, pad: &str, count: usize) -> (tempfile::TempDir, PathBuf) {
    let mut doc: serde_json::Value = serde_json::from_slice(&std::fs::read(fixture(name)).unwrap()).unwrap();
    let serde_json::Value::String(s) = doc.pointer_mut(pointer).expect("the padded string") else {
        panic!("{pointer} is not a string");
    };
    s.push_str(&pad.repeat(count));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.json"));
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    (dir, path)
}

/// The row of one rule set.
fn row<'m>(m: &'m Value, rule_set: &str) -> &'m Value {
    m["matrix"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleSet"].as_str() == Some(rule_set))
        .expect("a row per rule set")
}

/// Whether a count-by-name object is empty.
fn none(counts: &Value) -> bool {
    counts.as_object().expect("an object of counts").is_empty()
}

/// Run one boundary's fixture and check the boundaries, the summary and the text output.
fn check(name: &str, target: (&str, &str, &str), expect: &[&str], summary: &str) {
    check_at(&fixture(name), target, &[], expect, summary);
}

/// Run a session (with `extra` options) and check the boundaries, the summary and the text
/// output; returns the JSON matrix.
fn check_at(session: &Path, target: (&str, &str, &str), extra: &[&str], expect: &[&str], summary: &str) -> Value {
    let name = session.display();
    let m = json(&releases(session, target, &[extra, &["--format", "json"]].concat()));
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
    let text = releases(session, target, extra);
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains(&format!("verdict: {summary}\n")), "{text}");
    m
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

/// 2026.6.11 refuses an image payload estimated over 10 MiB before reading it; 2026.6.9 and
/// 2026.6.10 (`no-image-input-limit`) read it and re-encode it as a small JPEG, so the ninth
/// image of the session reaches Mistral, which takes at most 8. The fixture's last image is a
/// 1×1 PNG; 14 million `A`s (zero bytes after its IEND) take it over the estimate.
#[test]
fn the_2026_6_9_to_2026_6_boundary_is_named() {
    let target = ("mistral", "mistral-conversations", "mistral-medium-2508");
    let m = json(&releases(&fixture("2026.6.9__2026.6"), target, &["--format", "json"]));
    assert_eq!(
        m["matrix"]["summary"].as_str(),
        Some("rejected under every rule set (OpenClaw 2026.6.9 to main)"),
        "unpadded, all nine images are small and sent"
    );
    let (_dir, session) = padded("2026.6.9__2026.6", "/1/content/1/data", "A", 14_000_000);
    let m = check_at(
        &session,
        target,
        &[],
        &["2026.6.9>2026.6:would-be-rejected>accepted"],
        "rejected up to 2026.6.10, accepted since 2026.6.11",
    );
    assert_eq!(row(&m, "2026.6.9")["findingsByConstraint"]["mistral-image-count"], 1);
    assert!(none(&row(&m, "2026.6")["findingsByConstraint"]));
}

/// Up to 2026.9.1 no policy sets `appendOnlyRuntimeContext`, so consecutive user turns are
/// merged for Claude Fable 5.1 too; from 2026.9.2 they are sent one by one, each in its own
/// message. Only the size of the request shows it, and the other two switches here show less
/// (orphaned Responses reasoning dropped in the history instead of the request leaves at most
/// an id-less reasoning item or an assistant text, which no Responses constraint checks; the
/// "could not be reduced" wording needs a JPEG of 800 px over 5 MiB), so the session is sized
/// for it: padded, the merged turn is 7,000 bytes under the 32 MiB request limit and the 501
/// turns 7,000 over.
#[test]
fn the_2026_8_to_2026_9_2_boundary_is_named() {
    let (_dir, session) = padded("2026.8__2026.9.2", "/0/content/0/text", "x", 33_528_798);
    let m = check_at(
        &session,
        ("anthropic", "anthropic-messages", "claude-fable-5-1"),
        &[],
        &["2026.8>2026.9.2:accepted>would-be-rejected"],
        "accepted up to 2026.9.1, rejected since 2026.9.2",
    );
    assert_eq!(row(&m, "2026.8")["rewritesByRule"]["anthropic-turn-merge"], 1);
    assert_eq!(row(&m, "2026.8")["replayMessages"], 1);
    assert!(none(&row(&m, "2026.9.2")["rewritesByRule"]));
    assert_eq!(row(&m, "2026.9.2")["replayMessages"], 501);
    assert_eq!(row(&m, "2026.9.2")["findingsByConstraint"]["anthropic-request-size"], 1);
}

/// 2026.9.3 and 2026.9.4 drop a call to a tool that is no longer listed even when it has its
/// result, and the result with it; 2026.9.5 keeps completed calls, so the result is sent and
/// the user turn after it is one Mistral refuses.
#[test]
fn the_2026_9_3_to_2026_9_6_boundary_is_named() {
    let session = fixture("2026.9.3__2026.9.6");
    let target = ("mistral", "mistral-conversations", "mistral-medium-2508");
    let m = check_at(
        &session,
        target,
        &["--tools", "read,exec"],
        &["2026.9.3>2026.9.6:accepted>would-be-rejected"],
        "accepted up to 2026.9.4, rejected since 2026.9.5",
    );
    assert_eq!(row(&m, "2026.9.3")["rewritesByRule"]["malformed-tool-call"], 1);
    assert_eq!(
        row(&m, "2026.9.6")["findingsByConstraint"]["mistral-user-after-tool"],
        1
    );
    let unlisted = json(&releases(&session, target, &["--format", "json"]));
    assert!(
        boundaries(&unlisted).is_empty(),
        "without a tool list every release keeps the call"
    );
}

/// 2026.9.6 strips every `details`, the synthetic-result marker included, so an error result
/// carrying the marker is sent with its own content (here 101 images, over Anthropic's 100);
/// the newest revision keeps the marker, and the transport replaces the content of a marked
/// result with `No result provided`.
#[test]
fn the_2026_9_6_to_newest_boundary_is_named() {
    let m = check_at(
        &fixture("2026.9.6__newest"),
        ("anthropic", "anthropic-messages", "claude-sonnet-4-5"),
        &[],
        &["2026.9.6>newest:would-be-rejected>accepted"],
        "rejected up to 2026.9.6, accepted since main after the newest release",
    );
    assert_eq!(row(&m, "2026.9.6")["rewritesByRule"]["tool-result-details"], 1);
    assert_eq!(row(&m, "2026.9.6")["findingsByConstraint"]["anthropic-image-count"], 1);
    assert!(row(&m, "newest")["rewritesByRule"].get("tool-result-details").is_none());
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

/// A call id used twice in one turn, each with a result: from 2026.8 OpenClaw refuses such a
/// Responses replay (`invalid_replay_transcript`) and sends nothing. The refusal is a
/// verdict of its own, in the matrix and in `scan`, never "accepted".
#[test]
fn a_release_that_refuses_the_replay_is_a_boundary_and_scan_says_refused() {
    let target = ("openai", "openai-responses", "gpt-5");
    let m = check_at(
        &fixture("refused_2026.7__2026.8"),
        target,
        &[],
        &["2026.7>2026.8:accepted>refused"],
        "accepted up to 2026.7.x, refused by OpenClaw since 2026.8",
    );
    assert_eq!(row(&m, "2026.9.6")["verdict"], "refused");
    let text = releases(&fixture("refused_2026.7__2026.8"), target, &[]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("⊘ refused by OpenClaw"));
    let scan = Command::new(common::bin())
        .arg("scan")
        .arg(fixture("refused_2026.7__2026.8"))
        .args([
            "--target",
            "openai/openai-responses/gpt-5",
            "--openclaw",
            "2026.9.6",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&scan.stdout).unwrap();
    assert_eq!(doc["sessions"][0]["targets"][0]["verdict"], "refused");
    assert_eq!(doc["summary"]["targets"][0]["refused"], 1);
    assert_eq!(doc["summary"]["targets"][0]["accepted"], 0);
    let report = Command::new(common::bin())
        .arg("export")
        .arg(fixture("refused_2026.7__2026.8"))
        .args([
            "--provider",
            "openai",
            "--api",
            "openai-responses",
            "--model",
            "gpt-5",
            "--format",
            "md",
        ])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&report.stdout);
    assert!(
        report.contains("**OpenClaw refuses:** **this replay is not sent at all**: invalid\\_replay\\_transcript"),
        "{report}"
    );
}
