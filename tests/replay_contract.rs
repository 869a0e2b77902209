//! The `replay --format json` contract of `docs/internals.md`, checked field by field (plus the added
//! `targetOrigin`), for every bundled sample session and every family preset; `policy` and
//! `rules` commands.

mod common;

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

use replaylens::model::json::Value;
use replaylens::policy::{Family, preset};

fn replay_json(path: &Path, args: &[&str]) -> Value {
    let out = Command::new(common::bin())
        .arg("replay")
        .arg(path)
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn target_args(family: Family) -> Vec<String> {
    let t = preset(family);
    let mut args = Vec::new();
    for (flag, v) in [("--provider", t.provider), ("--api", t.api), ("--model", t.model)] {
        if let Some(v) = v {
            args.push(flag.to_owned());
            args.push(v);
        }
    }
    args
}

/// Check every field of the contract (`docs/internals.md`) and the index / provenance invariants.
fn check_contract(doc: &Value, path: &Path) {
    let what = path.display();
    let session = &doc["session"];
    assert!(
        session["path"]
            .as_str()
            .is_some_and(|p| p.ends_with(path.file_name().unwrap().to_str().unwrap())),
        "{what}"
    );
    assert!(
        matches!(session["format"].as_str(), Some("openclaw-jsonl" | "openclaw-sqlite")),
        "{what}"
    );
    assert!(session["id"].as_str().is_some_and(|s| !s.is_empty()), "{what}");
    let target = doc["target"].as_object().expect("target object");
    for k in target.keys() {
        assert!(
            ["provider", "api", "model"].contains(&k.as_str()),
            "{what}: target key {k}"
        );
    }
    let origin = doc["targetOrigin"].as_object().expect("targetOrigin object");
    assert_eq!(origin.len(), 3, "{what}");
    for k in ["provider", "api", "model"] {
        assert!(
            matches!(
                origin[k].as_str(),
                Some("given" | "session" | "provider-default" | "missing")
            ),
            "{what}: targetOrigin {k}"
        );
    }
    let policy = doc["policy"].as_object().expect("policy object");
    assert_eq!(
        policy.get("repairToolUseResultPairing"),
        Some(&Value::Bool(true)),
        "{what}"
    );
    for (k, v) in policy {
        assert!(!v.is_null(), "{what}: absent flags are omitted, not null ({k})");
        assert!(
            k.chars().next().unwrap().is_ascii_lowercase() && !k.contains('_'),
            "{what}: camelCase {k}"
        );
    }
    let stored = doc["stored"].as_array().expect("stored array");
    for (i, s) in stored.iter().enumerate() {
        assert_eq!(s["index"], i, "{what}");
        assert!(s["message"].is_object(), "{what}");
        if let Some(id) = s.get("entryId") {
            assert!(id.is_string(), "{what}");
        }
    }
    let replay = doc["replay"].as_array().expect("replay array");
    let mut used = HashSet::new();
    for (i, r) in replay.iter().enumerate() {
        assert_eq!(r["index"], i, "{what}");
        assert!(r["message"].is_object(), "{what}");
        for src in r["source"].as_array().expect("source array") {
            let s = src.as_u64().unwrap() as usize;
            assert!(s < stored.len(), "{what}: source {s} out of range");
            assert!(used.insert(s), "{what}: stored {s} appears in two replay messages");
        }
    }
    for rw in doc["rewrites"].as_array().expect("rewrites array") {
        assert!(
            rw["rule"]
                .as_str()
                .is_some_and(|r| replaylens::hygiene::registry::by_id(r).is_some()),
            "{what}: {rw}"
        );
        assert!(
            matches!(
                rw["action"].as_str(),
                Some("drop" | "insert" | "modify" | "merge" | "move")
            ),
            "{what}"
        );
        for s in rw["stored"].as_array().unwrap() {
            assert!((s.as_u64().unwrap() as usize) < stored.len(), "{what}");
        }
        for r in rw["replay"].as_array().unwrap() {
            assert!((r.as_u64().unwrap() as usize) < replay.len(), "{what}");
        }
        assert!(rw["detail"].is_string(), "{what}");
        if rw["action"] == "drop" {
            assert!(
                rw["replay"].as_array().unwrap().is_empty(),
                "{what}: a drop has no replay side"
            );
        }
        if rw["action"] == "insert" {
            assert!(
                rw["stored"].as_array().unwrap().is_empty(),
                "{what}: an insert has no stored side"
            );
        }
    }
}

#[test]
fn every_sample_and_every_family_replays_within_the_contract() {
    let families = Family::all();
    assert!(families.len() >= 9);
    for path in common::bundled_session_files() {
        let own = replay_json(&path, &[]);
        check_contract(&own, &path);
        for &family in families {
            let args = target_args(family);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let doc = replay_json(&path, &args);
            check_contract(&doc, &path);
            assert_eq!(doc["family"], family.id(), "{} → {:?}", path.display(), args);
        }
    }
}

#[test]
fn replay_output_is_deterministic() {
    for path in common::bundled_session_files() {
        let run = || {
            Command::new(common::bin())
                .arg("replay")
                .arg(&path)
                .args(["--format", "json"])
                .output()
                .unwrap()
                .stdout
        };
        assert_eq!(run(), run(), "{}", path.display());
    }
}

#[test]
fn stored_array_equals_show_json_stored() {
    let path = common::bundled_samples().join("anthropic-tool-repair.jsonl");
    let doc = replay_json(&path, &[]);
    let out = Command::new(common::bin())
        .args(["show", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    let shown: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["stored"], shown["stored"]);
    assert_eq!(doc["target"]["provider"], shown["target"]["provider"]);
    assert_eq!(doc["target"]["model"], shown["target"]["model"]);
}

#[test]
fn target_parts_default_to_the_session_model_or_the_providers_defaults() {
    let path = common::bundled_samples().join("anthropic-tool-repair.jsonl");
    let doc = replay_json(&path, &["--provider", "mistral"]);
    assert_eq!(doc["target"]["provider"], "mistral");
    assert_eq!(
        doc["target"]["api"], "mistral-conversations",
        "another provider: its default API"
    );
    assert_eq!(doc["target"]["model"], "mistral-large-latest", "and its default model");
    assert_eq!(doc["targetOrigin"]["model"], "provider-default");
    assert_eq!(doc["family"], "mistral");
    let doc = replay_json(&path, &["--model", "claude-opus-4-1"]);
    assert_eq!(doc["target"]["provider"], "anthropic", "provider from the session");
    assert_eq!(doc["target"]["api"], "anthropic-messages", "API from the session");
    assert_eq!(doc["targetOrigin"]["provider"], "session");
    assert_eq!(doc["targetOrigin"]["model"], "given");
}

#[test]
fn policy_command_text_and_json() {
    let out = Command::new(common::bin())
        .args([
            "policy",
            "--provider",
            "mistral",
            "--model",
            "mistral-large-latest",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["toolCallIdMode"], "strict9");
    assert_eq!(v["sanitizeToolCallIds"], true);
    assert_eq!(v["sanitizeMode"], "images-only");
    assert_eq!(v["family"], "mistral");
    let text = Command::new(common::bin())
        .args(["policy", "--provider", "anthropic", "--model", "claude-opus-4-1"])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.to_lowercase().contains("anthropic"), "{text}");
}

#[test]
fn rules_command_lists_and_explains() {
    let out = Command::new(common::bin()).arg("rules").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let listed = String::from_utf8(out.stdout).unwrap();
    for r in replaylens::hygiene::registry::pipeline() {
        assert!(listed.contains(r.info().id), "{listed}");
    }
    let out = Command::new(common::bin())
        .args(["rules", "tool-result-details"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("reference:") && text.contains("applies to:"), "{text}");
    let out = Command::new(common::bin())
        .args(["rules", "no-such-rule"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_release_a_database_records_is_the_default_rule_set() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("agent.sqlite");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions/openclaw-agent.sqlite"),
        &db,
    )
    .unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute("UPDATE schema_meta SET app_version = '2026.9.4'", [])
        .unwrap();
    drop(conn);
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_replaylens"))
            .arg("replay")
            .arg(&db)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (stdout, stderr) = run(&[]);
    assert!(stdout.contains("(OpenClaw rule set 2026.9.3)"), "{stdout}");
    assert!(
        stderr.contains("rule set 2026.9.3 from the OpenClaw release the session records (2026.9.4)"),
        "{stderr}"
    );
    let (stdout, _) = run(&["--openclaw", "newest"]);
    assert!(stdout.contains("(OpenClaw rule set newest)"), "{stdout}");
    assert_eq!(replay_json(&db, &[])["openclaw"], "2026.9.3");
}
