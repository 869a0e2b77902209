//! `lint` and `replay` name the same target and API for the same session: over every bundled
//! sample and every session file of the shared samples, the target `replay --format json`
//! resolves is the one `lint --format json` checks the payload for; where `lint` cannot build a
//! payload, its one-sentence refusal names the API `replay` shows (or says there is none).

mod common;

use std::path::Path;
use std::process::Command;

use replaylens::model::json::Value;

/// What one command printed: its exit code, the JSON on stdout (when any) and its last stderr line.
fn run(cmd: &str, path: &Path) -> (Option<i32>, Option<Value>, String) {
    let out = Command::new(common::bin())
        .args([cmd, "--format", "json"])
        .arg(path)
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).ok();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.lines().last().unwrap_or("").to_owned();
    (out.status.code(), json, last)
}

/// Where the two disagree on `path`, in one line.
fn disagreement(path: &Path) -> Option<String> {
    let (replay_code, replay, replay_err) = run("replay", path);
    let shown = path.display();
    let Some(replay) = replay.filter(|_| replay_code == Some(0)) else {
        return Some(format!("{shown}: replay failed ({replay_code:?}): {replay_err}"));
    };
    let target = &replay["target"];
    let api = target.get("api").and_then(Value::as_str);
    let (lint_code, lint, lint_err) = run("lint", path);
    match (lint_code, lint) {
        (Some(0 | 1), Some(lint)) => {
            if &lint["target"] != target {
                return Some(format!(
                    "{shown}: lint checks {} but replay shows {target}",
                    lint["target"]
                ));
            }
            let wire = lint.get("api").and_then(Value::as_str);
            (wire != api).then(|| format!("{shown}: lint builds for API {wire:?}, replay names {api:?}"))
        }
        _ => {
            let named = match api {
                Some(api) => lint_err.contains(&format!("`{api}`")),
                None => lint_err.contains("no model API"),
            };
            (!named).then(|| format!("{shown}: replay names API {api:?}; lint says `{lint_err}`"))
        }
    }
}

#[test]
fn lint_and_replay_name_the_same_api_for_every_sample() {
    let mut files = common::bundled_session_files();
    if let Some(shared) = common::shared_samples() {
        files.extend(
            common::files_under(&shared)
                .into_iter()
                .filter(|p| common::is_shared_session_file(p)),
        );
    }
    assert!(files.len() > 8, "too few samples: {}", files.len());
    let mut compared = 0;
    let mut differ = Vec::new();
    for path in &files {
        // Files replay cannot load (the unclaimed formats) have no target to compare.
        let (code, _, _) = run("show", path);
        if code != Some(0) {
            continue;
        }
        compared += 1;
        differ.extend(disagreement(path));
    }
    eprintln!("lint and replay compared on {compared} of {} sample files", files.len());
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
