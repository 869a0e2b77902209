//! OpenClaw SQLite databases with damaged rows or a hot rollback journal: the session still
//! loads, each bad row is reported by its seq (or rowid), and nothing on disk is written.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use replaylens::load::json_parse::parse_value;
use replaylens::load::{LoadOptions, load_path};
use replaylens::model::{Diagnostic, Severity};
use rusqlite::{Connection, params};

/// A trimmed import whose columns have no type affinity, so any value can be stored in them.
const LOOSE_SCHEMA: &str = "
CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq, event_json, event_zstd, event_utf8_bytes, created_at);
";

const HEADER: &str = r#"{"type":"session","version":3,"id":"w","timestamp":"2026-09-01T08:00:00.000Z","cwd":"/w"}"#;

fn event(id: &str, parent: Option<&str>, role: &str, text: &str) -> String {
    replaylens::json!({
        "type": "message", "id": id, "parentId": parent, "timestamp": "2026-09-01T08:00:01.000Z",
        "message": {"role": role, "content": [{"type": "text", "text": text}], "timestamp": 1788249601000_i64}
    })
    .to_string()
}

/// One row of session `w`; `seq`, `json` and `zstd` are SQL expressions.
fn row(conn: &Connection, seq: &str, json: &str, zstd: &str) -> i64 {
    conn.execute(
        &format!(
            "INSERT INTO transcript_events (session_id, seq, event_json, event_zstd, created_at) VALUES ('w', {seq}, {json}, {zstd}, 0)"
        ),
        [],
    )
    .unwrap();
    conn.last_insert_rowid()
}

fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02X}")).collect()
}

/// A database with one good row and one of each kind of bad row, inserted out of order;
/// the rowid of the row whose seq is `'abc'`.
fn build_bad_rows(dir: &Path) -> (PathBuf, i64) {
    let path = dir.join("openclaw-agent.sqlite");
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(LOOSE_SCHEMA).unwrap();
    // Seq stored as the text '4': read as seq 4, between seq 3 and the rows after it.
    row(
        &conn,
        "'4'",
        &quoted(&event("e4", Some("e3"), "assistant", "four")),
        "NULL",
    );
    row(&conn, "0", &quoted(HEADER), "NULL");
    row(&conn, "1", &quoted(&event("e1", None, "user", "one")), "NULL");
    // Invalid UTF-8 stored as TEXT: read with U+FFFD.
    let mut lossy = event("e2", Some("e1"), "assistant", "caf@").into_bytes();
    lossy.iter_mut().filter(|b| **b == b'@').for_each(|b| *b = 0xE9);
    let lossy = hex(&lossy);
    row(&conn, "2", &format!("CAST(X'{lossy}' AS TEXT)"), "NULL");
    // Valid UTF-8 JSON stored as a BLOB: read, with a note.
    let blob = hex(event("e3", Some("e2"), "user", "three").as_bytes());
    row(&conn, "3", &format!("X'{blob}'"), "NULL");
    // Seq not a number: read after the numbered rows.
    let abc = row(
        &conn,
        "'abc'",
        &quoted(&event("e5", Some("e4"), "user", "five")),
        "NULL",
    );
    // Rows that cannot be read at all.
    row(&conn, "6", "42", "NULL");
    row(&conn, "7", "1.5", "NULL");
    row(&conn, "8", "NULL", "'not zstd'");
    row(&conn, "9", "X'FFFE7B7D'", "NULL");
    (path, abc)
}

fn find<'a>(diagnostics: &'a [Diagnostic], at: &str) -> &'a Diagnostic {
    diagnostics
        .iter()
        .find(|d| d.location.map(|l| l.to_string()).as_deref() == Some(at))
        .unwrap_or_else(|| panic!("no diagnostic at {at}: {diagnostics:#?}"))
}

#[test]
fn each_bad_row_is_reported_by_seq_or_rowid_and_the_session_still_loads() {
    let dir = tempfile::tempdir().unwrap();
    let (db, abc) = build_bad_rows(dir.path());
    let s = load_path(&db, &LoadOptions::default()).unwrap();
    let t = s.transcript();
    let texts: Vec<String> = t.messages.iter().map(|m| m.message.text()).collect();
    assert_eq!(texts, ["one", "caf\u{FFFD}", "three", "four", "five"]);
    let places: Vec<String> = t
        .messages
        .iter()
        .map(|m| m.location.map(|l| l.to_string()).unwrap_or_default())
        .collect();
    let rowid = format!("rowid {abc}");
    assert_eq!(places, ["seq 1", "seq 2", "seq 3", "seq 4", rowid.as_str()]);

    let d = &s.diagnostics;
    let expect = [
        ("seq 2", Severity::Warning, "event_json is not valid UTF-8"),
        ("seq 3", Severity::Note, "event_json is a BLOB, not text"),
        ("seq 4", Severity::Note, "seq is stored as text"),
        (rowid.as_str(), Severity::Warning, "seq is text ('abc'), not an integer"),
        ("seq 6", Severity::Skipped, "event_json is an integer (42), not text"),
        (
            "seq 7",
            Severity::Skipped,
            "event_json is a real number (1.5), not text",
        ),
        ("seq 8", Severity::Skipped, "event_zstd is text, not a BLOB"),
        (
            "seq 9",
            Severity::Skipped,
            "event_json is a BLOB that is not valid UTF-8",
        ),
    ];
    for (at, severity, words) in expect {
        let found = find(d, at);
        assert_eq!(found.severity, severity, "{found}");
        assert!(found.message.contains(words), "{found}");
        assert!(found.message.contains("session w"), "{found}");
        assert_eq!(found.file, db);
    }
    assert_eq!(d.len(), expect.len(), "{d:#?}");
}

/// `show --format json` prints the readable rows on stdout and each problem on stderr.
#[test]
fn show_prints_the_readable_rows_and_the_problems() {
    let dir = tempfile::tempdir().unwrap();
    let (db, abc) = build_bad_rows(dir.path());
    let out = Command::new(common::bin())
        .args(["show", "--format", "json", "--session", "w"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stored = parse_value(&out.stdout).unwrap();
    let ids: Vec<&str> = stored["stored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.get("entryId").and_then(|v| v.as_str()).unwrap())
        .collect();
    assert_eq!(ids, ["e1", "e2", "e3", "e4", "e5"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for line in [
        format!(
            "{}: seq 6: skipped: event_json is an integer (42), not text",
            db.display()
        ),
        format!("{}: rowid {abc}: warning: seq is text ('abc')", db.display()),
    ] {
        assert!(stderr.contains(&line), "{line:?} missing from:\n{stderr}");
    }
}

/// A database left by a writer that crashed mid-transaction: its `-journal` holds the original
/// pages, and the database file already holds some of the transaction's pages (the cache
/// spilled). It is read as of its last commit, and neither file is written.
#[test]
fn a_hot_rollback_journal_is_rolled_back_in_a_private_copy() {
    let dir = tempfile::tempdir().unwrap();
    let live = dir.path().join("live.sqlite");
    let conn = Connection::open(&live).unwrap();
    conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    conn.execute_batch(LOOSE_SCHEMA).unwrap();
    row(&conn, "0", &quoted(HEADER), "NULL");
    row(&conn, "1", &quoted(&event("e1", None, "user", "committed one")), "NULL");
    row(
        &conn,
        "2",
        &quoted(&event("e2", Some("e1"), "assistant", "committed two")),
        "NULL",
    );

    // A large transaction with a tiny cache, so that uncommitted pages reach the file.
    let committed = std::fs::read(&live).unwrap();
    conn.pragma_update(None, "cache_size", 2).unwrap();
    conn.execute_batch("BEGIN").unwrap();
    conn.execute(
        "UPDATE transcript_events SET event_json = replace(event_json, 'committed', 'TORN') WHERE 1",
        [],
    )
    .unwrap();
    for i in 3..200 {
        conn.execute(
            "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('w', ?1, ?2, 0)",
            params![
                i,
                event(
                    &format!("e{i}"),
                    Some(&format!("e{}", i - 1)),
                    "user",
                    &"x".repeat(2000)
                )
            ],
        )
        .unwrap();
    }
    let crashed = dir.path().join("crashed");
    std::fs::create_dir(&crashed).unwrap();
    let db = crashed.join("openclaw-agent.sqlite");
    std::fs::copy(&live, &db).unwrap();
    std::fs::copy(
        dir.path().join("live.sqlite-journal"),
        crashed.join("openclaw-agent.sqlite-journal"),
    )
    .unwrap();
    conn.execute_batch("ROLLBACK").unwrap();
    drop(conn);
    assert!(
        std::fs::metadata(crashed.join("openclaw-agent.sqlite-journal"))
            .unwrap()
            .len()
            > 0
    );
    assert_ne!(
        std::fs::read(&db).unwrap(),
        committed,
        "uncommitted pages reached the file"
    );

    let before = common::folder_state(&crashed);
    let s = load_path(&db, &LoadOptions::default()).unwrap();
    let texts: Vec<String> = s.transcript().messages.iter().map(|m| m.message.text()).collect();
    assert_eq!(texts, ["committed one", "committed two"]);
    let notes: Vec<&Diagnostic> = s.diagnostics.iter().filter(|d| d.message.contains("journal")).collect();
    assert_eq!(notes.len(), 1, "{:#?}", s.diagnostics);
    assert_eq!(notes[0].severity, Severity::Note);
    assert!(notes[0].message.contains("last committed transaction"), "{}", notes[0]);
    assert_eq!(s.diagnostics.len(), 1, "{:#?}", s.diagnostics);
    assert_eq!(
        common::folder_state(&crashed),
        before,
        "the database and its journal are unchanged"
    );
    assert!(common::leftover_db_copies().is_empty(), "the private copy is removed");

    let out = Command::new(common::bin())
        .args(["show", "--format", "json"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("journal"));
    assert_eq!(common::folder_state(&crashed), before, "the CLI changed nothing either");
}
