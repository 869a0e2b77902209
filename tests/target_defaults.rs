//! Retargeting a session from the command line (issue 15): another known provider brings its
//! default API and model, the parts' origins are said on stderr and in `targetOrigin`, near
//! misses of known ids get a "did you mean", `--session` on a session file is an error, and
//! `export` takes `--image-max-px`.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

use replaylens::model::json::Value;

fn anthropic_sample() -> PathBuf {
    common::bundled_samples().join("anthropic-tool-repair.jsonl")
}

fn run(args: &[&str]) -> Output {
    Command::new(common::bin()).args(args).output().unwrap()
}

fn sample_run(command: &str, args: &[&str]) -> Output {
    let path = anthropic_sample();
    let mut all = vec![command, path.to_str().unwrap()];
    all.extend_from_slice(args);
    run(&all)
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

fn json(out: &Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn another_provider_gets_its_default_api_and_model() {
    let doc = json(&sample_run("replay", &["--provider", "mistral", "--format", "json"]));
    assert_eq!(doc["target"]["provider"], "mistral");
    assert_eq!(doc["target"]["api"], "mistral-conversations");
    assert_eq!(doc["target"]["model"], "mistral-large-latest");
    assert_eq!(doc["family"], "mistral");
    assert_eq!(
        doc["targetOrigin"],
        replaylens::json!({"provider": "given", "api": "provider-default", "model": "provider-default"})
    );
    let out = sample_run("replay", &["--provider", "mistral"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).contains("→ mistral / mistral-conversations / mistral-large-latest  [mistral]"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn text_modes_say_where_each_part_came_from() {
    let line = "target: mistral (given) / mistral-conversations (mistral's default API) / \
                mistral-large-latest (mistral's default model)";
    for command in ["replay", "payload", "lint"] {
        let out = sample_run(command, &["--provider", "mistral"]);
        assert!(stderr(&out).lines().any(|l| l == line), "{command}: {}", stderr(&out));
        let out = sample_run(command, &["--provider", "mistral", "--format", "json"]);
        assert!(!stderr(&out).contains("target:"), "{command} json: {}", stderr(&out));
    }
    let out = sample_run("export", &["--provider", "mistral", "--format", "md"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).lines().any(|l| l == line), "{}", stderr(&out));
}

#[test]
fn the_plain_replay_and_a_full_target_say_nothing_about_origins() {
    let out = sample_run("replay", &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
    let doc = json(&sample_run("replay", &["--format", "json"]));
    assert_eq!(
        doc["targetOrigin"],
        replaylens::json!({"provider": "session", "api": "session", "model": "session"})
    );
    let full = [
        "--provider",
        "openai",
        "--api",
        "openai-responses",
        "--model",
        "gpt-5.1",
    ];
    let out = sample_run("replay", &full);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
}

#[test]
fn a_near_miss_warns_with_did_you_mean_and_runs_only_with_an_api() {
    let out = sample_run("replay", &["--provider", "antropic"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(r#"unknown provider "antropic"; did you mean "anthropic"?"#),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    let out = sample_run("replay", &["--provider", "antropic", "--api", "anthropic-messages"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(r#"warning: unknown provider "antropic"; did you mean "anthropic"?"#),
        "{err}"
    );
    assert!(
        err.contains("note: custom provider antropic over API anthropic-messages"),
        "{err}"
    );
    assert!(
        err.contains("target: antropic (given) / anthropic-messages (given) / claude-sonnet-4-6 (from the session)"),
        "{err}"
    );
    assert!(stdout(&out).contains("[unowned-anthropic]"), "{}", stdout(&out));
    let out = sample_run("replay", &["--api", "anthropic-message", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains(r#"unknown API "anthropic-message"; did you mean "anthropic-messages"?"#),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_custom_provider_over_a_given_api_inherits_the_model_without_did_you_mean() {
    let custom = ["--provider", "my-gateway", "--api", "anthropic-messages"];
    let doc = json(&sample_run("replay", &[&custom[..], &["--format", "json"]].concat()));
    assert_eq!(doc["target"]["provider"], "my-gateway");
    assert_eq!(doc["target"]["api"], "anthropic-messages");
    assert_eq!(doc["target"]["model"], "claude-sonnet-4-6");
    assert_eq!(doc["targetOrigin"]["model"], "session");
    let out = sample_run("replay", &custom);
    let err = stderr(&out);
    assert!(!err.contains("did you mean"), "{err}");
    assert!(
        err.contains("target: my-gateway (given) / anthropic-messages (given) / claude-sonnet-4-6 (from the session)"),
        "{err}"
    );
    let out = sample_run("replay", &["--provider", "my-gateway"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("needs --api"), "{}", stderr(&out));
}

#[test]
fn session_flag_on_a_session_file_is_an_error() {
    for command in [
        vec!["replay"],
        vec!["show"],
        vec!["payload"],
        vec!["lint"],
        vec!["export", "--format", "md"],
    ] {
        let mut args = command.clone();
        let path = anthropic_sample();
        args.push(path.to_str().unwrap());
        args.extend(["--session", "x"]);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        assert!(out.stdout.is_empty(), "{command:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "one sentence: {err}");
        assert!(err.contains("anthropic-tool-repair.jsonl"), "names the file: {err}");
        assert!(err.contains("--session picks a window of a database"), "{err}");
    }
    let db = common::bundled_samples().join("openclaw-agent.sqlite");
    let out = run(&["replay", db.to_str().unwrap(), "--session", "no-such-window"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("has no session no-such-window"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn export_takes_the_image_size() {
    let path = common::bundled_samples().join("mistral-ids-and-images.jsonl");
    let export = |extra: &[&str]| {
        let mut args = vec!["export", path.to_str().unwrap(), "--format", "md"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let small = export(&["--image-max-px", "800"]);
    assert!(small.contains("→ image/jpeg 800×123"), "{small}");
    assert!(small.contains("longest side over 800 px"));
    let default = export(&[]);
    assert!(default.contains("longest side over 1200 px"));
    let out = run(&[
        "export",
        path.to_str().unwrap(),
        "--format",
        "md",
        "--image-max-px",
        "0",
    ]);
    assert_eq!(out.status.code(), Some(2));
}
