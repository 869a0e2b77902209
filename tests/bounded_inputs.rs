//! Bounded inputs (issue 45, findings 6, 7 and 10): a database's side files, glob patterns
//! with symlink loops, `--files-from` lists and files past the document limit each end in a
//! sentence or an error row, never a hang, a runaway or a scan of this machine's sessions.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Run the binary; a run still going after a minute is killed and fails the test (a FIFO
/// used to block these commands forever).
fn run(args: &[&str], cwd: &Path, home: &Path) -> Output {
    let mut child = Command::new(common::bin())
        .args(args)
        .current_dir(cwd)
        .env("HOME", home)
        .env_remove("OPENCLAW_STATE_DIR")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("`replaylens {}` did not finish in a minute", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn database(dir: &Path) -> std::path::PathBuf {
    let db = dir.join("db.sqlite");
    std::fs::copy(common::bundled_samples().join("openclaw-agent.sqlite"), &db).unwrap();
    db
}

#[test]
fn a_fifo_journal_blocks_no_command_and_no_side_file_is_copied_past_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path();
    database(dir.path());
    let journal = dir.path().join("db.sqlite-journal");
    let fifo = std::ffi::CString::new(journal.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let sentence = "db.sqlite-journal is a FIFO, not the regular file SQLite keeps beside a database";
    for args in [
        &["sessions", "db.sqlite"][..],
        &["show", "db.sqlite"],
        &["export", "db.sqlite", "--format", "json"],
        &["releases", "db.sqlite"],
    ] {
        let out = run(args, dir.path(), home);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(sentence), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let out = run(&["scan", "db.sqlite", "--format", "csv"], dir.path(), home);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains(sentence), "{}", text(&out.stdout));

    // A journal linked to /dev/zero, a sparse 4 GiB log: refused, nothing copied.
    std::fs::remove_file(&journal).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &journal).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(common::bin())
        .args(["sessions", "db.sqlite"])
        .current_dir(dir.path())
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("db.sqlite-journal is a character device"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_file(&journal).unwrap();
    let wal = std::fs::File::create(dir.path().join("db.sqlite-wal")).unwrap();
    wal.set_len(4 << 30).unwrap();
    let out = Command::new(common::bin())
        .args(["sessions", "db.sqlite"])
        .current_dir(dir.path())
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("db.sqlite-wal is 4,294,967,296 bytes, more than the 1,073,741,824 bytes"),
        "{err}"
    );
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0, "nothing copied");
}

#[test]
fn a_glob_through_symlink_loops_names_each_session_once() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("d/p");
    std::fs::create_dir_all(&p).unwrap();
    std::fs::copy(
        common::bundled_samples().join("anthropic-tool-repair.jsonl"),
        p.join("s.jsonl"),
    )
    .unwrap();
    std::os::unix::fs::symlink(".", p.join("self")).unwrap();
    std::os::unix::fs::symlink(".", p.join("self2")).unwrap();
    std::os::unix::fs::symlink("s.jsonl", p.join("same.jsonl")).unwrap();
    let out = run(&["scan", "d/**/*.jsonl", "--format", "csv"], dir.path(), dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rows: Vec<String> = text(&out.stdout).lines().skip(1).map(str::to_owned).collect();
    assert_eq!(rows.len(), 1, "{rows:?}");
    // The cap is a flag, refused in one sentence.
    let out = run(&["scan", "d/**/*.jsonl", "--max-files", "0"], dir.path(), dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("matches more than 0 files"));
}

#[test]
fn files_from_is_read_line_by_line_and_never_falls_back_to_this_machines_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    // This "machine" has sessions of its own, which a worker given an empty list must not scan.
    let own = home.join(".openclaw/agents/main/sessions");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::copy(
        common::bundled_samples().join("anthropic-tool-repair.jsonl"),
        own.join("mine.jsonl"),
    )
    .unwrap();
    let out = run(&["scan", "--files-from", "/dev/zero"], dir.path(), &home);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 1 is longer than 64 KiB"),
        "{}",
        text(&out.stderr)
    );

    std::fs::write(dir.path().join("empty.txt"), "# nothing today\n\n").unwrap();
    let out = run(
        &["scan", "--files-from", "empty.txt", "--format", "csv"],
        dir.path(),
        &home,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!text(&out.stdout).contains("mine.jsonl"));
    assert!(text(&out.stderr).contains("lists no paths"), "{}", text(&out.stderr));

    std::fs::copy(
        common::bundled_samples().join("anthropic-tool-repair.jsonl"),
        dir.path().join("s.jsonl"),
    )
    .unwrap();
    std::fs::write(dir.path().join("list.txt"), "gone.jsonl\ns.jsonl\n").unwrap();
    let out = run(
        &["scan", "--files-from", "list.txt", "--format", "csv"],
        dir.path(),
        &home,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let rows: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(
        rows[0].starts_with("gone.jsonl,") && rows[0].contains("No such file"),
        "{}",
        rows[0]
    );
    assert!(rows[1].starts_with("s.jsonl,OpenClaw"), "{}", rows[1]);
}

#[test]
fn plain_jsonl_past_the_document_limit_is_refused_by_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let sample = std::fs::read(common::bundled_samples().join("anthropic-tool-repair.jsonl")).unwrap();
    let big = dir.path().join("big.jsonl");
    // 1 MiB and a bit of valid lines: over a 1 MiB document limit.
    let mut body = Vec::new();
    while body.len() <= 1 << 20 {
        body.extend_from_slice(&sample);
    }
    std::fs::write(&big, &body).unwrap();
    let out = run(
        &["show", "big.jsonl", "--max-decompressed-mb", "1"],
        dir.path(),
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("big.jsonl holds more than 1 MiB of session data"),
        "{}",
        text(&out.stderr)
    );
    assert!(run(&["show", "big.jsonl"], dir.path(), dir.path()).status.success());
}
