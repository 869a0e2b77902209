//! OpenClaw per-agent SQLite database (`openclaw-agent.sqlite`, OpenClaw's
//! `src/state/openclaw-agent-schema.sql`).
//!
//! The database is opened read-only and never written, and no file beside it is created or
//! changed (see [`open_read_only`]); it can be read while the Gateway holds it in WAL mode,
//! and from a read-only folder. Columns are discovered with `PRAGMA table_info`, so databases
//! from before schema 23 (no `event_zstd`) and trimmed imports (no `session_nodes`) both work.
//!
//! This is OpenClaw's own session store, not a format of ours: OpenClaw 2026.9.6 keeps each
//! agent's transcripts in this database (schema in its `dist/openclaw-agent-db-*.mjs`), one
//! session entry per `transcript_events` row (the JSON of a JSONL line, in `event_json` or
//! zstd-compressed in `event_zstd`, ordered by `seq`), with `session_windows` naming each
//! window's session key. OpenClaw reads them through its session accessor
//! (`session-accessor.sqlite-entry-read-*.mjs`) and `ReadOnlySqliteTranscriptReader`; the
//! loader differential (`tests/oracle_loader.rs`, `docs/testing.md`) runs that reader and the
//! session codec beside this loader on the bundled database and generated ones.

use std::collections::{HashMap, HashSet};
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};

use super::error::LoadError;
use super::json_parse::parse_value;
use super::jsonl::Builder;
use crate::model::{DbWindow, Diagnostic, Location, Session, SessionFormat};

mod companions;
mod events;
mod open;
mod private_copies;
mod snapshot;

pub use companions::MAX_COMPANION_BYTES;
pub use events::decode_zstd;
pub use open::{ReadConnection, open_read_only};
pub use private_copies::remove_private_copies;

/// One transcript window (a `sessionId`) in the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowSummary {
    /// `session_windows.session_id` (the transcript's session id).
    pub session_id: String,
    /// Window facts: key, reason, current flag, model.
    pub window: DbWindow,
    /// Number of `transcript_events` rows.
    pub event_count: usize,
}

struct Schema {
    tables: HashSet<String>,
    event_columns: HashSet<String>,
    window_columns: HashSet<String>,
    /// Whether `transcript_events` has rowids (it is not a `WITHOUT ROWID` table).
    events_have_rowid: bool,
    /// The OpenClaw release that last opened the database, read once per connection.
    app_version: Option<String>,
}

impl Schema {
    fn read(conn: &Connection, path: &Path) -> Result<Self, LoadError> {
        let sql = |e| LoadError::sqlite(path, e);
        let mut stmt = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .map_err(sql)?;
        let tables: HashSet<String> = stmt
            .query_map([], |r| r.get(0))
            .map_err(sql)?
            .collect::<Result<_, _>>()
            .map_err(sql)?;
        if !tables.contains("transcript_events") {
            return Err(LoadError::NotAnAgentDatabase { path: path.to_owned() });
        }
        let columns = |table: &str| -> Result<HashSet<String>, LoadError> {
            if !tables.contains(table) {
                return Ok(HashSet::new());
            }
            let mut stmt = conn.prepare(&format!("PRAGMA table_info({table})")).map_err(sql)?;
            stmt.query_map([], |r| r.get::<_, String>(1))
                .map_err(sql)?
                .collect::<Result<_, _>>()
                .map_err(sql)
        };
        let event_columns = columns("transcript_events")?;
        let window_columns = columns("session_windows")?;
        let events_have_rowid = conn.prepare("SELECT rowid FROM transcript_events LIMIT 0").is_ok();
        let app_version = if tables.contains("schema_meta") {
            app_version(conn)
        } else {
            None
        };
        Ok(Self {
            tables,
            event_columns,
            window_columns,
            events_have_rowid,
            app_version,
        })
    }

    fn window_col(&self, name: &str) -> String {
        if self.window_columns.contains(name) {
            name.to_owned()
        } else {
            "NULL".to_owned()
        }
    }
}

/// List every transcript window in the database, current windows first, newest first.
pub fn list_windows(path: &Path) -> Result<Vec<WindowSummary>, LoadError> {
    let conn = open_read_only(path)?;
    list_with(&conn, path)
}

fn list_with(conn: &Connection, path: &Path) -> Result<Vec<WindowSummary>, LoadError> {
    let sql = |e| LoadError::sqlite(path, e);
    let schema = Schema::read(conn, path)?;
    let mut counts: HashMap<String, usize> = HashMap::new();
    {
        let mut stmt = conn
            .prepare("SELECT session_id, COUNT(*) FROM transcript_events GROUP BY session_id")
            .map_err(sql)?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
            .map_err(sql)?;
        for row in rows {
            let (id, n) = row.map_err(sql)?;
            counts.insert(id, n.max(0) as usize);
        }
    }
    let mut current_of_key: HashMap<String, String> = HashMap::new();
    let mut node_updated: HashMap<String, i64> = HashMap::new();
    if schema.tables.contains("session_nodes") {
        let mut stmt = conn
            .prepare("SELECT session_key, current_session_id, updated_at FROM session_nodes")
            .map_err(sql)?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                ))
            })
            .map_err(sql)?;
        for row in rows {
            let (key, current, updated) = row.map_err(sql)?;
            if let Some(c) = current {
                current_of_key.insert(key.clone(), c);
            }
            if let Some(u) = updated {
                node_updated.insert(key, u);
            }
        }
    }
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    if schema.tables.contains("session_windows") {
        let q = format!(
            "SELECT session_id, {}, {}, {}, {}, {}, {}, {} FROM session_windows",
            schema.window_col("session_key"),
            schema.window_col("reason"),
            schema.window_col("model_provider"),
            schema.window_col("model"),
            schema.window_col("updated_at"),
            schema.window_col("created_at"),
            schema.window_col("previous_session_id"),
        );
        let mut stmt = conn.prepare(&q).map_err(sql)?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, Option<i64>>(5)?,
                    r.get::<_, Option<i64>>(6)?,
                    r.get::<_, Option<String>>(7)?,
                ))
            })
            .map_err(sql)?;
        let mut windows = Vec::new();
        for row in rows {
            windows.push(row.map_err(sql)?);
        }
        // Without session_nodes, the current window of a key is the one no later window
        // names as its predecessor (the newest by creation when several are).
        let superseded: HashSet<String> = windows.iter().filter_map(|w| w.7.clone()).collect();
        let mut newest_of_key: HashMap<String, (i64, String)> = HashMap::new();
        for (id, key, _, _, _, _, created, _) in &windows {
            if superseded.contains(id) {
                continue;
            }
            if let Some(k) = key {
                let c = created.unwrap_or(0);
                let slot = newest_of_key.entry(k.clone()).or_insert((c, id.clone()));
                if c > slot.0 {
                    *slot = (c, id.clone());
                }
            }
        }
        for (id, key, reason, provider, model, updated, _, _) in windows {
            let current = match &key {
                Some(k) => match current_of_key.get(k) {
                    Some(c) => *c == id,
                    None => newest_of_key.get(k).is_some_and(|(_, n)| *n == id),
                },
                None => true,
            };
            let updated = key
                .as_ref()
                .and_then(|k| if current { node_updated.get(k).copied() } else { None })
                .or(updated);
            seen.insert(id.clone());
            out.push(WindowSummary {
                event_count: counts.get(&id).copied().unwrap_or(0),
                session_id: id,
                window: DbWindow {
                    session_key: key,
                    reason,
                    current,
                    model_provider: provider,
                    model,
                    updated_at_ms: updated,
                },
            });
        }
    }
    for (id, n) in &counts {
        if !seen.contains(id) {
            out.push(WindowSummary {
                session_id: id.clone(),
                window: DbWindow {
                    current: true,
                    ..DbWindow::default()
                },
                event_count: *n,
            });
        }
    }
    out.sort_by(|a, b| {
        b.window
            .current
            .cmp(&a.window.current)
            .then(b.window.updated_at_ms.cmp(&a.window.updated_at_ms))
            .then(a.session_id.cmp(&b.session_id))
    });
    Ok(out)
}

/// Load one session from a database: `select` is a window id, a session key (its current
/// window) or a unique prefix of a window id; `None` picks the most recent current window.
pub fn load_sqlite(path: &Path, select: Option<&str>) -> Result<Session, LoadError> {
    let conn = open_read_only(path)?;
    let windows = list_with(&conn, path)?;
    let chosen = match select {
        None => windows.first(),
        Some(sel) => windows
            .iter()
            .find(|w| w.session_id == sel)
            .or_else(|| {
                windows
                    .iter()
                    .find(|w| w.window.current && w.window.session_key.as_deref() == Some(sel))
            })
            .or_else(|| {
                let mut prefixed = windows.iter().filter(|w| w.session_id.starts_with(sel));
                match (prefixed.next(), prefixed.next()) {
                    (Some(w), None) => Some(w),
                    _ => None,
                }
            }),
    };
    let Some(chosen) = chosen else {
        return Err(match select {
            Some(id) => LoadError::NoSuchSession {
                path: path.to_owned(),
                id: id.to_owned(),
            },
            None => LoadError::Empty { path: path.to_owned() },
        });
    };
    let schema = Schema::read(&conn, path)?;
    load_window(&conn, &schema, path, chosen)
}

/// A database window and the result of loading it.
pub type LoadedWindow = (WindowSummary, Result<Session, LoadError>);

/// Load every window of a database over one connection, listing the windows once.
/// The outer error means the database itself is unusable; each window has its own result.
pub fn load_all_windows(path: &Path) -> Result<Vec<LoadedWindow>, LoadError> {
    let conn = open_read_only(path)?;
    let windows = list_with(&conn, path)?;
    let schema = Schema::read(&conn, path)?;
    Ok(windows
        .into_iter()
        .map(|w| {
            let session = load_window(&conn, &schema, path, &w);
            (w, session)
        })
        .collect())
}

fn load_window(
    conn: &ReadConnection,
    schema: &Schema,
    path: &Path,
    window: &WindowSummary,
) -> Result<Session, LoadError> {
    let mut builder = Builder::for_events(path, SessionFormat::OpenClawSqlite, window.session_id.clone());
    builder.session_mut().db_window = Some(window.window.clone());
    builder.session_mut().openclaw_version = schema.app_version.clone();
    if conn.rolled_back_hot_journal() {
        builder.push_diagnostic(Diagnostic::note(
            path,
            None,
            "the database has a hot rollback journal (a writer stopped mid-transaction): it was read as of its last committed transaction, from a private copy; the database and its journal are unchanged",
        ));
    }
    read_cold_archive(conn, schema, path, &window.session_id, &mut builder)?;
    events::read_events(conn, schema, path, &window.session_id, &mut builder)?;
    builder.finish()
}

/// The OpenClaw release that last opened the database (`schema_meta.app_version`, the
/// `primary` row first); `None` when the table or the value is missing.
fn app_version(conn: &Connection) -> Option<String> {
    conn.query_row(
        "SELECT app_version FROM schema_meta WHERE app_version IS NOT NULL \
         ORDER BY meta_key = 'primary' DESC, updated_at DESC LIMIT 1",
        [],
        |row| row.get::<_, String>(0),
    )
    .ok()
}

/// Events moved to cold storage are no longer in `transcript_events`: read them first.
fn read_cold_archive(
    conn: &Connection,
    schema: &Schema,
    path: &Path,
    session_id: &str,
    builder: &mut Builder<'_>,
) -> Result<(), LoadError> {
    if !schema.tables.contains("session_transcript_cold_archives") {
        return Ok(());
    }
    let sql = |e| LoadError::sqlite(path, e);
    let row = conn
        .query_row(
            "SELECT archive_name, storage, archive_blob FROM session_transcript_cold_archives WHERE session_id = ?1",
            params![session_id],
            |r| {
                Ok((
                    r.get::<_, Option<String>>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, Option<Vec<u8>>>(2)?,
                ))
            },
        )
        .optional()
        .map_err(sql)?;
    let Some((name, storage, blob)) = row else {
        return Ok(());
    };
    let archive_path: PathBuf = match (&storage, &name) {
        (Some(s), Some(n)) if s == "file" => path
            .parent()
            .and_then(Path::parent)
            .map(|agent| agent.join("sessions").join("cold").join(n))
            .unwrap_or_default(),
        _ => PathBuf::new(),
    };
    let reader: Box<dyn Read> = match blob {
        Some(b) => Box::new(std::io::Cursor::new(b)),
        None => match std::fs::File::open(&archive_path) {
            Ok(f) => Box::new(f),
            Err(e) => {
                builder.push_diagnostic(Diagnostic::skipped(
                    path,
                    None,
                    format!("the cold archive of session {session_id} ({}) cannot be read: {e}; its older events are missing", archive_path.display()),
                ));
                return Ok(());
            }
        },
    };
    // The archive is as untrusted as the database: bounded like a `.zst` session file.
    let (reader, consumed) = crate::load::limits::Counted::new(BufReader::new(reader));
    match zstd::Decoder::with_buffer(reader) {
        Ok(dec) => {
            let mut line_no = 0;
            let mut buf = String::new();
            let limits = crate::load::limits::Limits::default();
            let dec = crate::load::limits::Expanding::new(dec, consumed);
            let mut r = BufReader::new(crate::load::limits::Capped::new(dec, limits.max_document_bytes));
            loop {
                buf.clear();
                match std::io::BufRead::read_line(&mut r, &mut buf) {
                    Ok(0) => break,
                    Ok(_) => {
                        line_no += 1;
                        let line = buf.trim_end();
                        if line.is_empty() {
                            continue;
                        }
                        match parse_value(line.as_bytes()) {
                            Ok(v) => builder.push_value(Location::Line(line_no), v),
                            Err(e) => builder.push_diagnostic(Diagnostic::skipped(
                                path,
                                Some(Location::Line(line_no)),
                                format!("cold archive line is not valid JSON ({e})"),
                            )),
                        }
                    }
                    Err(e) => {
                        let why = match crate::load::limits::read_error(&archive_path, e, &limits) {
                            LoadError::Io { source, .. } => format!("is damaged: {source}"),
                            refused => format!("cannot be read: {refused}"),
                        };
                        builder.push_diagnostic(Diagnostic::skipped(
                            path,
                            None,
                            format!("the cold archive of session {session_id} {why}; its older events are missing"),
                        ));
                        break;
                    }
                }
            }
        }
        Err(e) => builder.push_diagnostic(Diagnostic::skipped(
            path,
            None,
            format!("the cold archive of session {session_id} is not zstd: {e}"),
        )),
    }
    Ok(())
}
