//! OpenClaw SQLite databases: read-only, WAL-safe, zstd rows decoded, bad rows reported.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use replaylens::load::sqlite::list_windows;
use replaylens::load::{LoadError, LoadOptions, load_path};
use replaylens::model::{Location, Role, Severity};
use rusqlite::{Connection, params};

const SCHEMA: &str = "
CREATE TABLE session_nodes (session_key TEXT PRIMARY KEY, current_session_id TEXT, entry_json TEXT, updated_at INTEGER) STRICT;
CREATE TABLE session_windows (session_id TEXT PRIMARY KEY, session_key TEXT NOT NULL, previous_session_id TEXT, reason TEXT,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, model_provider TEXT, model TEXT) STRICT;
CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT, event_zstd BLOB,
  event_utf8_bytes INTEGER, navigation_json TEXT, created_at INTEGER NOT NULL, PRIMARY KEY (session_id, seq)) STRICT;
";

fn event(id: &str, parent: Option<&str>, role: &str, text: &str) -> String {
    replaylens::json!({
        "type": "message", "id": id, "parentId": parent, "timestamp": "2026-09-01T08:00:01.000Z",
        "message": {"role": role, "content": [{"type": "text", "text": text}], "timestamp": 1788249601000_i64}
    })
    .to_string()
}

fn insert(conn: &Connection, session: &str, seq: i64, json: &str, compress: bool) {
    if compress {
        let blob = zstd::bulk::compress(json.as_bytes(), 1).unwrap();
        conn.execute(
            "INSERT INTO transcript_events (session_id, seq, event_json, event_zstd, event_utf8_bytes, created_at) VALUES (?1, ?2, NULL, ?3, ?4, 0)",
            params![session, seq, blob, json.len() as i64],
        )
        .unwrap();
    } else {
        conn.execute(
            "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?1, ?2, ?3, 0)",
            params![session, seq, json],
        )
        .unwrap();
    }
}

/// Two keys; `agent:main:main` has an older reset window and a current one.
fn build(dir: &Path, wal: bool) -> PathBuf {
    let path = dir.join("openclaw-agent.sqlite");
    let conn = Connection::open(&path).unwrap();
    if wal {
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    }
    conn.execute_batch(SCHEMA).unwrap();
    conn.execute_batch(
        "INSERT INTO session_nodes VALUES ('agent:main:main', 'w2', '{}', 2000), ('agent:main:discord:channel:555', 'w3', '{}', 1500);
         INSERT INTO session_windows VALUES ('w1', 'agent:main:main', NULL, 'initial', 100, 900, 'anthropic', 'claude-sonnet-4-6'),
           ('w2', 'agent:main:main', 'w1', 'reset', 1000, 2000, 'anthropic', 'claude-sonnet-4-6'),
           ('w3', 'agent:main:discord:channel:555', NULL, 'initial', 1100, 1500, 'google', 'gemini-2.5-pro');",
    )
    .unwrap();
    for (sid, n) in [("w1", 2), ("w2", 4), ("w3", 1)] {
        insert(
            &conn,
            sid,
            0,
            &format!(
                r#"{{"type":"session","version":3,"id":"{sid}","timestamp":"2026-09-01T08:00:00.000Z","cwd":"/w"}}"#
            ),
            false,
        );
        let mut parent: Option<String> = None;
        for i in 1..=n {
            let id = format!("{sid}e{i}");
            let role = if i % 2 == 1 { "user" } else { "assistant" };
            let text = if i == 2 { "x".repeat(5000) } else { format!("turn {i}") };
            insert(&conn, sid, i, &event(&id, parent.as_deref(), role, &text), i == 2);
            parent = Some(id);
        }
    }
    path
}

#[test]
fn lists_every_window_current_first() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), false);
    let windows = list_windows(&db).unwrap();
    let ids: Vec<&str> = windows.iter().map(|w| w.session_id.as_str()).collect();
    assert_eq!(ids, ["w2", "w3", "w1"]);
    assert!(windows[0].window.current && !windows[2].window.current);
    assert_eq!(windows[2].window.reason.as_deref(), Some("initial"));
    assert_eq!(windows[0].event_count, 5);
}

#[test]
fn loads_the_most_recent_current_window_and_decodes_zstd_rows() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), false);
    let s = load_path(&db, &LoadOptions::default()).unwrap();
    assert_eq!(s.id, "w2");
    assert_eq!(s.format.as_str(), "openclaw-sqlite");
    assert!(s.diagnostics.is_empty(), "{:?}", s.diagnostics);
    let t = s.transcript();
    assert_eq!(t.messages.len(), 4);
    assert_eq!(t.messages[1].message.text(), "x".repeat(5000), "zstd row decoded");
    assert_eq!(t.messages[1].location, Some(Location::Seq(2)));
    assert_eq!(
        t.model.provider.as_deref(),
        Some("anthropic"),
        "window model is the fallback target"
    );
}

#[test]
fn selects_by_window_id_key_or_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), false);
    let by = |sel: &str| {
        load_path(
            &db,
            &LoadOptions {
                session: Some(sel.into()),
                ..LoadOptions::default()
            },
        )
    };
    assert_eq!(by("w1").unwrap().transcript().messages.len(), 2);
    assert_eq!(by("agent:main:discord:channel:555").unwrap().id, "w3");
    assert!(matches!(by("nope"), Err(LoadError::NoSuchSession { .. })));
    assert!(
        matches!(by("w"), Err(LoadError::NoSuchSession { .. })),
        "an ambiguous prefix selects nothing"
    );
}

#[test]
fn bad_rows_are_reported_by_seq() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), false);
    {
        let conn = Connection::open(&db).unwrap();
        conn.execute(
            "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('w2', 7, '{oops', 0)",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO transcript_events (session_id, seq, event_json, event_zstd, event_utf8_bytes, created_at) VALUES ('w2', 8, NULL, X'28B52FFD00', 10, 0)",
            [],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('w2', 9, '', 0)",
            [],
        )
        .unwrap();
    }
    let s = load_path(&db, &LoadOptions::default()).unwrap();
    let skipped: Vec<Option<Location>> = s
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Skipped)
        .map(|d| d.location)
        .collect();
    assert_eq!(
        skipped,
        [Some(Location::Seq(7)), Some(Location::Seq(8)), Some(Location::Seq(9))]
    );
    assert_eq!(s.transcript().messages.len(), 4);
}

#[test]
fn never_writes_and_reads_while_another_process_holds_a_wal_write_lock() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), true);
    let before = std::fs::read(&db).unwrap();
    let script = format!(
        "import sqlite3,sys\nc=sqlite3.connect({:?},isolation_level=None)\nc.execute('BEGIN IMMEDIATE')\nc.execute(\"INSERT INTO transcript_events (session_id,seq,event_json,created_at) VALUES ('w2',99,'{{}}',0)\")\nprint('locked',flush=True)\nsys.stdin.readline()\nc.execute('ROLLBACK')\n",
        db.to_string_lossy()
    );
    let mut holder = Command::new("python3")
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let writer_conn = match &mut holder {
        Ok(child) => {
            let mut first = String::new();
            std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.as_mut().unwrap()), &mut first)
                .unwrap();
            assert_eq!(first.trim(), "locked");
            None
        }
        Err(_) => {
            let c = Connection::open(&db).unwrap();
            c.execute_batch("BEGIN IMMEDIATE; INSERT INTO transcript_events (session_id,seq,event_json,created_at) VALUES ('w2',99,'{}',0);").unwrap();
            Some(c)
        }
    };
    let s = load_path(&db, &LoadOptions::default()).unwrap();
    assert_eq!(s.transcript().messages.len(), 4, "uncommitted rows are invisible");
    assert!(s.diagnostics.is_empty());
    if let Ok(mut child) = holder {
        drop(child.stdin.take());
        child.wait().unwrap();
    }
    drop(writer_conn);
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "the database file is never written"
    );
}

#[test]
fn trimmed_import_without_session_nodes_from_the_shared_sql_dump() {
    let Some(root) = common::shared_samples() else { return };
    let sql = std::fs::read_to_string(root.join("openclaw-jsonl/deja-vu/agent/openclaw-agent.sql")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("openclaw-agent.sqlite");
    Connection::open(&db).unwrap().execute_batch(&sql).unwrap();
    let windows = list_windows(&db).unwrap();
    assert_eq!(windows.len(), 2);
    let current = &windows[0];
    assert_eq!(
        current.session_id, "b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e",
        "the newer reset window is current"
    );
    let s = load_path(&db, &LoadOptions::default()).unwrap();
    let t = s.transcript();
    assert_eq!(t.messages.len(), 2);
    assert_eq!(t.messages[0].message.role(), Role::User);
    let old = load_path(
        &db,
        &LoadOptions {
            session: Some("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d".into()),
            ..LoadOptions::default()
        },
    )
    .unwrap();
    assert_eq!(old.transcript().messages.len(), 2);
    let out = Command::new(common::bin()).arg("sessions").arg(&db).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e"), "{stdout}");
    assert!(
        stdout.contains("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d (previous window)"),
        "{stdout}"
    );
}

#[test]
fn a_wrong_event_utf8_bytes_still_decodes_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), false);
    Connection::open(&db)
        .unwrap()
        .execute(
            "UPDATE transcript_events SET event_utf8_bytes = 10 WHERE session_id = 'w2' AND seq = 2",
            [],
        )
        .unwrap();
    let s = load_path(&db, &LoadOptions::default()).unwrap();
    assert_eq!(s.transcript().messages[1].message.text(), "x".repeat(5000));
    assert!(s.diagnostics.iter().any(|d| d.severity == Severity::Warning
        && d.location == Some(Location::Seq(2))
        && d.message.contains("event_utf8_bytes says 10")));
}

#[test]
fn a_non_agent_database_is_refused_in_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("other.sqlite");
    Connection::open(&db)
        .unwrap()
        .execute_batch("CREATE TABLE t (x INTEGER);")
        .unwrap();
    let err = load_path(&db, &LoadOptions::default()).unwrap_err();
    assert!(matches!(err, LoadError::NotAnAgentDatabase { .. }));
}

/// The newest commit is only in the `-wal` file: it is read, and no file beside the database
/// is created or changed (no `-shm`), in a writable folder, in a read-only one, and beside
/// the writer that still holds the database.
#[test]
fn a_commit_only_in_the_wal_is_read_without_touching_the_folder_even_when_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), true);
    let writer = Connection::open(&db).unwrap();
    writer.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
    insert(
        &writer,
        "w2",
        5,
        &event("w2e5", Some("w2e4"), "user", "only in the wal"),
        false,
    );
    let wal = dir.path().join("openclaw-agent.sqlite-wal");
    assert!(std::fs::metadata(&wal).unwrap().len() > 32, "the commit is in the WAL");
    // A copy of the database and its log as a backup of a running Gateway's folder has them
    // (no `-shm`).
    let folder = dir.path().join("copy");
    std::fs::create_dir(&folder).unwrap();
    let copy = folder.join("openclaw-agent.sqlite");
    std::fs::copy(&db, &copy).unwrap();
    std::fs::copy(&wal, folder.join("openclaw-agent.sqlite-wal")).unwrap();

    let check = |path: &Path| {
        let s = load_path(path, &LoadOptions::default()).unwrap();
        let t = s.transcript();
        assert_eq!(t.messages.len(), 5, "the WAL-only commit is read");
        assert_eq!(t.messages[4].message.text(), "only in the wal");
        assert_eq!(list_windows(path).unwrap()[0].event_count, 6);
        assert!(common::leftover_db_copies().is_empty(), "the private copy is removed");
    };

    // Beside the writer: its `-wal` and `-shm` are left as they are.
    let before = common::folder_state(dir.path());
    check(&db);
    assert_eq!(
        common::folder_state(dir.path()),
        before,
        "nothing beside the live database changed"
    );

    // A writable folder without `-shm`: none is created.
    let before = common::folder_state(&folder);
    check(&copy);
    assert_eq!(common::folder_state(&folder), before, "no file created or changed");
    drop(writer);

    // A read-only folder.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).unwrap();
    let probe = folder.join("probe");
    if std::fs::File::create(&probe).is_ok() {
        // Running as root: permissions do not stop writes, so the folder is not read-only.
        std::fs::remove_file(&probe).unwrap();
        eprintln!("SKIPPED the read-only folder: permissions do not apply to this user");
    } else {
        check(&copy);
        assert_eq!(
            common::folder_state(&folder),
            before,
            "the read-only folder is unchanged"
        );
    }
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A WAL-mode database without a `-wal` file (the Gateway stopped cleanly) is read without
/// creating one, or a `-shm`.
#[test]
fn a_checkpointed_wal_database_is_read_without_creating_its_wal_or_shm() {
    let dir = tempfile::tempdir().unwrap();
    let db = build(dir.path(), true);
    let before = common::folder_state(dir.path());
    assert_eq!(
        before.len(),
        1,
        "only the database: {:?}",
        before.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    let s = load_path(&db, &LoadOptions::default()).unwrap();
    assert_eq!(s.transcript().messages.len(), 4);
    assert_eq!(common::folder_state(dir.path()), before);
}
