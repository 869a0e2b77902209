//! `replaylens reduce`: a rejected session becomes a small, redacted case that still
//! reproduces the same finding with the same provider text, in the input's own format.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use replaylens::model::json::Value;

const MISTRAL: [&str; 6] = [
    "--provider",
    "mistral",
    "--api",
    "mistral-conversations",
    "--model",
    "devstral-medium-2507",
];

fn run(args: &[&str], session: &Path, extra: &[&str]) -> Output {
    Command::new(common::bin())
        .args(args)
        .arg(session)
        .args(extra)
        .output()
        .expect("run replaylens")
}

/// The findings `lint --format json` reports on the replay payload: (constraint, message).
fn findings(session: &Path, target: &[&str]) -> Vec<(String, String)> {
    let out = run(&["lint"], session, &[target, &["--format", "json"][..]].concat());
    let doc: Value = serde_json::from_slice(&out.stdout).expect("lint JSON");
    let mut list: Vec<(String, String)> = doc["stages"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["findings"].as_array().cloned().unwrap_or_default())
        .map(|f| {
            (
                f["constraint"].as_str().unwrap_or_default().to_owned(),
                f["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    list.sort();
    list.dedup();
    list
}

/// Messages in an OpenClaw JSONL file (entries of type `message`).
fn messages(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.contains(r#""type":"message""#))
        .count()
}

fn reduce(session: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&["reduce"], session, &args)
}

#[test]
fn a_bundled_sample_reduces_to_the_finding_with_the_same_provider_text() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::bundled_samples().join("mistral-ids-and-images.jsonl");
    let small = dir.path().join("small.jsonl");
    let out = reduce(&sample, &small, &["--keep", "mistral-user-after-tool"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(messages(&small) <= 5, "{} messages", messages(&small));
    let before = findings(&sample, &MISTRAL);
    let after = findings(&small, &MISTRAL);
    let wanted = |list: &[(String, String)]| -> Vec<(String, String)> {
        list.iter()
            .filter(|(c, _)| c == "mistral-user-after-tool")
            .cloned()
            .collect()
    };
    assert!(!wanted(&after).is_empty());
    assert_eq!(
        wanted(&after)[0],
        wanted(&before)[0],
        "same finding, same provider text"
    );
    let side: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("small.jsonl.reduce.json")).unwrap()).unwrap();
    assert_eq!(side["keeps"], "lint finding mistral-user-after-tool");
    assert_eq!(side["redacted"], true);
    assert_eq!(side["minimal"], true);
    let header = std::fs::read_to_string(&small).unwrap();
    assert!(header.starts_with(r#"{"type":"session""#), "the header line is kept");
}

/// An OpenClaw JSONL session of `n` ordinary turns with one defect planted in the middle: a
/// tool result followed directly by a user turn (Mistral refuses `user` after `tool`). Every
/// user turn is an AWS access key id, short enough that the text pass leaves it whole.
fn planted(path: &Path, n: usize) {
    let mut lines = vec![
        r#"{"type":"session","version":3,"id":"planted","timestamp":"2026-03-14T09:30:00.000Z","cwd":"/"}"#.to_owned(),
    ];
    let mut parent = "null".to_owned();
    let mut push = |lines: &mut Vec<String>, id: String, message: String| {
        lines.push(format!(
            r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-03-14T09:30:01.000Z","message":{message}}}"#
        ));
        parent = format!("\"{id}\"");
    };
    let assistant = |content: &str, stop: &str| {
        format!(
            r#"{{"role":"assistant","content":{content},"provider":"mistral","api":"mistral-conversations","model":"devstral-medium-2507","stopReason":"{stop}","usage":{{"input":1,"output":1}},"timestamp":2}}"#
        )
    };
    for i in 0..n / 2 {
        push(
            &mut lines,
            format!("u{i}"),
            format!(r#"{{"role":"user","content":"AKIA{i:016}","timestamp":1}}"#),
        );
        if i == n / 4 {
            push(
                &mut lines,
                "planted-call".into(),
                assistant(
                    r#"[{"type":"toolCall","id":"abcdefghi","name":"read","arguments":{"path":"a.txt"}}]"#,
                    "toolUse",
                ),
            );
            push(
                &mut lines,
                "planted-result".into(),
                r#"{"role":"toolResult","toolCallId":"abcdefghi","toolName":"read","content":[{"type":"text","text":"data"}],"isError":false,"timestamp":3}"#.into(),
            );
            push(
                &mut lines,
                "planted-user".into(),
                r#"{"role":"user","content":"AKIAIOSFODNN7EXAMPLE","timestamp":4}"#.into(),
            );
        }
        push(
            &mut lines,
            format!("a{i}"),
            assistant(&format!(r#"[{{"type":"text","text":"answer number {i}"}}]"#), "stop"),
        );
    }
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn a_planted_defect_in_two_thousand_messages_reduces_to_at_most_five_redacted() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.jsonl");
    planted(&big, 2_000);
    assert!(messages(&big) >= 2_000);
    let before = findings(&big, &MISTRAL);
    assert_eq!(before.len(), 1, "{before:?}");
    let small = dir.path().join("small.jsonl");
    let out = reduce(
        &big,
        &small,
        &[
            "--keep-error",
            r#"{"object":"error","message":"Unexpected role 'user' after role 'tool'","type":"invalid_request_message_order"}"#,
        ],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(messages(&small) <= 5, "{} messages", messages(&small));
    assert_eq!(
        findings(&small, &MISTRAL),
        before,
        "the same finding with the same provider text"
    );
    let text = std::fs::read_to_string(&small).unwrap();
    assert!(!text.contains("AKIA"), "the planted secrets are redacted: {text}");
    let unredacted = dir.path().join("raw.jsonl");
    let out = reduce(&big, &unredacted, &["--keep", "mistral-user-after-tool", "--no-redact"]);
    assert!(out.status.success());
    assert!(std::fs::read_to_string(&unredacted).unwrap().contains("AKIA"));
}

#[test]
fn a_rule_is_kept_and_a_message_array_stays_an_array() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::bundled_samples().join("anthropic-tool-repair.jsonl");
    let small = dir.path().join("small.jsonl");
    let out = reduce(&sample, &small, &["--keep", "tool-result-pairing"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(messages(&small) <= 5);
    let replayed = run(&["replay"], &small, &["--format", "json"]);
    let doc: Value = serde_json::from_slice(&replayed.stdout).unwrap();
    assert!(
        doc["rewrites"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["rule"] == "tool-result-pairing"),
        "the reduced session still makes the rule rewrite"
    );
    let array = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/releases/2026.7__2026.8.json");
    let target = [
        "--provider",
        "anthropic",
        "--api",
        "anthropic-messages",
        "--model",
        "claude-sonnet-4-5",
        "--openclaw",
        "2026.7",
    ];
    let small = dir.path().join("small.json");
    let out = reduce(&array, &small, &[&["--keep", "verdict"][..], &target].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&small).unwrap()).unwrap();
    assert!(doc.as_array().is_some_and(|a| !a.is_empty()), "a message array again");
}

#[test]
fn nothing_to_keep_and_unknown_names_are_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::bundled_samples().join("compaction-and-branch.jsonl");
    let out = reduce(
        &sample,
        &dir.path().join("x.jsonl"),
        &["--keep", "mistral-user-after-tool"],
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("does not reproduce lint finding mistral-user-after-tool"),
        "{err}"
    );
    let out = reduce(&sample, &dir.path().join("x.jsonl"), &["--keep", "no-such-thing"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is neither `verdict`, a rule id"));
    let out = reduce(&sample, &sample, &["--keep", "verdict"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is the session being reduced"));
    assert!(!dir.path().join("x.jsonl").exists(), "nothing written");
}

/// The 1×1 PNG `reduce` puts in place of an image the case does not need.
const TINY_PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

#[test]
fn images_the_case_does_not_need_become_one_pixel_and_those_it_needs_stay() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::bundled_samples().join("mistral-ids-and-images.jsonl");
    // image-sanitize needs the oversized image: it stays as stored.
    let small = dir.path().join("image.jsonl");
    let out = reduce(&sample, &small, &["--keep", "image-sanitize", "--no-redact"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&small).unwrap();
    assert!(text.contains(r#""type":"image""#), "{text}");
    assert!(!text.contains(TINY_PNG), "the image the rule rewrites is kept");
    // The ordering finding needs no pixels: every image left is one pixel.
    let small = dir.path().join("order.jsonl");
    let out = reduce(&sample, &small, &["--keep", "mistral-user-after-tool", "--no-redact"]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&small).unwrap();
    let big = text
        .split(r#""data":""#)
        .skip(1)
        .filter(|rest| !rest.starts_with(TINY_PNG))
        .count();
    assert_eq!(big, 0, "no full-size image is left: {}", text.len());
}

#[test]
fn claude_code_and_codex_sessions_reduce_to_sessions_of_their_own_format() {
    let Some(shared) = common::shared_samples() else {
        eprintln!("note: ../shared/samples is absent; Claude Code and Codex reductions not checked");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (sample, format) in [
        ("claude-code/agent-sessions/small.jsonl", "claude-code-jsonl"),
        ("codex/agent-sessions/small.jsonl", "codex-rollout"),
    ] {
        let session = shared.join(sample);
        let replayed = run(&["replay"], &session, &["--format", "json"]);
        let doc: Value = serde_json::from_slice(&replayed.stdout).unwrap();
        let rule = doc["rewrites"][0]["rule"]
            .as_str()
            .expect("the sample has a rewrite")
            .to_owned();
        let small = dir.path().join(format!("{format}.jsonl"));
        let out = reduce(&session, &small, &["--keep", &rule]);
        assert!(
            out.status.success(),
            "{sample}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let replayed = run(&["replay"], &small, &["--format", "json"]);
        let doc: Value = serde_json::from_slice(&replayed.stdout).unwrap();
        assert_eq!(
            doc["session"]["format"].as_str(),
            Some(format),
            "{sample}: still its own format"
        );
        assert!(
            doc["rewrites"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["rule"] == rule.as_str()),
            "{sample}: the reduced session still makes a {rule} rewrite"
        );
        let lines = std::fs::read_to_string(&small).unwrap().lines().count();
        let before = std::fs::read_to_string(&session).unwrap().lines().count();
        assert!(lines < before / 4, "{sample}: {lines} of {before} lines");
    }
}
