//! The bundled sample sessions (`sample-sessions/`, see its MANIFEST.md) load cleanly, with
//! the stored message counts, branch choice and compaction the manifest promises, and the
//! sample database decodes to the same sessions as the JSONL files it was built from.

#[allow(dead_code)]
#[path = "../examples/build_sample_db.rs"]
mod build_sample_db;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use replaylens::load::{LoadOptions, load_path, sqlite};
use replaylens::model::json::Value;
use replaylens::model::{Role, Session};
use rusqlite::{Connection, OpenFlags};

/// `(file, header session id, stored message count)` as listed in MANIFEST.md.
const JSONL: &[(&str, &str, usize)] = &[
    (
        "anthropic-tool-repair.jsonl",
        "16ef695f-a786-4000-a7be-fae1faf4236f",
        30,
    ),
    (
        "compaction-and-branch.jsonl",
        "c5db8a19-9f49-438a-aab2-3342c23a87cd",
        15,
    ),
    (
        "gateway-channel-noise.jsonl",
        "8afea5ca-1e5f-4a04-a2fb-2a626c57faa5",
        17,
    ),
    ("gemini-signatures.jsonl", "da56ef03-bbb3-4f51-a3e0-1da7b27bcb59", 12),
    (
        "local-completions-reasoning.jsonl",
        "a92293d1-3adb-4c44-abe2-3e05d1846b09",
        9,
    ),
    (
        "mistral-ids-and-images.jsonl",
        "3a4f30b2-7418-4202-ac0b-0b8012901a51",
        12,
    ),
    (
        "openai-responses-switch.jsonl",
        "409912ee-b61e-4019-af1c-673152454197",
        20,
    ),
];

/// `(window session id, session key, current, stored message count)` in the sample database.
const DB_WINDOWS: &[(&str, &str, bool, usize)] = &[
    ("16ef695f-a786-4000-a7be-fae1faf4236f", "agent:main:main", false, 30),
    ("c5db8a19-9f49-438a-aab2-3342c23a87cd", "agent:main:main", true, 15),
    (
        "8afea5ca-1e5f-4a04-a2fb-2a626c57faa5",
        "agent:main:discord:channel:555",
        true,
        17,
    ),
];

fn samples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions")
}

fn db_path() -> PathBuf {
    samples_dir().join(build_sample_db::DB_FILE)
}

fn load(path: &Path, session: Option<&str>) -> Session {
    load_path(
        path,
        &LoadOptions {
            session: session.map(str::to_owned),
            ..LoadOptions::default()
        },
    )
    .unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()))
}

fn assert_clean(s: &Session, what: &str) {
    assert!(s.diagnostics.is_empty(), "{what}: load diagnostics {:?}", s.diagnostics);
    let t = s.transcript();
    assert!(
        t.diagnostics.is_empty(),
        "{what}: branch diagnostics {:?}",
        t.diagnostics
    );
}

fn entry_ids(s: &Session) -> Vec<String> {
    s.transcript()
        .messages
        .iter()
        .filter_map(|m| m.entry_id.as_deref().map(str::to_owned))
        .collect()
}

#[test]
fn every_sample_file_is_listed_and_small() {
    let mut on_disk: Vec<String> = std::fs::read_dir(samples_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".jsonl") || n.ends_with(".sqlite"))
        .collect();
    on_disk.sort();
    let mut expected: Vec<String> = JSONL.iter().map(|(f, _, _)| (*f).to_owned()).collect();
    expected.push(build_sample_db::DB_FILE.to_owned());
    expected.sort();
    assert_eq!(on_disk, expected);
    for name in &on_disk {
        let len = std::fs::metadata(samples_dir().join(name)).unwrap().len();
        assert!(len < 200 * 1024, "{name} is {len} bytes");
    }
    assert!(!samples_dir().join("openclaw-agent.sqlite-wal").exists());
}

#[test]
fn jsonl_samples_load_cleanly_with_the_manifest_counts() {
    for (file, id, count) in JSONL {
        let s = load(&samples_dir().join(file), None);
        assert_clean(&s, file);
        assert_eq!(s.id, *id, "{file}: session id");
        assert_eq!(s.version, Some(3), "{file}: header version");
        assert_eq!(s.transcript().messages.len(), *count, "{file}: stored message count");
    }
}

#[test]
fn branch_follows_the_leaf_control_entry() {
    let s = load(&samples_dir().join("compaction-and-branch.jsonl"), None);
    let t = s.transcript();
    assert_eq!(t.leaf_id.as_deref(), Some("3217f42d"));
    let ids = entry_ids(&s);
    // Active branch: the benchmark prompt and the final answer.
    for active in ["6a958663", "3217f42d"] {
        assert!(ids.iter().any(|i| i == active), "active entry {active} missing");
    }
    // Inactive sibling branch (written later in the file): the env-var prompt and its reply.
    for inactive in ["721b03f6", "6c9b7f9c"] {
        assert!(!ids.iter().any(|i| i == inactive), "inactive entry {inactive} present");
        assert!(s.entries.iter().any(|e| e.id.as_deref() == Some(inactive)));
    }
    // Both branches hang off the same parent.
    let parent = |id: &str| {
        s.entries
            .iter()
            .find(|e| e.id.as_deref() == Some(id))
            .and_then(|e| e.parent_id.clone())
    };
    assert_eq!(parent("6a958663"), parent("721b03f6"));
}

#[test]
fn compaction_is_applied() {
    let s = load(&samples_dir().join("compaction-and-branch.jsonl"), None);
    let t = s.transcript();
    let c = t.compaction.as_ref().expect("a compaction is applied");
    assert_eq!(c.kind, "compaction");
    assert_eq!(c.entry_id.as_deref(), Some("92371307"));
    assert_eq!(c.first_kept_entry_id.as_deref(), Some("b6bc9781"));
    assert_eq!(t.messages[0].message.role(), Role::CompactionSummary);
    assert_eq!(t.messages[1].entry_id.as_deref(), Some("b6bc9781"));
    // The messages before firstKeptEntryId (first prompt, reads, plan) are replaced.
    let ids = entry_ids(&s);
    for cut in ["7f476419", "e2261223", "3fca7775", "84c22edb"] {
        assert!(!ids.iter().any(|i| i == cut), "entry {cut} before the cut is present");
    }
}

#[test]
fn gemini_history_starts_with_the_assistant() {
    let s = load(&samples_dir().join("gemini-signatures.jsonl"), None);
    assert_eq!(s.transcript().messages[0].message.role(), Role::Assistant);
}

#[test]
fn sqlite_windows_match_the_jsonl_sources() {
    let db = db_path();
    let windows = sqlite::list_windows(&db).unwrap();
    let listed: BTreeMap<&str, (Option<&str>, bool)> = windows
        .iter()
        .map(|w| {
            (
                w.session_id.as_str(),
                (w.window.session_key.as_deref(), w.window.current),
            )
        })
        .collect();
    assert_eq!(listed.len(), DB_WINDOWS.len());
    for (id, key, current, count) in DB_WINDOWS {
        assert_eq!(listed.get(id), Some(&(Some(*key), *current)), "window {id}");
        let s = load(&db, Some(id));
        assert_clean(&s, id);
        assert_eq!(s.id, *id);
        assert_eq!(
            s.transcript().messages.len(),
            *count,
            "window {id}: stored message count"
        );
        let (file, _, jsonl_count) = JSONL.iter().find(|(_, jid, _)| jid == id).unwrap();
        assert_eq!(s.transcript().messages.len(), *jsonl_count);
        let source = load(&samples_dir().join(file), None);
        assert_eq!(
            s.stored_values(),
            source.stored_values(),
            "window {id}: events differ from {file}"
        );
        assert_eq!(entry_ids(&s), entry_ids(&source));
    }
    let key_windows = windows
        .iter()
        .filter(|w| w.window.session_key.as_deref() == Some("agent:main:main"))
        .count();
    assert_eq!(key_windows, 2);
    let old = windows.iter().find(|w| !w.window.current).unwrap();
    assert_eq!(old.window.reason.as_deref(), Some("reset"));
    // Without a selection the most recent current window is loaded.
    let default = load(&db, None);
    assert_clean(&default, "default window");
    // A session key selects its current window.
    assert_eq!(
        load(&db, Some("agent:main:main")).id,
        "c5db8a19-9f49-438a-aab2-3342c23a87cd"
    );
}

/// Every compressed row of a database: `(session_id, seq, decoded event)`.
fn compressed_rows(db: &Path) -> Vec<(String, i64, Value)> {
    let conn = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT session_id, seq, event_json, event_zstd, event_utf8_bytes FROM transcript_events
             WHERE event_zstd IS NOT NULL ORDER BY session_id, seq",
        )
        .unwrap();
    stmt.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, Option<String>>(2)?,
            r.get::<_, Vec<u8>>(3)?,
            r.get::<_, i64>(4)?,
        ))
    })
    .unwrap()
    .map(|row| {
        let (sid, seq, json, blob, bytes) = row.unwrap();
        assert!(json.is_none(), "{sid} seq {seq}: both event_json and event_zstd");
        assert!(seq > 0, "the header row is never compressed");
        let decoded = zstd::bulk::decompress(&blob, bytes as usize).unwrap();
        assert_eq!(decoded.len() as i64, bytes, "{sid} seq {seq}: event_utf8_bytes");
        assert!((1024..=4 * 1024 * 1024).contains(&decoded.len()));
        let saved = decoded.len() - blob.len();
        assert!(
            saved >= 64 && saved * 10 >= decoded.len(),
            "{sid} seq {seq}: compressed without saving enough"
        );
        (sid, seq, serde_json::from_slice(&decoded).unwrap())
    })
    .collect()
}

#[test]
fn zstd_rows_are_decoded() {
    let db = db_path();
    let rows = compressed_rows(&db);
    assert!(rows.len() >= 3, "only {} compressed rows", rows.len());
    let mut seen_in_transcript = 0;
    for (sid, seq, event) in &rows {
        let s = load(&db, Some(sid));
        let id = event["id"].as_str().unwrap();
        let entry = s
            .entries
            .iter()
            .find(|e| e.id.as_deref() == Some(id))
            .unwrap_or_else(|| panic!("{sid} seq {seq}: compressed entry {id} not loaded"));
        assert_eq!(&entry.raw, event);
        let t = s.transcript();
        if let Some(m) = t.messages.iter().find(|m| m.entry_id.as_deref() == Some(id)) {
            assert_eq!(Some(m.message.as_map()), event["message"].as_object());
            seen_in_transcript += 1;
        }
    }
    assert!(seen_in_transcript >= 3);
    // Large tool outputs were compressed: one from each session.
    for (id, _, _, _) in DB_WINDOWS {
        assert!(rows.iter().any(|(sid, _, _)| sid == id), "no compressed row in {id}");
    }
}

#[test]
fn small_events_and_headers_stay_plain() {
    assert_eq!(build_sample_db::compress_event("{}", false).unwrap(), None);
    let long = format!("{{\"type\":\"session\",\"pad\":\"{}\"}}", "a".repeat(4000));
    assert_eq!(build_sample_db::compress_event(&long, true).unwrap(), None);
    let frame = build_sample_db::compress_event(&long, false)
        .unwrap()
        .expect("compressible");
    // Content checksum flag (bit 2 of the frame header descriptor) is on.
    assert_eq!(&frame[..4], &[0x28, 0xB5, 0x2F, 0xFD]);
    assert_ne!(frame[4] & 0x04, 0);
}

#[test]
fn regenerated_database_has_the_same_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join(build_sample_db::DB_FILE);
    let report = build_sample_db::build(&samples_dir(), &out).unwrap();
    assert!(report.compressed_rows >= 3);
    let committed = sqlite::list_windows(&db_path()).unwrap();
    let fresh = sqlite::list_windows(&out).unwrap();
    assert_eq!(committed, fresh);
    for w in &committed {
        let a = load(&db_path(), Some(&w.session_id));
        let b = load(&out, Some(&w.session_id));
        assert_eq!(a.stored_values(), b.stored_values(), "window {}", w.session_id);
        assert_eq!(entry_ids(&a), entry_ids(&b));
    }
    let committed_rows = compressed_rows(&db_path());
    let fresh_rows = compressed_rows(&out);
    assert_eq!(committed_rows, fresh_rows);
    let mut reported = report.compressed.clone();
    reported.sort();
    assert_eq!(
        reported,
        fresh_rows.iter().map(|(s, q, _)| (s.clone(), *q)).collect::<Vec<_>>()
    );
    // The build is deterministic: the committed file is byte-identical to a fresh one.
    assert_eq!(
        std::fs::read(db_path()).unwrap(),
        std::fs::read(&out).unwrap(),
        "sample-sessions/openclaw-agent.sqlite is stale: run `cargo run --example build_sample_db`"
    );
    let user_version: i64 = Connection::open(&out)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(user_version, build_sample_db::SCHEMA_VERSION);
    assert!(!dir.path().join("openclaw-agent.sqlite-wal").exists());
}
