//! Every writer goes through `replaylens::write` (issue 45, data loss 1, 3, 4, 5): an output
//! never replaces the session, a companion or an alias of one, never follows a planted link,
//! and a full disk (injected: `REPLAYLENS_FAULT_WRITE_AFTER`) leaves nothing truncated under a
//! final name.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sample(name: &str) -> PathBuf {
    common::bundled_samples().join(name)
}

fn run(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(common::bin());
    c.current_dir(dir).args(args).env("NO_COLOR", "1");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A database opened through a link: its real WAL, a missing `-journal` and `-shm` are refused.
#[test]
fn an_export_never_replaces_a_database_companion_by_any_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    std::fs::create_dir(&db).unwrap();
    std::fs::copy(sample("openclaw-agent.sqlite"), db.join("real.sqlite")).unwrap();
    std::fs::write(db.join("real.sqlite-wal"), "committed transactions").unwrap();
    std::os::unix::fs::symlink("real.sqlite", db.join("link.sqlite")).unwrap();
    for out in [
        "db/real.sqlite-wal",
        "db/real.sqlite-journal",
        "db/real.sqlite-shm",
        "db/link.sqlite-journal",
    ] {
        let o = run(
            dir.path(),
            &["export", "db/link.sqlite", "--format", "md", "-o", out],
            &[],
        );
        assert_eq!(o.status.code(), Some(2), "{out}: {}", stderr(&o));
        assert!(stderr(&o).contains("refusing to write"), "{out}: {}", stderr(&o));
    }
    assert_eq!(
        std::fs::read_to_string(db.join("real.sqlite-wal")).unwrap(),
        "committed transactions"
    );
    assert_eq!(names(&db), ["link.sqlite", "real.sqlite", "real.sqlite-wal"]);
}

#[test]
fn export_to_a_journal_name_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(sample("openclaw-agent.sqlite"), dir.path().join("db.sqlite")).unwrap();
    let o = run(
        dir.path(),
        &["export", "db.sqlite", "--format", "json", "-o", "db.sqlite-journal"],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(names(dir.path()), ["db.sqlite"]);
}

/// A full disk during `export -o`, `--format session` and `--with-session` leaves the earlier
/// file as it was and no temporary.
#[test]
fn a_full_disk_leaves_no_truncated_export() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(sample("anthropic-tool-repair.jsonl"), dir.path().join("s.jsonl")).unwrap();
    std::fs::write(dir.path().join("r.md"), "earlier report").unwrap();
    std::fs::write(dir.path().join("copy.jsonl"), "earlier copy").unwrap();
    let full = [("REPLAYLENS_FAULT_WRITE_AFTER", "100")];
    let o = run(dir.path(), &["export", "s.jsonl", "-o", "r.md"], &full);
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("No space left"), "{}", stderr(&o));
    let o = run(
        dir.path(),
        &["export", "s.jsonl", "--format", "session", "-o", "copy.jsonl"],
        &full,
    );
    assert_ne!(o.status.code(), Some(0));
    let o = run(
        dir.path(),
        &["export", "s.jsonl", "-o", "new.md", "--with-session", "shared.jsonl"],
        &full,
    );
    assert_ne!(o.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("r.md")).unwrap(),
        "earlier report"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("copy.jsonl")).unwrap(),
        "earlier copy"
    );
    assert_eq!(names(dir.path()), ["copy.jsonl", "r.md", "s.jsonl"]);
    // Without the fault the same export lands whole.
    let o = run(dir.path(), &["export", "s.jsonl", "-o", "r.md"], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(dir.path().join("r.md")).unwrap().len() > 100);
}

/// `reduce case.reduce.json -o case` would write its side file over the session; a link planted
/// at the side file's name is replaced, its target untouched; a full disk leaves neither file.
#[test]
fn reduce_never_writes_its_side_file_over_the_session_or_through_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(sample("anthropic-tool-repair.jsonl")).unwrap();
    std::fs::write(dir.path().join("case.reduce.json"), &text).unwrap();
    let o = run(
        dir.path(),
        &["reduce", "case.reduce.json", "--keep", "verdict", "-o", "case"],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.path().join("case.reduce.json")).unwrap(), text);
    assert_eq!(names(dir.path()), ["case.reduce.json"]);

    std::fs::write(dir.path().join("s.jsonl"), &text).unwrap();
    std::fs::write(dir.path().join("victim"), "precious").unwrap();
    std::os::unix::fs::symlink("victim", dir.path().join("small.jsonl.reduce.json")).unwrap();
    let keep = [
        "reduce",
        "s.jsonl",
        "--keep",
        "tool-result-pairing",
        "-o",
        "small.jsonl",
    ];
    let o = run(dir.path(), &keep, &[("REPLAYLENS_FAULT_WRITE_AFTER", "10")]);
    assert_ne!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!dir.path().join("small.jsonl").exists());
    let o = run(dir.path(), &keep, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(dir.path().join("victim")).unwrap(), "precious");
    assert!(
        std::fs::symlink_metadata(dir.path().join("small.jsonl.reduce.json"))
            .unwrap()
            .is_file()
    );
    assert!(
        stderr(&o).contains("reducing for at most 300 s, the default"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(dir.path().join("s.jsonl")).unwrap(), text);
}

fn parquet_rows(dir: &Path) -> usize {
    let mut rows = 0;
    for name in names(dir).iter().filter(|n| n.ends_with(".parquet")) {
        let file = std::fs::File::open(dir.join(name)).unwrap();
        let reader = parquet::file::reader::SerializedFileReader::new(file).unwrap();
        use parquet::file::reader::FileReader;
        rows += reader.metadata().file_metadata().num_rows() as usize;
    }
    rows
}

/// A folder holding an earlier scan's files is refused unless `--replace` is given (then
/// `DIR/*.parquet` reads back this scan's rows alone); a planted link or FIFO is never written
/// through; the files written are named.
#[test]
fn the_parquet_sink_refuses_earlier_files_and_never_writes_through_a_plant() {
    let dir = tempfile::tempdir().unwrap();
    let sessions = common::bundled_samples();
    let out = dir.path().join("out");
    let scan = |extra: &[&str]| {
        let mut args = vec!["scan", sessions.to_str().unwrap(), "--format", "parquet", "-o", "out"];
        args.extend_from_slice(extra);
        run(dir.path(), &args, &[])
    };
    let first = scan(&[]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(stderr(&first).contains("out/scan-00000.parquet"), "{}", stderr(&first));
    let rows = parquet_rows(&out);
    assert!(rows > 0);
    // An earlier, larger run's second file stays beside the first.
    std::fs::copy(out.join("scan-00000.parquet"), out.join("scan-00001.parquet")).unwrap();
    let again = scan(&[]);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    assert!(stderr(&again).contains("--replace"), "{}", stderr(&again));
    assert_eq!(parquet_rows(&out), 2 * rows);
    let replaced = scan(&["--replace"]);
    assert_eq!(replaced.status.code(), Some(0), "{}", stderr(&replaced));
    assert_eq!(parquet_rows(&out), rows);

    // Plants: a link where the temporary used to go and at the final name, and a FIFO.
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    std::fs::remove_file(out.join("scan-00000.parquet")).unwrap();
    std::os::unix::fs::symlink(&victim, out.join("scan-00000.parquet.partial")).unwrap();
    std::os::unix::fs::symlink(&victim, out.join("scan-00000.parquet")).unwrap();
    let o = scan(&["--replace"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(parquet_rows(&out), rows);
    let c = std::ffi::CString::new(out.join("scan-00000.parquet").to_str().unwrap()).unwrap();
    std::fs::remove_file(out.join("scan-00000.parquet")).unwrap();
    // SAFETY: a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let o = scan(&["--replace"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(parquet_rows(&out), rows);
}

/// `reduce --help` names a finding id as an example of `--keep`: that id is accepted; a `.zst`
/// session reduces and exports as a session (no "stream did not contain valid UTF-8").
#[test]
fn reduce_help_example_is_accepted_and_zstd_sessions_are_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let help = run(dir.path(), &["reduce", "--help"], &[]);
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let example = help
        .split("(e.g. ")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .unwrap()
        .to_owned();
    let text = std::fs::read(sample("anthropic-tool-repair.jsonl")).unwrap();
    std::fs::write(dir.path().join("s.jsonl.zst"), zstd::encode_all(&text[..], 3).unwrap()).unwrap();
    let o = run(
        dir.path(),
        &["reduce", "s.jsonl.zst", "--keep", &example, "-o", "a.jsonl"],
        &[],
    );
    assert!(!stderr(&o).contains("is neither"), "{example}: {}", stderr(&o));
    assert!(!stderr(&o).contains("UTF-8"), "{}", stderr(&o));
    let o = run(
        dir.path(),
        &["export", "s.jsonl.zst", "--format", "session", "-o", "copy.jsonl"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(dir.path().join("copy.jsonl"))
            .unwrap()
            .lines()
            .count()
            > 3
    );
    let o = run(
        dir.path(),
        &["export", "s.jsonl.zst", "--format", "session", "-o", "copy.jsonl"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
