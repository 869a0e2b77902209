//! OpenClaw per-agent SQLite database (`openclaw-agent.sqlite`, session-formats §1.2).
//!
//! The database is opened read-only and never written, and no file beside it is created or
//! changed (see [`open_read_only`]); it can be read while the Gateway holds it in WAL mode,
//! and from a read-only folder. Columns are discovered with `PRAGMA table_info`, so databases
//! from before schema 23 (no `event_zstd`) and trimmed imports (no `session_nodes`) both work.

use std::collections::{HashMap, HashSet};
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use super::error::LoadError;
use super::json_parse::parse_value;
use super::jsonl::Builder;
use crate::model::{DbWindow, Diagnostic, Location, Session, SessionFormat};

/// Largest decoded event accepted from one `event_zstd` row (OpenClaw compresses ≤ 4 MiB).
const MAX_EVENT_BYTES: usize = 256 * 1024 * 1024;

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

/// A read-only connection to a database, or to a private snapshot of it (see
/// [`open_read_only`]); the snapshot's folder is removed when this is dropped.
pub struct ReadConnection {
    // Declared first, so it is closed before the snapshot's files are removed.
    conn: Connection,
    _snapshot: Option<WalSnapshot>,
}

impl std::ops::Deref for ReadConnection {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        &self.conn
    }
}

/// Size of a WAL file's header; frames follow it.
const WAL_HEADER_BYTES: u64 = 32;
/// How often a snapshot is retried when the Gateway restarts its WAL while it is copied.
const SNAPSHOT_ATTEMPTS: usize = 4;

/// Open a database for reading without ever writing: neither the database nor any file
/// beside it is created, changed or locked for writing, a read-only folder is enough, and
/// every committed transaction is read, including those still only in the `-wal` file.
///
/// SQLite alone cannot promise that: a read-only connection to a WAL-mode database creates
/// the `-wal` and `-shm` files when they are missing, writes its read marks (or a rebuilt
/// index) into the `-shm`, and cannot open the database at all in a read-only folder that
/// lacks them; `immutable=1`, which touches nothing, ignores the `-wal` file. So the journal
/// beside the database decides:
///
/// - a `-wal` file with frames (the Gateway is running, or stopped before checkpointing):
///   the database and its `-wal` are copied into a private folder (mode 0700 under the
///   temporary directory, `$TMPDIR`) and the copy is opened read-only; SQLite's recovery of
///   the copied log reads every committed transaction and ignores a half-written tail. The
///   log's salt is checked around the copy: a log restarted meanwhile means the copy may mix
///   generations, so it is taken again. Pages a concurrent checkpoint writes into the
///   database during the copy come from frames the later copy of the log still holds, so
///   the snapshot is consistent. The copy costs one read of the database.
/// - a WAL-mode database without frames to read (no `-wal`, an empty one, or only its
///   header): everything committed is in the database file, which is opened with
///   `mode=ro&immutable=1` (no lock, no side file). A writer that commits after this check
///   is not waited for: its commits are not seen, and a checkpoint it runs while the read is
///   under way (SQLite's automatic one comes after about a thousand pages) could show the
///   read a page being rewritten. Reads are short, so this is left as a known limit;
/// - a `-wal` file that disappears, is emptied or restarts while it is copied: the choice is
///   made again (a few times);
/// - a rollback-journal database: opened with `mode=ro`, which takes only shared locks
///   (waiting up to 5 s for a writer) and creates nothing.
pub fn open_read_only(path: &Path) -> Result<ReadConnection, LoadError> {
    let wal = side_file(path, "-wal");
    for _ in 0..SNAPSHOT_ATTEMPTS {
        let wal_len = match std::fs::metadata(&wal) {
            Ok(m) => Some(m.len()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(LoadError::io(&wal, e)),
        };
        let query = match wal_len {
            Some(len) if len > WAL_HEADER_BYTES => {
                let Some(snapshot) = WalSnapshot::take(path, &wal)? else {
                    continue;
                };
                let conn = open_uri(&snapshot.db, "mode=ro").map_err(|e| LoadError::sqlite(path, e))?;
                return Ok(ReadConnection {
                    conn,
                    _snapshot: Some(snapshot),
                });
            }
            Some(_) => "mode=ro&immutable=1",
            None if is_wal_mode(path)? => "mode=ro&immutable=1",
            None => "mode=ro",
        };
        let conn = open_uri(path, query).map_err(|e| LoadError::sqlite(path, e))?;
        return Ok(ReadConnection { conn, _snapshot: None });
    }
    Err(LoadError::io(
        &wal,
        std::io::Error::other("the write-ahead log was restarted each time it was copied; try again"),
    ))
}

/// `path` with `suffix` appended to its file name (`db.sqlite-wal`).
fn side_file(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Whether the database header says WAL mode (file format versions 2 at offsets 18 and 19).
fn is_wal_mode(path: &Path) -> Result<bool, LoadError> {
    let mut head = [0u8; 20];
    let mut file = std::fs::File::open(path).map_err(|e| LoadError::io(path, e))?;
    match file.read_exact(&mut head) {
        Ok(()) => Ok(head[18] == 2 && head[19] == 2),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
        Err(e) => Err(LoadError::io(path, e)),
    }
}

/// Open `path` read-only through an SQLite URI with `query` (`mode=ro`, `immutable=1`).
fn open_uri(path: &Path, query: &str) -> Result<Connection, rusqlite::Error> {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let absolute = std::path::absolute(path).map_err(|e| {
        rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
            Some(e.to_string()),
        )
    })?;
    // `file://` + an absolute path: an empty authority, then the path with every byte that
    // could end or escape it percent-encoded (`?`, `#`, `%`, spaces, non-ASCII).
    let mut uri = b"file://".to_vec();
    for &b in absolute.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(b);
        } else {
            uri.extend_from_slice(format!("%{b:02X}").as_bytes());
        }
    }
    uri.push(b'?');
    uri.extend_from_slice(query.as_bytes());
    let uri = PathBuf::from(std::ffi::OsString::from_vec(uri));
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(uri, flags)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(conn)
}

/// A private copy of a database and its `-wal` file, removed on drop.
struct WalSnapshot {
    folder: PathBuf,
    db: PathBuf,
}

impl WalSnapshot {
    /// Copy the database, then its log; `None` when the log was restarted meanwhile.
    fn take(path: &Path, wal: &Path) -> Result<Option<Self>, LoadError> {
        let salt = match wal_salt(wal) {
            Ok(salt) => salt,
            Err(e) if is_gone(&e) => return Ok(None),
            Err(e) => return Err(LoadError::io(wal, e)),
        };
        let folder = private_folder().map_err(|e| snapshot_error(path, None, e))?;
        let snapshot = Self {
            db: folder.join("db.sqlite"),
            folder,
        };
        let copy = |from: &Path, to: &Path| -> Result<bool, LoadError> {
            use std::os::unix::fs::OpenOptionsExt;
            let mut source = match std::fs::File::open(from) {
                Ok(file) => file,
                Err(e) if is_gone(&e) && from == wal => return Ok(false),
                Err(e) => return Err(LoadError::io(from, e)),
            };
            let mut target = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(to)
                .map_err(|e| snapshot_error(path, Some(&snapshot.folder), e))?;
            std::io::copy(&mut source, &mut target)
                .map(|_| true)
                .map_err(|e| snapshot_error(path, Some(&snapshot.folder), e))
        };
        copy(path, &snapshot.db)?;
        let wal_copy = side_file(&snapshot.db, "-wal");
        if !copy(wal, &wal_copy)? {
            return Ok(None);
        }
        match wal_salt(&wal_copy) {
            Ok(copied) => Ok((copied == salt).then_some(snapshot)),
            Err(e) if is_gone(&e) => Ok(None),
            Err(e) => Err(snapshot_error(path, Some(&snapshot.folder), e)),
        }
    }
}

impl Drop for WalSnapshot {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// The salts of a WAL header (bytes 16..24): they change whenever the log restarts.
fn wal_salt(wal: &Path) -> std::io::Result<[u8; 8]> {
    let mut head = [0u8; WAL_HEADER_BYTES as usize];
    std::fs::File::open(wal)?.read_exact(&mut head)?;
    let mut salt = [0u8; 8];
    salt.copy_from_slice(&head[16..24]);
    Ok(salt)
}

/// A `-wal` file removed or emptied by its writer (a checkpoint on close, `TRUNCATE`).
fn is_gone(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::UnexpectedEof
    )
}

/// A new folder only this user can enter, under the temporary directory.
fn private_folder() -> std::io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let base = std::env::temp_dir();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let folder = base.join(format!("replaylens-db-{}-{nanos:x}-{n}", std::process::id()));
        match std::fs::DirBuilder::new().mode(0o700).create(&folder) {
            Ok(()) => return Ok(folder),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => {}
            Err(e) => return Err(e),
        }
    }
}

/// A snapshot that could not be written (the temporary directory is full or unwritable).
fn snapshot_error(path: &Path, folder: Option<&Path>, e: std::io::Error) -> LoadError {
    let folder = folder.map_or_else(std::env::temp_dir, Path::to_owned);
    LoadError::io(
        path,
        std::io::Error::new(
            e.kind(),
            format!(
                "its write-ahead log is read from a private copy, and copying it to {} failed: {e}",
                folder.display()
            ),
        ),
    )
}

struct Schema {
    tables: HashSet<String>,
    event_columns: HashSet<String>,
    window_columns: HashSet<String>,
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
        Ok(Self {
            tables,
            event_columns,
            window_columns,
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

fn load_window(conn: &Connection, schema: &Schema, path: &Path, window: &WindowSummary) -> Result<Session, LoadError> {
    let mut builder = Builder::for_events(path, SessionFormat::OpenClawSqlite, window.session_id.clone());
    builder.session_mut().db_window = Some(window.window.clone());
    read_cold_archive(conn, schema, path, &window.session_id, &mut builder)?;
    read_events(conn, schema, path, &window.session_id, &mut builder)?;
    builder.finish()
}

fn read_events(
    conn: &Connection,
    schema: &Schema,
    path: &Path,
    session_id: &str,
    builder: &mut Builder<'_>,
) -> Result<(), LoadError> {
    let sql = |e| LoadError::sqlite(path, e);
    let col = |name: &'static str| {
        if schema.event_columns.contains(name) {
            name
        } else {
            "NULL"
        }
    };
    let q = format!(
        "SELECT seq, {}, {}, {} FROM transcript_events WHERE session_id = ?1 ORDER BY seq",
        col("event_json"),
        col("event_zstd"),
        col("event_utf8_bytes")
    );
    let mut stmt = conn.prepare(&q).map_err(sql)?;
    let mut rows = stmt.query(params![session_id]).map_err(sql)?;
    while let Some(row) = rows.next().map_err(sql)? {
        let seq: i64 = row.get(0).map_err(sql)?;
        let loc = Location::Seq(seq);
        let json: Option<String> = row.get(1).map_err(sql)?;
        let blob: Option<Vec<u8>> = row.get(2).map_err(sql)?;
        let declared: Option<i64> = row.get(3).map_err(sql)?;
        let text = match (json.filter(|j| !j.is_empty()), blob) {
            (Some(j), _) => j,
            (None, Some(blob)) => match decode_zstd(&blob, declared) {
                Ok((text, warning)) => {
                    if let Some(w) = warning {
                        builder.push_diagnostic(Diagnostic::warning(path, Some(loc), w));
                    }
                    text
                }
                Err(reason) => {
                    builder.push_diagnostic(Diagnostic::skipped(
                        path,
                        Some(loc),
                        format!("event_zstd of session {session_id} cannot be decoded: {reason}"),
                    ));
                    continue;
                }
            },
            (None, None) => {
                builder.push_diagnostic(Diagnostic::skipped(
                    path,
                    Some(loc),
                    format!("row of session {session_id} has neither event_json nor event_zstd"),
                ));
                continue;
            }
        };
        match parse_value(text.as_bytes()) {
            Ok(v) => builder.push_value(loc, v),
            Err(e) => builder.push_diagnostic(Diagnostic::skipped(
                path,
                Some(loc),
                format!("event of session {session_id} is not valid JSON ({e})"),
            )),
        }
    }
    Ok(())
}

/// Decode one `event_zstd` blob, checking `event_utf8_bytes`: the event text and a warning when
/// the declared size differs, or why it cannot be decoded (the fuzz target `sqlite_payload`
/// calls it directly).
pub fn decode_zstd(blob: &[u8], declared: Option<i64>) -> Result<(String, Option<String>), String> {
    let cap = declared
        .and_then(|d| usize::try_from(d).ok())
        .filter(|d| *d <= MAX_EVENT_BYTES);
    let bytes = match cap.map(|c| zstd::bulk::decompress(blob, c.max(1))) {
        Some(Ok(bytes)) => bytes,
        _ => {
            let mut out = Vec::new();
            let decoder = zstd::Decoder::new(blob).map_err(|e| e.to_string())?;
            decoder
                .take(MAX_EVENT_BYTES as u64 + 1)
                .read_to_end(&mut out)
                .map_err(|e| e.to_string())?;
            if out.len() > MAX_EVENT_BYTES {
                return Err(format!("decoded event exceeds {MAX_EVENT_BYTES} bytes"));
            }
            out
        }
    };
    let warning = match declared {
        Some(d) if d != bytes.len() as i64 => Some(format!(
            "event_utf8_bytes says {d} but the event decodes to {} bytes",
            bytes.len()
        )),
        _ => None,
    };
    let text = String::from_utf8(bytes).map_err(|_| "the decoded event is not UTF-8".to_owned())?;
    Ok((text, warning))
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
    match zstd::Decoder::new(reader) {
        Ok(dec) => {
            let mut line_no = 0;
            let mut buf = String::new();
            let mut r = BufReader::new(dec);
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
                        builder.push_diagnostic(Diagnostic::skipped(
                            path,
                            None,
                            format!("the cold archive of session {session_id} is damaged: {e}"),
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
