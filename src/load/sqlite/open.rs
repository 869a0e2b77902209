//! Opening an OpenClaw database so that reading never writes: nothing is created or changed
//! beside it, a read-only folder works, and a write-ahead log with commits or a hot rollback
//! journal is read from a private snapshot.

use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, ffi};

use super::snapshot::PrivateCopy;
use crate::load::error::LoadError;

/// A read-only connection to a database, or to a private snapshot of it (see
/// [`open_read_only`]); the snapshot's folder is removed when this is dropped.
pub struct ReadConnection {
    // Declared first, so it is closed before the snapshot's files are removed.
    conn: Connection,
    snapshot: Option<(PrivateCopy, Snapshot)>,
}

/// Why a database is read from a private snapshot.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Snapshot {
    /// Its `-wal` file holds frames.
    Wal,
    /// Its `-journal` is hot: a writer stopped mid-transaction.
    HotJournal,
}

impl ReadConnection {
    /// Whether the database had a hot rollback journal, so that what is read is a private
    /// copy rolled back to its last committed transaction.
    pub fn rolled_back_hot_journal(&self) -> bool {
        matches!(self.snapshot, Some((_, Snapshot::HotJournal)))
    }
}

impl std::ops::Deref for ReadConnection {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        &self.conn
    }
}

/// Size of a WAL file's header; frames follow it.
pub(super) const WAL_HEADER_BYTES: u64 = 32;
/// How often a snapshot is retried when the Gateway restarts its WAL, or a writer finishes
/// with its journal, while it is copied.
const SNAPSHOT_ATTEMPTS: usize = 4;

/// Open a database for reading without ever writing (its `-wal`, `-shm` and `-journal` must be
/// regular files within [`super::MAX_COMPANION_BYTES`], see [`super::companions`]): neither the database nor any file
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
///   (waiting up to 5 s for a writer) and creates nothing;
/// - a rollback-journal database with a hot `-journal` (a writer stopped mid-transaction):
///   SQLite must roll the journal back before reading, which a read-only connection cannot
///   (`attempt to write a readonly database`), and `immutable=1` would read the database
///   file as the writer left it, with part of the unfinished transaction in it. So the
///   database, then its journal, are copied into a private folder, and SQLite rolls back the
///   copy: what is read is the last committed transaction. A journal rolled back, removed or
///   changed by another process while it is copied makes the choice be made again.
pub fn open_read_only(path: &Path) -> Result<ReadConnection, LoadError> {
    let wal = side_file(path, "-wal");
    let journal = side_file(path, "-journal");
    for _ in 0..SNAPSHOT_ATTEMPTS {
        super::companions::check(path)?;
        let wal_len = match std::fs::metadata(&wal) {
            Ok(m) => Some(m.len()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(LoadError::io(&wal, e)),
        };
        let query = match wal_len {
            Some(len) if len > WAL_HEADER_BYTES => {
                let Some(copy) = PrivateCopy::with_wal(path, &wal)? else {
                    continue;
                };
                let conn = open_uri(&copy.db, "mode=ro").map_err(|e| LoadError::sqlite(path, e))?;
                return Ok(ReadConnection {
                    conn,
                    snapshot: Some((copy, Snapshot::Wal)),
                });
            }
            Some(_) => "mode=ro&immutable=1",
            None if is_wal_mode(path)? => "mode=ro&immutable=1",
            None => "mode=ro",
        };
        let conn = open_uri(path, query).map_err(|e| LoadError::sqlite(path, e))?;
        if query != "mode=ro" {
            return Ok(ReadConnection { conn, snapshot: None });
        }
        // The first read finds out whether a journal is hot (SQLite's test needs the locks).
        match first_read(&conn) {
            Ok(()) => return Ok(ReadConnection { conn, snapshot: None }),
            Err(e) if e.sqlite_error().map(|e| e.extended_code) == Some(ffi::SQLITE_READONLY_ROLLBACK) => {}
            Err(e) => return Err(LoadError::sqlite(path, e)),
        }
        drop(conn);
        let Some(copy) = PrivateCopy::with_journal(path, &journal)? else {
            continue;
        };
        // The copy is this process's own: SQLite may write it to roll the journal back.
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&copy.db, flags)
            .and_then(|conn| {
                first_read(&conn)?;
                conn.pragma_update(None, "query_only", true)?;
                Ok(conn)
            })
            .map_err(|e| LoadError::sqlite(path, e))?;
        return Ok(ReadConnection {
            conn,
            snapshot: Some((copy, Snapshot::HotJournal)),
        });
    }
    Err(LoadError::io(
        path,
        std::io::Error::other(
            "its write-ahead log or rollback journal changed each time it was copied (a writer is busy); try again",
        ),
    ))
}

/// Read the schema, which takes the shared lock and, in rollback mode, checks the journal.
fn first_read(conn: &Connection) -> rusqlite::Result<()> {
    conn.query_row("SELECT count(*) FROM sqlite_master", [], |_| Ok(()))
}

/// `path` with `suffix` appended to its file name (`db.sqlite-wal`).
pub(super) fn side_file(path: &Path, suffix: &str) -> PathBuf {
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
