//! Per-agent OpenClaw databases (`openclaw-agent.sqlite`) written from generated session
//! files, in the schema the installed release creates: its own DDL (`OPENCLAW_AGENT_SCHEMA_SQL`
//! of `src/state/openclaw-agent-schema.ts`, printed by `oracle/openclaw_session.mjs --schema`),
//! one `session_nodes` and `session_windows` row per session and one `transcript_events` row
//! per line of the file, as OpenClaw stores a JSONL line: its JSON text in `event_json`, or
//! zstd-compressed in `event_zstd` with its UTF-8 length and a navigation record (the table's
//! CHECK requires both for a compressed row).

use std::path::Path;

use rusqlite::{Connection, params};

/// One session to store.
pub struct DbSession {
    /// `transcript_events.session_id` (and the window's id).
    pub session_id: String,
    /// `session_windows.session_key`.
    pub session_key: String,
    /// The session's lines (a JSONL file's lines, without their line ends).
    pub lines: Vec<String>,
    /// Which lines are stored compressed (`event_zstd`); shorter than `lines` means the rest
    /// are stored as text.
    pub compressed: Vec<bool>,
    /// `session_windows.model_provider` and `model`.
    pub window_model: Option<(String, String)>,
}

/// The navigation record a compressed row must carry (the `transcript_events` CHECK: version
/// 1, a report kind, the projection objects and byte counts). Readers of the event ignore it.
const NAVIGATION: &str = r#"{"version":1,"report":{"kind":"ignored"},"navigation":{},"reset":{},"model":{},"modelBytes":0,"modelWithoutCheckpointBytes":0,"withoutCustomDataBytes":0}"#;

/// The session id a session file's header names (`{"type":"session","id":…}` on its first
/// line), if it has one.
pub fn header_session_id(lines: &[String]) -> Option<String> {
    let first: serde_json::Value = serde_json::from_str(lines.first()?).ok()?;
    if first["type"] != "session" {
        return None;
    }
    first["id"].as_str().map(str::to_owned)
}

/// The lines of a session file's text (LF or CRLF), empty lines dropped as OpenClaw's JSONL
/// reader drops them.
pub fn lines_of(text: &str) -> Vec<String> {
    text.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

/// Create `path` with the release's schema (`schema_sql`) and store `sessions` in it.
pub fn write(path: &Path, schema_sql: &str, sessions: &[DbSession]) -> rusqlite::Result<()> {
    let mut conn = Connection::open(path)?;
    conn.execute_batch(schema_sql)?;
    let tx = conn.transaction()?;
    let now: i64 = 1_790_000_000_000;
    tx.execute(
        "INSERT INTO schema_meta (meta_key, role, schema_version, agent_id, app_version, created_at, updated_at) \
         VALUES ('agent', 'agent', 23, 'main', '2026.9.6', ?1, ?1)",
        params![now],
    )?;
    for (k, s) in sessions.iter().enumerate() {
        let at = now + k as i64 * 1000;
        tx.execute(
            "INSERT OR REPLACE INTO session_nodes (session_key, current_session_id, entry_json, updated_at) \
             VALUES (?1, ?2, ?3, ?4)",
            params![
                s.session_key,
                s.session_id,
                serde_json::json!({"sessionId": s.session_id}).to_string(),
                at
            ],
        )?;
        let (provider, model) = match &s.window_model {
            Some((p, m)) => (Some(p.as_str()), Some(m.as_str())),
            None => (None, None),
        };
        tx.execute(
            "INSERT INTO session_windows (session_id, session_key, reason, created_at, updated_at, model_provider, model) \
             VALUES (?1, ?2, 'initial', ?3, ?3, ?4, ?5)",
            params![s.session_id, s.session_key, at, provider, model],
        )?;
        for (seq, line) in s.lines.iter().enumerate() {
            let created = at + seq as i64;
            if s.compressed.get(seq).copied().unwrap_or(false) {
                let packed = zstd::encode_all(line.as_bytes(), 3).expect("zstd in memory");
                tx.execute(
                    "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes, navigation_json) \
                     VALUES (?1, ?2, NULL, ?3, ?4, ?5, ?6)",
                    params![s.session_id, seq as i64, created, packed, line.len() as i64, NAVIGATION],
                )?;
            } else {
                tx.execute(
                    "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?1, ?2, ?3, ?4)",
                    params![s.session_id, seq as i64, line, created],
                )?;
            }
        }
    }
    tx.commit()
}
