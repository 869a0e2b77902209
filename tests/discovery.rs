//! `replaylens sessions` with no path: every agent's default location (OpenClaw, Claude
//! Code, Codex), found from a temporary home folder laid out like the real ones, with the
//! public samples copied in at test time.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use replaylens::model::json::Value;
use replaylens::model::time::iso_to_ms;

const ENV_ROOTS: [&str; 3] = ["OPENCLAW_STATE_DIR", "CLAUDE_CONFIG_DIR", "CODEX_HOME"];
const OPENCLAW_ID: &str = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d";
const CLAUDE_PARENT: &str = "0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f";
const CLAUDE_OTHER: &str = "9f8e7d6c-5b4a-4392-8170-6a5b4c3d2e1f";
const CODEX_ONE: &str = "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl";
const CODEX_TWO: &str = "rollout-2026-01-03T04-05-06-22222222-2222-4222-8222-222222222222.jsonl";
const CODEX_THREE: &str = "rollout-2026-01-03T04-05-10-33333333-3333-4333-8333-333333333333.jsonl";
const CODEX_ARCHIVED: &str = "rollout-55555555-5555-4555-8555-555555555555.jsonl";

/// Copy one sample file to `to`, creating folders.
fn copy(from: &Path, to: &Path) {
    fs::create_dir_all(to.parent().unwrap()).unwrap();
    fs::copy(from, to).unwrap_or_else(|e| panic!("copy {} → {}: {e}", from.display(), to.display()));
}

/// Write `text` to `to`, creating folders.
fn write(to: &Path, bytes: &[u8]) {
    fs::create_dir_all(to.parent().unwrap()).unwrap();
    fs::write(to, bytes).unwrap();
}

/// Compress a sample into `to` as a zstd stream.
fn compress(from: &Path, to: &Path) {
    let bytes = zstd::encode_all(fs::read(from).unwrap().as_slice(), 3).unwrap();
    write(to, &bytes);
}

/// The three roots under `home`, populated from the samples.
fn populate(samples: &Path, home: &Path) {
    let oc = samples.join("openclaw-jsonl/deja-vu/agents/main/sessions");
    let oc_to = home.join(".openclaw/agents/main/sessions");
    copy(
        &oc.join(format!("{OPENCLAW_ID}.jsonl")),
        &oc_to.join(format!("{OPENCLAW_ID}.jsonl")),
    );
    let checkpoint = format!("{OPENCLAW_ID}.checkpoint.11111111-2222-4333-8444-555555555555.jsonl");
    copy(&oc.join(&checkpoint), &oc_to.join(&checkpoint));
    copy(&oc.join("sessions.json"), &oc_to.join("sessions.json"));

    let project = home.join(".claude/projects/-home-u-app");
    let cc = samples.join("claude-code/agent-sessions/subagent");
    copy(
        &cc.join(format!("{CLAUDE_PARENT}.jsonl")),
        &project.join(format!("{CLAUDE_PARENT}.jsonl")),
    );
    let sub = format!("{CLAUDE_PARENT}/subagents/agent-a0ad4f44468bdf20d");
    copy(&cc.join(format!("{sub}.jsonl")), &project.join(format!("{sub}.jsonl")));
    copy(
        &cc.join(format!("{sub}.meta.json")),
        &project.join(format!("{sub}.meta.json")),
    );
    write(
        &project.join(format!("{CLAUDE_PARENT}/subagents/journal.jsonl")),
        b"{\"type\":\"agent_started\",\"agentId\":\"a0ad4f44468bdf20d\"}\n",
    );
    write(
        &project.join(format!("{CLAUDE_PARENT}/tool-results/toolu_1.txt")),
        b"large tool output\n",
    );
    copy(
        &samples.join("claude-code/claude-code-log/representative_messages.jsonl"),
        &home.join(format!(".claude/projects/-tmp/{CLAUDE_OTHER}.jsonl")),
    );

    let cx = samples.join("codex/claude-code-log");
    let day2 = home.join(".codex/sessions/2026/01/02");
    let day3 = home.join(".codex/sessions/2026/01/03");
    copy(&cx.join("sessions/2026/01/02").join(CODEX_ONE), &day2.join(CODEX_ONE));
    compress(
        &cx.join("sessions/2026/01/03").join(CODEX_TWO),
        &day3.join(format!("{CODEX_TWO}.zst")),
    );
    // Both a plain rollout and its `.zst`: the plain one wins.
    copy(
        &cx.join("sessions/2026/01/03").join(CODEX_THREE),
        &day3.join(CODEX_THREE),
    );
    compress(
        &cx.join("sessions/2026/01/03").join(CODEX_THREE),
        &day3.join(format!("{CODEX_THREE}.zst")),
    );
    copy(
        &cx.join("archived_sessions").join(CODEX_ARCHIVED),
        &home.join(".codex/archived_sessions").join(CODEX_ARCHIVED),
    );
}

/// Run `replaylens` with `HOME` = `home`, the root variables removed, then `env` applied.
fn run(home: &Path, env: &[(&str, &Path)], args: &[&str]) -> Output {
    let mut cmd = Command::new(common::bin());
    cmd.args(args).env("HOME", home);
    for var in ENV_ROOTS {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run replaylens");
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `sessions --format json` rows.
fn rows(home: &Path, env: &[(&str, &Path)]) -> Vec<Value> {
    let out = run(home, env, &["sessions", "--format", "json"]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    v.as_array().expect("array").to_vec()
}

/// The row for a file `rel` under `home`.
fn row<'a>(rows: &'a [Value], home: &Path, rel: &str) -> &'a Value {
    let want = home.join(rel);
    rows.iter()
        .find(|r| r["path"].as_str().map(PathBuf::from) == Some(want.clone()))
        .unwrap_or_else(|| panic!("{rel} is not listed: {rows:#?}"))
}

fn rel_paths(rows: &[Value], home: &Path) -> Vec<String> {
    rows.iter()
        .map(|r| {
            let p = PathBuf::from(r["path"].as_str().unwrap());
            p.strip_prefix(home).unwrap().to_string_lossy().into_owned()
        })
        .collect()
}

#[test]
fn every_agents_default_location_is_listed_newest_first() {
    let Some(samples) = common::shared_samples() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    populate(&samples, home);
    let rows = rows(home, &[]);

    let cp = format!(".claude/projects/-home-u-app/{CLAUDE_PARENT}");
    let codex2 = format!(".codex/sessions/2026/01/03/{CODEX_TWO}.zst");
    let mut expected = vec![
        format!(".openclaw/agents/main/sessions/{OPENCLAW_ID}.jsonl"),
        format!(".openclaw/agents/main/sessions/{OPENCLAW_ID}.checkpoint.11111111-2222-4333-8444-555555555555.jsonl"),
        format!("{cp}.jsonl"),
        format!("{cp}/subagents/agent-a0ad4f44468bdf20d.jsonl"),
        format!(".claude/projects/-tmp/{CLAUDE_OTHER}.jsonl"),
        format!(".codex/sessions/2026/01/02/{CODEX_ONE}"),
        codex2.clone(),
        format!(".codex/sessions/2026/01/03/{CODEX_THREE}"),
        format!(".codex/archived_sessions/{CODEX_ARCHIVED}"),
    ];
    let mut listed = rel_paths(&rows, home);
    listed.sort();
    expected.sort();
    assert_eq!(listed, expected, "exactly the sessions, no side files: {rows:#?}");

    for r in &rows {
        assert!(r["error"].is_null(), "{r:#}");
    }

    // Newest first: every `updated` is known here, and none is later than the one above it.
    let times: Vec<f64> = rows
        .iter()
        .map(|r| {
            let u = r["updated"].as_str().unwrap_or_else(|| panic!("no update time: {r:#}"));
            iso_to_ms(u).unwrap_or_else(|| panic!("not a time: {u}"))
        })
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "{rows:#?}");
    assert_eq!(
        rel_paths(&rows, home)[0],
        format!(".openclaw/agents/main/sessions/{OPENCLAW_ID}.jsonl"),
        "the live OpenClaw transcript (2026-07-20) is the newest"
    );
    assert_eq!(
        rel_paths(&rows, home).last().map(String::as_str),
        Some(&*format!(".codex/archived_sessions/{CODEX_ARCHIVED}")),
        "the archived rollout (2024) is the oldest"
    );

    let live = row(
        &rows,
        home,
        &format!(".openclaw/agents/main/sessions/{OPENCLAW_ID}.jsonl"),
    );
    assert_eq!(live["agent"], "OpenClaw");
    assert_eq!(live["id"], OPENCLAW_ID);
    assert_eq!(live["cwd"], "/workspace/registry-demo", "from the session header");
    assert!(live["archive"].is_null() && live["parent"].is_null());
    let checkpoint = row(
        &rows,
        home,
        &format!(".openclaw/agents/main/sessions/{OPENCLAW_ID}.checkpoint.11111111-2222-4333-8444-555555555555.jsonl"),
    );
    assert_eq!(checkpoint["archive"], "checkpoint");

    let parent = row(&rows, home, &format!("{cp}.jsonl"));
    assert_eq!(parent["agent"], "Claude Code");
    assert_eq!(parent["format"], "claude-code-jsonl");
    assert!(parent["parent"].is_null() && parent["archive"].is_null());
    let sub = row(&rows, home, &format!("{cp}/subagents/agent-a0ad4f44468bdf20d.jsonl"));
    assert_eq!(sub["agent"], "Claude Code");
    assert_eq!(sub["parent"], CLAUDE_PARENT);
    assert!(sub["archive"].is_null());
    let other = row(&rows, home, &format!(".claude/projects/-tmp/{CLAUDE_OTHER}.jsonl"));

    let codex_one = row(&rows, home, &format!(".codex/sessions/2026/01/02/{CODEX_ONE}"));
    let codex_zst = row(&rows, home, &codex2);
    let archived = row(&rows, home, &format!(".codex/archived_sessions/{CODEX_ARCHIVED}"));
    for r in [codex_one, codex_zst, archived] {
        assert_eq!(r["agent"], "Codex", "{r:#}");
        assert_eq!(r["format"], "codex-rollout", "{r:#}");
        assert!(r["parent"].is_null());
    }
    assert!(codex_one["archive"].is_null() && codex_zst["archive"].is_null());
    assert_eq!(archived["archive"], "archived");

    // These read what the Claude Code and Codex mappers (src/load/claude_code, src/load/codex)
    // fill in: `mapped.cwd` and the mapped messages. With a stub mapper they fail.
    for r in [parent, sub] {
        assert_eq!(r["cwd"], "/tmp", "Claude Code cwd from the lines (mapper): {r:#}");
    }
    assert_eq!(other["cwd"], "/tmp", "mapper: {other:#}");
    assert!(other["messages"].as_u64() > Some(0), "Claude Code mapper: {other:#}");
    for r in [codex_one, codex_zst, archived] {
        assert_eq!(r["cwd"], "/workspace/synthetic-project", "Codex cwd (mapper): {r:#}");
    }
    assert!(codex_one["messages"].as_u64() > Some(0), "Codex mapper: {codex_one:#}");

    // The same folders given as a path list the same files (in path order).
    let out = run(home, &[], &["sessions", home.to_str().unwrap(), "--format", "json"]);
    let by_path: Vec<Value> = serde_json::from_slice::<Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .to_vec();
    let mut by_path = rel_paths(&by_path, home);
    by_path.sort();
    assert_eq!(by_path, expected, "sessions PATH");
}

#[test]
fn root_variables_win_over_home() {
    let Some(samples) = common::shared_samples() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    populate(&samples, home);
    let elsewhere = tempfile::tempdir().unwrap();
    let claude = elsewhere.path().join("claude");
    let codex = elsewhere.path().join("codex");
    copy(
        &samples.join("claude-code/claude-code-log/session_b.jsonl"),
        &claude.join("projects/-srv-x/11111111-2222-4333-8444-555555555555.jsonl"),
    );
    copy(
        &samples
            .join("codex/claude-code-log/sessions/2026/01/02")
            .join(CODEX_ONE),
        &codex.join("sessions/2026/02/01").join(CODEX_ONE),
    );
    let empty = PathBuf::new();
    let rows = rows(
        home,
        &[
            ("CLAUDE_CONFIG_DIR", &claude),
            ("CODEX_HOME", &codex),
            // Empty counts as unset: OpenClaw still comes from HOME.
            ("OPENCLAW_STATE_DIR", &empty),
        ],
    );
    let paths: Vec<PathBuf> = rows
        .iter()
        .map(|r| PathBuf::from(r["path"].as_str().unwrap()))
        .collect();
    let claude_rows: Vec<&PathBuf> = paths.iter().filter(|p| p.starts_with(&claude)).collect();
    let codex_rows: Vec<&PathBuf> = paths.iter().filter(|p| p.starts_with(&codex)).collect();
    assert_eq!(claude_rows.len(), 1, "{paths:#?}");
    assert_eq!(codex_rows.len(), 1, "{paths:#?}");
    assert!(
        !paths
            .iter()
            .any(|p| p.starts_with(home.join(".claude")) || p.starts_with(home.join(".codex"))),
        "HOME's .claude and .codex are not searched: {paths:#?}"
    );
    assert_eq!(
        paths.iter().filter(|p| p.starts_with(home.join(".openclaw"))).count(),
        2,
        "{paths:#?}"
    );
    for r in &rows {
        let p = PathBuf::from(r["path"].as_str().unwrap());
        let agent = if p.starts_with(&claude) {
            "Claude Code"
        } else if p.starts_with(&codex) {
            "Codex"
        } else {
            "OpenClaw"
        };
        assert_eq!(r["agent"], agent, "{r:#}");
    }
}

#[test]
fn table_has_agent_column_and_escapes_a_hostile_cwd() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let line = |uuid: &str, parent: &str, ty: &str, content: &str, ts: &str| {
        format!(
            "{{\"type\":\"{ty}\",\"uuid\":\"{uuid}\",\"parentUuid\":{parent},\"sessionId\":\"s1\",\
             \"timestamp\":\"{ts}\",\"cwd\":\"/home/u/\\u001b]0;x\\u0007app\",\"isSidechain\":false,\
             \"message\":{{\"role\":\"{ty}\",\"content\":\"{content}\"}}}}\n"
        )
    };
    let text = line("u1", "null", "user", "hello", "2026-05-01T10:00:00Z")
        + &line("a1", "\"u1\"", "assistant", "hi", "2026-05-01T10:00:01Z");
    write(
        &home.join(".claude/projects/-home-u-app/5e6f7a8b-1c2d-4e3f-9a0b-1c2d3e4f5a6b.jsonl"),
        text.as_bytes(),
    );
    let out = run(home, &[], &["sessions"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut lines = stdout.lines();
    let header = lines.next().unwrap();
    for column in ["SESSION", "AGENT", "UPDATED", "CWD", "PATH"] {
        assert!(header.contains(column), "{header}");
    }
    let row = lines.next().unwrap();
    assert!(row.contains("Claude Code"), "{row}");
    assert!(
        !stdout.chars().any(|c| c.is_control() && c != '\n'),
        "raw control characters: {stdout:?}"
    );
    assert!(
        !String::from_utf8_lossy(&out.stderr)
            .chars()
            .any(|c| c.is_control() && c != '\n'),
        "{:?}",
        out.stderr
    );
    // The cwd is what the Claude Code mapper reads (`mapped.cwd`), shown escaped.
    assert!(row.contains("/home/u/\\e]0;x\\x07app"), "{row}");
}

#[test]
fn nothing_found_names_every_root_and_variable() {
    let home = tempfile::tempdir().unwrap();
    let out = run(home.path(), &[], &["sessions"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.stdout.is_empty(), "no empty table");
    for (folder, var) in [
        (".openclaw", "$OPENCLAW_STATE_DIR"),
        (".claude", "$CLAUDE_CONFIG_DIR"),
        (".codex", "$CODEX_HOME"),
    ] {
        let root = home.path().join(folder);
        assert!(stderr.contains(&*root.to_string_lossy()), "{folder}: {stderr}");
        assert!(stderr.contains(var), "{var}: {stderr}");
    }
    let json = run(home.path(), &[], &["sessions", "--format", "json"]);
    assert_eq!(String::from_utf8(json.stdout).unwrap().trim(), "[]");
}
