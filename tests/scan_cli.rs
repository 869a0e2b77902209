//! `replaylens scan`: every session of a folder, one row each, in JSON, CSV and text; a
//! corrupt file is a row with its error; several targets give one column group each.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use replaylens::model::json::Value;

fn scan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_replaylens"))
        .arg("scan")
        .args(args)
        .output()
        .expect("run replaylens scan")
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The bundled JSONL samples, each copied `copies` times into `dir` (with distinct names),
/// plus one corrupt file.
fn fleet(dir: &Path, copies: usize) -> usize {
    let samples: Vec<PathBuf> = std::fs::read_dir(common::bundled_samples())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    let mut n = 0;
    for i in 0..copies {
        let folder = dir.join(format!("agents/a{:02}/sessions", i % 10));
        std::fs::create_dir_all(&folder).unwrap();
        for s in &samples {
            let name = format!("{}-{i:04}.jsonl", s.file_stem().unwrap().to_string_lossy());
            std::fs::copy(s, folder.join(name)).unwrap();
            n += 1;
        }
    }
    std::fs::write(dir.join("agents/a00/sessions/corrupt.jsonl"), b"\x00 not json\n").unwrap();
    n + 1
}

#[test]
fn a_thousand_sessions_are_each_one_json_row_and_a_corrupt_file_is_a_row_with_its_error() {
    let dir = tempfile::tempdir().unwrap();
    let files = fleet(dir.path(), 145);
    assert!(files > 1000, "{files}");
    let out = scan(&["--format", "json", &dir.path().display().to_string()]);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rows = doc["sessions"].as_array().unwrap();
    assert_eq!(rows.len(), files);
    let errors: Vec<&Value> = rows.iter().filter(|r| r["error"].is_string()).collect();
    assert_eq!(errors.len(), 1, "one unreadable file");
    assert!(errors[0]["path"].as_str().unwrap().ends_with("corrupt.jsonl"));
    for r in rows.iter().filter(|r| r["error"].is_null()) {
        let t = &r["targets"][0];
        assert!(t["rewritesByRule"].is_object(), "{r}");
        assert!(t["findingsByConstraint"].is_object(), "{r}");
        assert!(r["messages"].as_u64() > Some(0), "{r}");
        let by_rule: u64 = t["rewritesByRule"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(by_rule, t["rewrites"].as_u64().unwrap(), "{r}");
    }
    let mistral: Vec<&Value> = rows
        .iter()
        .filter(|r| r["path"].as_str().unwrap().contains("mistral-ids-and-images"))
        .collect();
    assert_eq!(mistral.len(), 145);
    for r in mistral {
        assert_eq!(r["targets"][0]["verdict"], "would-be-rejected", "{r}");
        assert_eq!(r["targets"][0]["findingsByConstraint"]["mistral-user-after-tool"], 2);
    }
    let summary = &doc["summary"];
    assert_eq!(summary["sessions"].as_u64(), Some(files as u64));
    assert_eq!(summary["errors"], 1);
    assert_eq!(summary["targets"][0]["wouldBeRejected"], 145);
    assert_eq!(summary["worst"][0]["replayFindings"], 2);
}

#[test]
fn several_targets_give_one_csv_column_group_each() {
    let dir = tempfile::tempdir().unwrap();
    let files = fleet(dir.path(), 1);
    let out = scan(&[
        "--format",
        "csv",
        "--target",
        "mistral/mistral-conversations/mistral-large-latest",
        "--target",
        "anthropic/anthropic-messages/claude-sonnet-4-6",
        &dir.path().display().to_string(),
    ]);
    let text = stdout(&out);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let head: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    for col in [
        "path",
        "agent",
        "messages",
        "error",
        "t1_target",
        "t1_rewrites_by_rule",
        "t2_verdict",
        "t2_replay_findings",
    ] {
        assert!(head.contains(&col.to_owned()), "{col}: {head:?}");
    }
    let at = |name: &str| head.iter().position(|h| h == name).unwrap();
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), files);
    let loaded: Vec<&csv::StringRecord> = records.iter().filter(|r| r[at("error")].is_empty()).collect();
    assert_eq!(loaded.len(), files - 1);
    for r in &loaded {
        assert_eq!(
            &r[at("t1_target")],
            "mistral/mistral-conversations/mistral-large-latest"
        );
        assert_eq!(&r[at("t2_target")], "anthropic/anthropic-messages/claude-sonnet-4-6");
        assert_eq!(&r[at("t1_family")], "mistral");
        assert_eq!(&r[at("t2_family")], "anthropic");
    }
    let tool_repair = loaded
        .iter()
        .find(|r| r[at("path")].contains("anthropic-tool-repair"))
        .unwrap();
    assert!(
        tool_repair[at("t1_rewrites_by_rule")].contains("tool-call-id="),
        "{tool_repair:?}"
    );
}

#[test]
fn text_lists_rows_then_totals_and_the_worst_sessions() {
    let Some(root) = common::shared_samples() else { return };
    let out = scan(&[
        &common::bundled_samples().display().to_string(),
        &root.join("claude-code").display().to_string(),
        &root.join("codex").display().to_string(),
    ]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "T1 = each session's own target");
    assert!(lines[1].starts_with("SESSION") && lines[1].contains("VERDICT") && lines[1].ends_with("PATH"));
    assert!(text.contains("Claude Code") && text.contains("Codex") && text.contains("OpenClaw"));
    let scanned = lines.iter().find(|l| l.starts_with("scanned ")).unwrap();
    assert!(
        scanned.contains("sessions (0 unreadable, 7 with load problems)"),
        "{scanned}"
    );
    let by_rule = lines.iter().find(|l| l.starts_with("  rewrites by rule: ")).unwrap();
    assert!(by_rule.contains("tool-call-id "), "{by_rule}");
    assert!(
        text.contains("  replay findings by constraint: mistral-user-after-tool 2"),
        "{text}"
    );
    let worst = lines.iter().position(|l| *l == "worst sessions:").unwrap();
    assert!(lines[worst + 1].contains("mistral-ids-and-images.jsonl"), "{text}");
    assert!(!text.contains('\u{1b}'));
}

#[test]
fn a_missing_path_is_one_sentence_and_exit_2() {
    let out = scan(&["/no/such/folder"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/no/such/folder") && err.lines().count() == 1, "{err}");
}

#[test]
fn csv_cells_that_look_like_formulas_stay_text() {
    let dir = tempfile::tempdir().unwrap();
    let sample = std::fs::read_to_string(common::bundled_samples().join("anthropic-tool-repair.jsonl")).unwrap();
    let (_, rest) = sample.split_once('\n').unwrap();
    for (name, id) in [
        ("eq.jsonl", "=HYPERLINK(\"https://evil.example\",\"open\")"),
        ("plus.jsonl", "+1+cmd|' /C calc'!A0"),
        ("minus.jsonl", "-2+3"),
        ("at.jsonl", "@SUM(A1:A9)"),
        ("tab.jsonl", "\t=1"),
        ("plain.jsonl", "plain-id"),
        ("semi.jsonl", ";=2+5"),
        ("fullwidth.jsonl", "\u{ff1d}3+3"),
        ("space.jsonl", " =4"),
        ("nbsp.jsonl", "\u{a0}=5"),
        ("lf.jsonl", "\n=6"),
    ] {
        let header = format!(
            r#"{{"type":"session","version":3,"id":{},"timestamp":"2026-03-09T08:41:07.000Z","cwd":"/w"}}"#,
            serde_json::to_string(id).unwrap()
        );
        std::fs::write(dir.path().join(name), format!("{header}\n{rest}")).unwrap();
    }
    let out = scan(&["--format", "csv", &dir.path().display().to_string()]);
    let text = stdout(&out);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let head: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    let at = |name: &str| head.iter().position(|h| h == name).unwrap();
    let mut ids: Vec<String> = reader.records().map(|r| r.unwrap()[at("id")].to_owned()).collect();
    ids.sort();
    assert_eq!(
        ids,
        [
            "'\t=1",
            "'\n=6",
            "' =4",
            "'+1+cmd|' /C calc'!A0",
            "'-2+3",
            "'=HYPERLINK(\"https://evil.example\",\"open\")",
            "'@SUM(A1:A9)",
            "'\u{a0}=5",
            "'\u{ff1d}3+3",
            ";=2+5",
            "plain-id"
        ],
        "{text}"
    );
    // Quoted, so a locale whose list separator is `;` does not split it into a formula.
    assert!(text.contains("\";=2+5\""), "{text}");
}

/// Run replaylens with `args`, killed after 30 s (a FIFO once made it wait forever).
fn run_with_deadline(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_replaylens"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run replaylens");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("replaylens {args:?} still running after 30 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_fifo_is_reported_never_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        common::bundled_samples().join("anthropic-tool-repair.jsonl"),
        dir.path().join("real.jsonl"),
    )
    .unwrap();
    let fifo = dir.path().join("pipe.jsonl");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let folder = dir.path().display().to_string();
    let named = fifo.display().to_string();

    // In a folder: a row naming the FIFO, the real session beside it.
    for command in ["scan", "sessions"] {
        let out = run_with_deadline(&[command, "--format", "json", &folder]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("pipe.jsonl") && text.contains("a FIFO"),
            "{command}: {text}"
        );
        assert!(text.contains("real.jsonl"), "{command}: {text}");
    }
    // Named directly: one sentence and a failure status, at once.
    for command in ["scan", "sessions"] {
        let out = run_with_deadline(&[command, &named]);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(all.contains("a FIFO"), "{command}: {all}");
    }
}

#[test]
fn odd_file_names_and_unreadable_folders_are_rows_not_gaps() {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let sample = common::bundled_samples().join("anthropic-tool-repair.jsonl");
    let odd = dir.path().join(std::ffi::OsStr::from_bytes(b"caf\xe9-session.jsonl"));
    std::fs::copy(&sample, &odd).unwrap();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::copy(&sample, locked.join("inside.jsonl")).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    // Root reads any folder; the refusal can only be seen as another user.
    let enforced = std::fs::read_dir(&locked).is_err();
    let folder = dir.path().display().to_string();
    for command in ["scan", "sessions"] {
        let out = run_with_deadline(&[command, "--format", "json", &folder]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            text.contains("-session.jsonl"),
            "{command}: the non-UTF-8 name is listed: {text}"
        );
        if enforced {
            assert!(
                text.contains("locked") && text.to_lowercase().contains("permission denied"),
                "{command}: {text}"
            );
        }
    }
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The rows of `scan --format ndjson`, each as its JSON text, sorted.
fn ndjson_rows(args: &[&str]) -> Vec<String> {
    let out = scan(&[args, &["--format", "ndjson"][..]].concat());
    let text = stdout(&out);
    let mut rows: Vec<String> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("one JSON object per line");
            v.to_string()
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn shards_are_disjoint_and_their_union_is_the_whole_scan() {
    let dir = tempfile::tempdir().unwrap();
    let n = fleet(dir.path(), 30);
    let root = dir.path().to_str().unwrap();
    let whole = ndjson_rows(&[root]);
    assert_eq!(whole.len(), n, "every session and the corrupt file are a row");
    let mut union = Vec::new();
    let mut sizes = Vec::new();
    for k in 1..=4 {
        let shard = format!("{k}/4");
        let part = ndjson_rows(&[root, "--shard", &shard]);
        sizes.push(part.len());
        union.extend(part);
    }
    assert!(sizes.iter().all(|&s| s > 0), "every shard gets work: {sizes:?}");
    union.sort();
    let before = union.len();
    union.dedup();
    assert_eq!(before, union.len(), "no row in two shards");
    assert_eq!(union, whole, "the shards together are the whole scan, row for row");
    let out = scan(&[root, "--shard", "5/4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a shard"));
}

#[test]
fn files_from_lists_the_sources_and_ndjson_rows_stream_with_totals_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    fleet(dir.path(), 2);
    let mut listed: Vec<String> = Vec::new();
    for entry in walk(dir.path()) {
        listed.push(entry.display().to_string());
    }
    listed.sort();
    let list = dir.path().join("list.txt");
    std::fs::write(&list, format!("# sessions to scan\n\n{}\n", listed.join("\n"))).unwrap();
    let from_list = ndjson_rows(&["--files-from", list.to_str().unwrap()]);
    let from_folder = ndjson_rows(&[dir.path().to_str().unwrap()]);
    assert_eq!(from_list.len(), listed.len());
    assert_eq!(from_list, from_folder);
    let out = scan(&["--files-from", list.to_str().unwrap(), "--format", "ndjson"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("scanned {} sessions", listed.len())), "{err}");
}

/// Every file under `dir` (the fleet's session files and the corrupt one).
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
