//! Opening an OpenClaw database so that reading never writes: nothing is created or changed
//! beside it, a read-only folder works, and a write-ahead log with commits is read from a
//! private snapshot.

use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use crate::load::error::LoadError;

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
        super::private_copies::unregister(&self.folder);
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
    static SWEPT: std::sync::Once = std::sync::Once::new();
    let base = std::env::temp_dir();
    SWEPT.call_once(|| super::private_copies::sweep_stale(&base));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let folder = base.join(format!(
            "{}{}-{nanos:x}-{n}",
            super::private_copies::PREFIX,
            std::process::id()
        ));
        match std::fs::DirBuilder::new().mode(0o700).create(&folder) {
            Ok(()) => {
                super::private_copies::register(&folder);
                return Ok(folder);
            }
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
