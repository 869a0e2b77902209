//! The files SQLite keeps beside a database (`-wal`, `-shm`, `-journal`) are read or copied
//! only when they are regular files within [`MAX_COMPANION_BYTES`]: a FIFO planted as the
//! `-journal` would block SQLite's open of it forever, and a link to `/dev/zero` or a sparse
//! file of gigabytes would be copied into the temporary folder until it is full.

use std::io::Read;
use std::path::Path;

use super::open::side_file;
use crate::load::LoadError;
use crate::load::limits::Capped;

/// The largest `-wal` or `-journal` replaylens reads or copies (1 GiB). SQLite checkpoints its
/// log after about a thousand pages (4 MiB), and a journal holds the pages of one transaction,
/// so real ones are a few MiB; only a log no checkpoint could reset for weeks comes near.
pub const MAX_COMPANION_BYTES: u64 = 1 << 30;

/// The side files SQLite may open beside a database.
pub(super) const SUFFIXES: [&str; 3] = ["-wal", "-shm", "-journal"];

/// Refuse the database at `path` when one of its side files exists but is not a regular file
/// (after following links) or is larger than [`MAX_COMPANION_BYTES`]. Nothing is opened: a
/// FIFO is judged by `stat` alone.
pub(super) fn check(path: &Path) -> Result<(), LoadError> {
    for suffix in SUFFIXES {
        let side = side_file(path, suffix);
        match std::fs::metadata(&side) {
            Ok(meta) => judge(&side, &meta)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(LoadError::io(&side, e)),
        }
    }
    Ok(())
}

/// Why `meta` (of the side file `side`) is refused, if it is.
fn judge(side: &Path, meta: &std::fs::Metadata) -> Result<(), LoadError> {
    let Some(kind) = crate::load::limits::special_kind(&meta.file_type()) else {
        if meta.len() <= MAX_COMPANION_BYTES {
            return Ok(());
        }
        return Err(LoadError::Companion {
            path: side.to_owned(),
            why: format!(
                "{} bytes, more than the {} bytes a database's log or journal may be",
                crate::text::thousands(meta.len()),
                crate::text::thousands(MAX_COMPANION_BYTES)
            ),
        });
    };
    Err(LoadError::Companion {
        path: side.to_owned(),
        why: format!("{kind}, not the regular file SQLite keeps beside a database"),
    })
}

/// Open a side file for copying without blocking on a FIFO swapped in after [`check`], judge
/// the opened file itself, and read at most [`MAX_COMPANION_BYTES`] from it (a file growing
/// while it is copied fails the copy instead of filling the disk).
pub(super) fn open(side: &Path) -> std::io::Result<Result<impl Read + use<>, LoadError>> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(side)?;
    let meta = file.metadata()?;
    if let Err(e) = judge(side, &meta) {
        return Ok(Err(e));
    }
    Ok(Ok(Capped::new(file, MAX_COMPANION_BYTES)))
}
