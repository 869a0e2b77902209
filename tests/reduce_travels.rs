//! A reduced case travels (issue 47 point 2): `reduce` writes the target and rule set into the
//! reduced session itself, so `lint small.jsonl` alone, with no flag, replays it for the same
//! target and rule set and gives the same finding. Checked on every bundled sample, for its own
//! target and for targets of other provider families, wherever the replay has a finding.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use replaylens::model::json::Value;

/// Targets besides the session's own: a provider with strict ids and role order, Google,
/// OpenAI Responses and Anthropic.
const TARGETS: &[&[&str]] = &[
    &[],
    &["--provider", "mistral"],
    &[
        "--provider",
        "google",
        "--api",
        "google-generative-ai",
        "--model",
        "gemini-2.5-pro",
    ],
    &[
        "--provider",
        "openai",
        "--api",
        "openai-responses",
        "--model",
        "gpt-5.2",
    ],
    &[
        "--provider",
        "anthropic",
        "--api",
        "anthropic-messages",
        "--model",
        "claude-sonnet-4-6",
    ],
];

fn run(args: &[&str], session: &Path, extra: &[&str]) -> Output {
    Command::new(common::bin())
        .args(args)
        .arg(session)
        .args(extra)
        .output()
        .expect("run replaylens")
}

/// `lint --format json`: the target, the rule set and the replay stage's finding ids.
fn lint(session: &Path, extra: &[&str]) -> (Value, String, Vec<String>) {
    let out = run(&["lint"], session, &[extra, &["--format", "json"][..]].concat());
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "lint JSON of {}: {e}: {}",
            session.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let mut ids: Vec<String> = doc["stages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["stage"] == "replay")
        .flat_map(|s| s["findings"].as_array().cloned().unwrap_or_default())
        .filter_map(|f| f["constraint"].as_str().map(str::to_owned))
        .collect();
    ids.sort();
    ids.dedup();
    (
        doc["target"].clone(),
        doc["rule_set"].as_str().unwrap_or_default().to_owned(),
        ids,
    )
}

#[test]
fn lint_on_the_reduced_file_alone_gives_the_same_finding_for_the_same_target() {
    let dir = tempfile::tempdir().unwrap();
    let mut cases = 0;
    for session in common::bundled_session_files() {
        for (t, target) in TARGETS.iter().enumerate() {
            let (want_target, want_set, ids) = lint(&session, target);
            let Some(first) = ids.first() else { continue };
            let name = session.file_stem().unwrap().to_string_lossy().into_owned();
            let out = dir.path().join(format!("{name}-{t}.jsonl"));
            let reduced = run(
                &["reduce"],
                &session,
                &[target, &["--keep", first, "-o", out.to_str().unwrap()][..]].concat(),
            );
            assert!(
                reduced.status.success(),
                "reduce {name} {target:?}: {}",
                String::from_utf8_lossy(&reduced.stderr)
            );
            let (got_target, got_set, got) = lint(&out, &[]);
            assert_eq!(
                got_target, want_target,
                "{name} {target:?}: the reduced file alone replays for another target"
            );
            assert_eq!(got_set, want_set, "{name} {target:?}: another rule set");
            assert!(got.contains(first), "{name} {target:?}: {first} is gone alone: {got:?}");
            let side: Value =
                serde_json::from_slice(&std::fs::read(format!("{}.reduce.json", out.display())).unwrap()).unwrap();
            assert_eq!(side["recordsTarget"], true, "{name} {target:?}");
            assert_eq!(side["reproduce"], format!("replaylens lint {}", out.display()));
            cases += 1;
        }
    }
    // 4 on the bundled samples today: mistral-ids-and-images for its own target, and three
    // samples for mistral.
    assert!(cases >= 4, "only {cases} sample/target pairs had a finding");
}

#[test]
fn a_session_with_nothing_rejected_is_one_sentence_and_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let session = common::bundled_samples().join("anthropic-tool-repair.jsonl");
    let out = dir.path().join("small.jsonl");
    let r = run(
        &["reduce"],
        &session,
        &["--keep", "verdict", "-o", out.to_str().unwrap()],
    );
    assert_eq!(r.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&r.stderr);
    let last = stderr.lines().last().unwrap();
    assert_eq!(
        last,
        "replaylens: nothing to keep: the session does not reproduce a rejected replay payload for anthropic / anthropic-messages / claude-sonnet-4-6 (rule set newest), so no reduced case was written"
    );
    assert!(!out.exists());
}

#[test]
fn a_mistyped_keep_value_gets_did_you_mean() {
    let dir = tempfile::tempdir().unwrap();
    let session = common::bundled_samples().join("mistral-ids-and-images.jsonl");
    let out = dir.path().join("small.jsonl");
    for (typed, meant) in [
        ("verdcit", "verdict"),
        ("mistral-user-after-tol", "mistral-user-after-tool"),
    ] {
        let r = run(&["reduce"], &session, &["--keep", typed, "-o", out.to_str().unwrap()]);
        assert_eq!(r.status.code(), Some(2), "{typed}");
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert!(
            stderr.contains(&format!("did you mean `{meant}`?")),
            "{typed}: {stderr}"
        );
    }
}
