//! Private copies of a database with its `-wal` file or its hot `-journal`, for the cases where
//! SQLite would have to write beside the database to read it (see [`super::open_read_only`]).

use std::io::Read;
use std::path::{Path, PathBuf};

use super::open::{WAL_HEADER_BYTES, side_file};
use crate::load::error::LoadError;

/// A private folder holding a copy of a database (and a side file), removed on drop.
pub(super) struct PrivateCopy {
    folder: PathBuf,
    /// The copy of the database.
    pub(super) db: PathBuf,
}

impl PrivateCopy {
    /// A new private folder with a copy of the database at `path`.
    fn of_database(path: &Path) -> Result<Self, LoadError> {
        let folder = private_folder().map_err(|e| snapshot_error(path, None, e))?;
        let copy = Self {
            db: folder.join("db.sqlite"),
            folder,
        };
        copy.add(path, path, "")?;
        Ok(copy)
    }

    /// Copy `from` (the database at `path`, or a file beside it) into the folder as the
    /// copy's file with `suffix`; `false` when `from` is a side file that is gone.
    fn add(&self, path: &Path, from: &Path, suffix: &str) -> Result<bool, LoadError> {
        use std::os::unix::fs::OpenOptionsExt;
        let mut source: Box<dyn Read> = if from == path {
            Box::new(std::fs::File::open(from).map_err(|e| LoadError::io(from, e))?)
        } else {
            // A side file is judged again once open: it may have been swapped since.
            match super::companions::open(from) {
                Ok(judged) => Box::new(judged?),
                Err(e) if is_gone(&e) => return Ok(false),
                Err(e) => return Err(LoadError::io(from, e)),
            }
        };
        let mut target = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(side_file(&self.db, suffix))
            .map_err(|e| snapshot_error(path, Some(&self.folder), e))?;
        std::io::copy(&mut source, &mut target).map(|_| true).map_err(|e| {
            if crate::load::limits::is_over_limit(&e) {
                LoadError::Companion {
                    path: from.to_owned(),
                    why: "larger than the 1 GiB a database's log or journal may be, grown while it was copied".into(),
                }
            } else {
                snapshot_error(path, Some(&self.folder), e)
            }
        })
    }

    /// Copy the database, then its log; `None` when the log was restarted or removed meanwhile.
    pub(super) fn with_wal(path: &Path, wal: &Path) -> Result<Option<Self>, LoadError> {
        let salt = match wal_salt(wal) {
            Ok(salt) => salt,
            Err(e) if is_gone(&e) => return Ok(None),
            Err(e) => return Err(LoadError::io(wal, e)),
        };
        let copy = Self::of_database(path)?;
        if !copy.add(path, wal, "-wal")? {
            return Ok(None);
        }
        match wal_salt(&side_file(&copy.db, "-wal")) {
            Ok(copied) => Ok((copied == salt).then_some(copy)),
            Err(e) if is_gone(&e) => Ok(None),
            Err(e) => Err(snapshot_error(path, Some(&copy.folder), e)),
        }
    }

    /// Copy the database, then its hot journal; `None` when the journal was rolled back,
    /// removed or changed meanwhile (then the copies may not belong together).
    ///
    /// The database goes first: a writer only changes database pages after their originals
    /// are safely in the journal, so the journal copied afterwards covers every page the
    /// database copy may hold from the unfinished transaction.
    pub(super) fn with_journal(path: &Path, journal: &Path) -> Result<Option<Self>, LoadError> {
        let copy = Self::of_database(path)?;
        if !copy.add(path, journal, "-journal")? {
            return Ok(None);
        }
        let copied = side_file(&copy.db, "-journal");
        let copied_len = std::fs::metadata(&copied)
            .map_err(|e| snapshot_error(path, Some(&copy.folder), e))?
            .len();
        let now_len = match std::fs::metadata(journal) {
            Ok(m) => m.len(),
            Err(e) if is_gone(&e) => return Ok(None),
            Err(e) => return Err(LoadError::io(journal, e)),
        };
        // SQLite's own test: a journal is hot when its first byte is not zero.
        let mut first = [0u8; 1];
        let hot = std::fs::File::open(&copied)
            .and_then(|mut f| f.read_exact(&mut first))
            .is_ok()
            && first[0] != 0;
        Ok((hot && copied_len == now_len).then_some(copy))
    }
}

impl Drop for PrivateCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
        super::private_copies::unregister(&self.folder);
    }
}

/// The salts of a WAL header (bytes 16..24): they change whenever the log restarts.
fn wal_salt(wal: &Path) -> std::io::Result<[u8; 8]> {
    let mut head = [0u8; WAL_HEADER_BYTES as usize];
    use std::os::unix::fs::OpenOptionsExt;
    // Never blocks: a FIFO swapped in reads as empty, and the next attempt's check refuses it.
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(wal)?;
    file.read_exact(&mut head)?;
    let mut salt = [0u8; 8];
    salt.copy_from_slice(&head[16..24]);
    Ok(salt)
}

/// A side file removed or emptied by its writer (a checkpoint on close, `TRUNCATE`).
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

/// A copy that could not be written (the temporary directory is full or unwritable).
fn snapshot_error(path: &Path, folder: Option<&Path>, e: std::io::Error) -> LoadError {
    let folder = folder.map_or_else(std::env::temp_dir, Path::to_owned);
    LoadError::io(
        path,
        std::io::Error::new(
            e.kind(),
            format!(
                "its write-ahead log or hot journal is read from a private copy, and copying it to {} failed: {e}",
                folder.display()
            ),
        ),
    )
}
