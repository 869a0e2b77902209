//! Build `sample-sessions/openclaw-agent.sqlite` from the bundled JSONL sample sessions.
//!
//! ```text
//! cargo run --example build_sample_db
//! ```
//!
//! The database follows OpenClaw's per-agent schema (`src/state/openclaw-agent-schema.sql`, agent schema 24):
//! STRICT tables `schema_meta`, `session_nodes`, `session_windows`, `transcript_events` (with
//! the schema ≥ 23 payload columns) and `transcript_event_identities`. Each JSONL line becomes
//! one `transcript_events` row (`seq` = line index from 0, header first). Rows are compressed
//! exactly as OpenClaw does: an event of 1 KiB to 4 MiB whose zstd frame (level 1, content
//! checksum on) saves at least 64 bytes and at least 10 % is stored in `event_zstd` with
//! `event_json` NULL; the session header is never compressed. Everything is derived from the
//! JSONL files (timestamps included), so the output is the same on every run.
//!
//! The building code lives in [`build`] so that `tests/sample_sessions.rs` can include this
//! file and regenerate the database into a temporary directory.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use replaylens::json;
use replaylens::model::json::Value;
use rusqlite::{Connection, params};

/// `PRAGMA user_version` and `schema_meta.schema_version`.
pub const SCHEMA_VERSION: i64 = 24;
/// Events shorter than this are never compressed.
pub const COMPRESS_MIN_BYTES: usize = 1024;
/// Events longer than this are never compressed.
pub const COMPRESS_MAX_BYTES: usize = 4 * 1024 * 1024;
/// A compressed row must save at least this many bytes…
pub const COMPRESS_MIN_SAVED_BYTES: usize = 64;
/// …and at least this share of the event, in percent.
pub const COMPRESS_MIN_SAVED_PERCENT: usize = 10;
/// The database file name inside the sample folder.
pub const DB_FILE: &str = "openclaw-agent.sqlite";

/// One transcript window to import.
#[derive(Debug, Clone, Copy)]
pub struct WindowSpec {
    /// The JSONL file in the sample folder.
    pub file: &'static str,
    /// `session_nodes.session_key`.
    pub session_key: &'static str,
    /// `session_windows.reason`.
    pub reason: &'static str,
    /// Whether this is its key's current window.
    pub current: bool,
    /// `session_windows.chat_type`.
    pub chat_type: &'static str,
    /// `session_windows.channel`.
    pub channel: Option<&'static str>,
    /// `session_windows.display_name` / `session_nodes.display_name`.
    pub display_name: &'static str,
}

/// The windows in the sample database, oldest first within each key.
pub const WINDOWS: &[WindowSpec] = &[
    WindowSpec {
        file: "anthropic-tool-repair.jsonl",
        session_key: "agent:main:main",
        reason: "reset",
        current: false,
        chat_type: "direct",
        channel: Some("webchat"),
        display_name: "invoice totals fix",
    },
    WindowSpec {
        file: "compaction-and-branch.jsonl",
        session_key: "agent:main:main",
        reason: "reset",
        current: true,
        chat_type: "direct",
        channel: Some("webchat"),
        display_name: "tilemap chunked loader",
    },
    WindowSpec {
        file: "gateway-channel-noise.jsonl",
        session_key: "agent:main:discord:channel:555",
        reason: "initial",
        current: true,
        chat_type: "channel",
        channel: Some("discord"),
        display_name: "discord #build-alerts",
    },
];

/// What [`build`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// Rows written to `transcript_events`.
    pub rows: usize,
    /// Of those, rows stored in `event_zstd`.
    pub compressed_rows: usize,
    /// `(session_id, seq)` of every compressed row.
    pub compressed: Vec<(String, i64)>,
}

const DDL: &str = r#"
CREATE TABLE schema_meta (
  meta_key TEXT NOT NULL PRIMARY KEY,
  role TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  agent_id TEXT,
  app_version TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE session_nodes (
  session_key TEXT NOT NULL PRIMARY KEY,
  current_session_id TEXT NOT NULL,
  entry_json TEXT NOT NULL,
  entry_valid INTEGER NOT NULL DEFAULT 0 CHECK (entry_valid IN (-1, 0, 1)),
  updated_at INTEGER NOT NULL,
  status TEXT CHECK (status IS NULL OR status IN ('running', 'done', 'failed', 'killed', 'timeout')),
  created_at INTEGER,
  created_via TEXT CHECK (created_via IS NULL OR created_via IN ('operator', 'spawn', 'channel', 'cron', 'talk', 'run', 'plugin', 'internal')),
  created_actor_type TEXT CHECK (created_actor_type IS NULL OR created_actor_type IN ('human', 'agent', 'system')),
  created_actor_id TEXT,
  owner_actor_type TEXT,
  owner_actor_id TEXT,
  owner_assigned_by_type TEXT,
  owner_assigned_by_id TEXT,
  owner_assigned_at INTEGER,
  project_id TEXT,
  parent_session_key TEXT,
  spawned_by TEXT,
  fork_source_session_key TEXT,
  fork_source_session_id TEXT,
  fork_source_entry_id TEXT,
  label TEXT,
  display_name TEXT,
  category TEXT,
  icon TEXT,
  pinned_at INTEGER,
  archived_at INTEGER,
  last_read_at INTEGER,
  last_interaction_at INTEGER,
  last_activity_at INTEGER
) STRICT;

CREATE INDEX idx_agent_session_nodes_updated_at ON session_nodes(updated_at DESC, session_key);
CREATE INDEX idx_agent_session_nodes_current_session_id ON session_nodes(current_session_id);

CREATE TABLE session_windows (
  session_id TEXT NOT NULL PRIMARY KEY,
  session_key TEXT NOT NULL,
  previous_session_id TEXT,
  reason TEXT CHECK (reason IS NULL OR reason IN ('initial', 'reset', 'rollover', 'fork', 'rewind', 'switch', 'recovery', 'compaction')),
  session_scope TEXT NOT NULL DEFAULT 'conversation' CHECK (session_scope IN ('conversation', 'shared-main', 'group', 'channel')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  transcript_updated_at INTEGER DEFAULT NULL,
  transcript_observed_at INTEGER DEFAULT NULL,
  session_entry_provenance INTEGER NOT NULL DEFAULT 0 CHECK (session_entry_provenance IN (0, 1)),
  acp_owned INTEGER NOT NULL DEFAULT 0 CHECK (acp_owned IN (0, 1)),
  plugin_owner_id TEXT,
  hook_external_content_source TEXT CHECK (hook_external_content_source IS NULL OR hook_external_content_source IN ('gmail', 'webhook')),
  started_at INTEGER,
  ended_at INTEGER,
  status TEXT CHECK (status IS NULL OR status IN ('running', 'done', 'failed', 'killed', 'timeout')),
  chat_type TEXT CHECK (chat_type IS NULL OR chat_type IN ('direct', 'group', 'channel')),
  channel TEXT,
  account_id TEXT,
  primary_conversation_id TEXT,
  model_provider TEXT,
  model TEXT,
  agent_harness_id TEXT,
  parent_session_key TEXT,
  spawned_by TEXT,
  display_name TEXT,
  FOREIGN KEY (session_key) REFERENCES session_nodes(session_key) ON DELETE CASCADE
) STRICT;

CREATE INDEX idx_agent_session_windows_updated_at ON session_windows(updated_at DESC, session_id);
CREATE INDEX idx_agent_session_windows_session_key ON session_windows(session_key, updated_at DESC, session_id);

CREATE TABLE transcript_events (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_json TEXT,
  created_at INTEGER NOT NULL,
  event_zstd BLOB,
  event_utf8_bytes INTEGER,
  navigation_json TEXT,
  PRIMARY KEY (session_id, seq),
  CHECK ((event_json IS NULL) <> (event_zstd IS NULL)),
  FOREIGN KEY (session_id) REFERENCES session_windows(session_id) ON DELETE CASCADE
) STRICT;

CREATE TABLE transcript_event_identities (
  session_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_type TEXT NOT NULL,
  parent_id TEXT,
  message_idempotency_key TEXT,
  PRIMARY KEY (session_id, event_id),
  FOREIGN KEY (session_id, seq) REFERENCES transcript_events(session_id, seq) ON DELETE CASCADE
) STRICT;
"#;

/// One JSONL line, parsed.
struct Line {
    text: String,
    value: Value,
}

fn read_lines(path: &Path) -> Result<Vec<Line>> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let value: Value =
            serde_json::from_str(raw).with_context(|| format!("{}: line {} is not JSON", path.display(), i + 1))?;
        out.push(Line {
            text: raw.to_owned(),
            value,
        });
    }
    if out.first().and_then(|l| l.value.get("type")).and_then(Value::as_str) != Some("session") {
        bail!("{}: the first line is not a session header", path.display());
    }
    Ok(out)
}

/// ISO-8601 UTC (`2026-03-09T08:41:07.000Z`) to Unix milliseconds.
fn iso_ms(value: &Value) -> Option<i64> {
    let text = value.get("timestamp")?.as_str()?;
    chrono::DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|d| d.timestamp_millis())
}

/// Compress an event as OpenClaw does, or `None` when it is stored as text.
pub fn compress_event(json: &str, is_header: bool) -> Result<Option<Vec<u8>>> {
    let len = json.len();
    if is_header || !(COMPRESS_MIN_BYTES..=COMPRESS_MAX_BYTES).contains(&len) {
        return Ok(None);
    }
    let mut compressor = zstd::bulk::Compressor::new(1)?;
    compressor.set_parameter(zstd::stream::raw::CParameter::ChecksumFlag(true))?;
    let frame = compressor.compress(json.as_bytes())?;
    let saved = len.saturating_sub(frame.len());
    if saved >= COMPRESS_MIN_SAVED_BYTES && saved * 100 >= len * COMPRESS_MIN_SAVED_PERCENT {
        Ok(Some(frame))
    } else {
        Ok(None)
    }
}

/// Sum of assistant usage in a session: `(input, output, total)`.
fn usage_totals(lines: &[Line]) -> (i64, i64, i64) {
    let mut totals = (0, 0, 0);
    for l in lines {
        let Some(u) = l.value.pointer("/message/usage") else {
            continue;
        };
        let n = |k: &str| u.get(k).and_then(Value::as_i64).unwrap_or(0);
        totals.0 += n("input") + n("cacheRead") + n("cacheWrite");
        totals.1 += n("output");
        totals.2 += n("totalTokens");
    }
    totals
}

/// The latest `(provider, model)` recorded by `model_change` entries.
fn latest_model(lines: &[Line]) -> (Option<String>, Option<String>) {
    let mut out = (None, None);
    for l in lines {
        if l.value.get("type").and_then(Value::as_str) == Some("model_change") {
            let s = |k: &str| l.value.get(k).and_then(Value::as_str).map(str::to_owned);
            out = (s("provider"), s("modelId"));
        }
    }
    out
}

fn latest_thinking_level(lines: &[Line]) -> Option<String> {
    lines
        .iter()
        .filter(|l| l.value.get("type").and_then(Value::as_str) == Some("thinking_level_change"))
        .filter_map(|l| l.value.get("thinkingLevel").and_then(Value::as_str))
        .next_back()
        .map(str::to_owned)
}

/// Build the sample database at `out` from the JSONL files in `samples_dir`, replacing it.
pub fn build(samples_dir: &Path, out: &Path) -> Result<BuildReport> {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut p = out.as_os_str().to_owned();
        p.push(suffix);
        let p = PathBuf::from(p);
        if p.exists() {
            fs::remove_file(&p).with_context(|| format!("removing {}", p.display()))?;
        }
    }
    let mut conn = Connection::open(out).with_context(|| format!("creating {}", out.display()))?;
    conn.pragma_update(None, "journal_mode", "DELETE")?;
    conn.pragma_update(None, "page_size", 4096)?;
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    conn.execute_batch(DDL)?;

    let mut report = BuildReport::default();
    let sessions: Vec<(WindowSpec, Vec<Line>)> = WINDOWS
        .iter()
        .map(|w| read_lines(&samples_dir.join(w.file)).map(|lines| (*w, lines)))
        .collect::<Result<_>>()?;
    let session_id = |lines: &[Line]| -> String {
        lines[0]
            .value
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let first_ms = sessions
        .iter()
        .filter_map(|(_, l)| iso_ms(&l[0].value))
        .min()
        .unwrap_or(0);
    let last_ms = |lines: &[Line]| lines.iter().filter_map(|l| iso_ms(&l.value)).max().unwrap_or(0);

    let tx = conn.transaction()?;
    tx.execute(
        "INSERT INTO schema_meta (meta_key, role, schema_version, agent_id, app_version, created_at, updated_at)
         VALUES ('agent', 'agent', ?1, 'main', '2026.3.10', ?2, ?3)",
        params![
            SCHEMA_VERSION,
            first_ms,
            sessions.iter().map(|(_, l)| last_ms(l)).max().unwrap_or(0)
        ],
    )?;

    // session_nodes: one per key, pointing at its current window.
    let mut keys: Vec<&'static str> = WINDOWS.iter().map(|w| w.session_key).collect();
    keys.dedup();
    for key in keys {
        let windows: Vec<&(WindowSpec, Vec<Line>)> = sessions.iter().filter(|(w, _)| w.session_key == key).collect();
        let Some((current, lines)) = windows.iter().find(|(w, _)| w.current).map(|s| (&s.0, &s.1)) else {
            bail!("session key {key} has no current window");
        };
        let created = windows
            .iter()
            .filter_map(|(_, l)| iso_ms(&l[0].value))
            .min()
            .unwrap_or(0);
        let updated = last_ms(lines);
        let (provider, model) = latest_model(lines);
        let (input, output, total) = usage_totals(lines);
        let compactions = lines
            .iter()
            .filter(|l| l.value.get("type").and_then(Value::as_str) == Some("compaction"))
            .count();
        let entry = json!({
            "sessionId": session_id(lines),
            "updatedAt": updated,
            "displayName": current.display_name,
            "chatType": current.chat_type,
            "channel": current.channel,
            "providerOverride": provider,
            "modelOverride": model,
            "thinkingLevel": latest_thinking_level(lines),
            "inputTokens": input,
            "outputTokens": output,
            "totalTokens": total,
            "contextTokens": 200000,
            "compactionCount": compactions,
        });
        tx.execute(
            "INSERT INTO session_nodes (session_key, current_session_id, entry_json, entry_valid, updated_at,
               created_at, created_via, created_actor_type, display_name, last_interaction_at, last_activity_at)
             VALUES (?1, ?2, ?3, 1, ?4, ?5, ?6, 'human', ?7, ?4, ?4)",
            params![
                key,
                session_id(lines),
                entry.to_string(),
                updated,
                created,
                if current.chat_type == "channel" {
                    "channel"
                } else {
                    "operator"
                },
                current.display_name
            ],
        )?;
    }

    // session_windows and their events.
    let mut previous_of_key: Vec<(&str, String)> = Vec::new();
    for (w, lines) in &sessions {
        let id = session_id(lines);
        let created = iso_ms(&lines[0].value).unwrap_or(0);
        let updated = last_ms(lines);
        let previous = previous_of_key
            .iter()
            .rev()
            .find(|(k, _)| *k == w.session_key)
            .map(|(_, id)| id.clone());
        let (provider, model) = latest_model(lines);
        tx.execute(
            "INSERT INTO session_windows (session_id, session_key, previous_session_id, reason, session_scope,
               created_at, updated_at, transcript_updated_at, started_at, ended_at, status, chat_type, channel,
               model_provider, model, display_name)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?6, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            params![
                id,
                w.session_key,
                previous,
                w.reason,
                if w.chat_type == "channel" {
                    "channel"
                } else {
                    "conversation"
                },
                created,
                updated,
                if w.current { None } else { Some(updated) },
                if w.current { "running" } else { "done" },
                w.chat_type,
                w.channel,
                provider,
                model,
                w.display_name
            ],
        )?;
        previous_of_key.push((w.session_key, id.clone()));

        for (seq, line) in lines.iter().enumerate() {
            let seq = seq as i64;
            let is_header = seq == 0 || line.value.get("type").and_then(Value::as_str) == Some("session");
            let created_at = iso_ms(&line.value).unwrap_or(created);
            let bytes = line.text.len() as i64;
            match compress_event(&line.text, is_header)? {
                Some(frame) => {
                    tx.execute(
                        "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes)
                         VALUES (?1, ?2, NULL, ?3, ?4, ?5)",
                        params![id, seq, created_at, frame, bytes],
                    )?;
                    report.compressed_rows += 1;
                    report.compressed.push((id.clone(), seq));
                }
                None => {
                    tx.execute(
                        "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd, event_utf8_bytes)
                         VALUES (?1, ?2, ?3, ?4, NULL, ?5)",
                        params![id, seq, line.text, created_at, bytes],
                    )?;
                }
            }
            report.rows += 1;
            if let Some(event_id) = line.value.get("id").and_then(Value::as_str).filter(|_| !is_header) {
                let s = |k: &str| line.value.get(k).and_then(Value::as_str);
                let idem = line
                    .value
                    .pointer("/message/idempotencyKey")
                    .or_else(|| line.value.pointer("/message/__openclaw/idempotencyKey"))
                    .and_then(Value::as_str);
                tx.execute(
                    "INSERT INTO transcript_event_identities (session_id, event_id, seq, event_type, parent_id, message_idempotency_key)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![id, event_id, seq, s("type").unwrap_or(""), s("parentId"), idem],
                )?;
            }
        }
    }
    tx.commit()?;
    conn.execute_batch("VACUUM;")?;
    conn.close().map_err(|(_, e)| e)?;
    Ok(report)
}

#[allow(dead_code)]
fn main() -> Result<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions");
    let out = dir.join(DB_FILE);
    let report = build(&dir, &out)?;
    println!(
        "wrote {} ({} rows, {} zstd-compressed, {} bytes)",
        out.display(),
        report.rows,
        report.compressed_rows,
        fs::metadata(&out)?.len()
    );
    Ok(())
}
