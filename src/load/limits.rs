//! Size limits on what a session file can make replaylens hold in memory: a hostile file (a
//! zstd bomb, a symlink to `/dev/zero`, one endless line) ends in a one-sentence error, never in
//! an allocation failure.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use super::LoadError;

const MIB: u64 = 1 << 20;

/// The limits of one load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest JSONL line, in bytes (`--max-line-mb`).
    pub max_line_bytes: u64,
    /// The most bytes a compressed session may expand to, and the largest single-document JSON
    /// file (`--max-decompressed-mb`).
    pub max_document_bytes: u64,
}

impl Default for Limits {
    /// 256 MiB lines, 2 GiB documents: far above real sessions (a line holding a few
    /// screenshots is tens of MB), well below a machine's memory.
    fn default() -> Self {
        Self {
            max_line_bytes: 256 * MIB,
            max_document_bytes: 2048 * MIB,
        }
    }
}

impl Limits {
    /// Limits in MiB, as the command-line flags give them.
    pub fn from_mib(max_line_mib: u64, max_document_mib: u64) -> Self {
        Self {
            max_line_bytes: max_line_mib.saturating_mul(MIB),
            max_document_bytes: max_document_mib.saturating_mul(MIB),
        }
    }

    /// The line limit in MiB.
    pub fn line_mib(&self) -> u64 {
        self.max_line_bytes / MIB
    }

    /// The document limit in MiB.
    pub fn document_mib(&self) -> u64 {
        self.max_document_bytes / MIB
    }
}

/// Refuse anything but a regular file (after following symlinks): reading a FIFO blocks
/// forever, a device never ends.
pub fn check_regular(path: &Path) -> Result<(), LoadError> {
    use std::os::unix::fs::FileTypeExt;
    let meta = fs::metadata(path).map_err(|e| LoadError::io(path, e))?;
    let t = meta.file_type();
    let kind = if t.is_file() {
        return Ok(());
    } else if t.is_dir() {
        // A folder listed because it could not be searched: name why.
        if let Err(e) = fs::read_dir(path) {
            return Err(LoadError::io(path, e));
        }
        "a folder"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    };
    Err(LoadError::NotRegular {
        path: path.to_owned(),
        kind,
    })
}

/// The error a [`Capped`] reader raises when its limit is passed.
#[derive(Debug, thiserror::Error)]
#[error("more than {0} bytes")]
pub struct OverLimit(pub u64);

/// A reader that fails with [`OverLimit`] once more than `limit` bytes came through.
pub struct Capped<R> {
    inner: R,
    limit: u64,
    seen: u64,
}

impl<R> Capped<R> {
    /// Wrap `inner`.
    pub fn new(inner: R, limit: u64) -> Self {
        Self { inner, limit, seen: 0 }
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.seen += n as u64;
        if self.seen > self.limit {
            return Err(io::Error::other(OverLimit(self.limit)));
        }
        Ok(n)
    }
}

/// Whether an I/O error is a [`Capped`] reader's limit.
pub fn is_over_limit(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<OverLimit>())
}

/// The load error for a failed read: [`LoadError::TooLarge`] for a passed limit, else I/O.
pub fn read_error(path: &Path, e: io::Error, limits: &Limits) -> LoadError {
    if is_over_limit(&e) {
        LoadError::TooLarge {
            path: path.to_owned(),
            limit_mib: limits.document_mib(),
            compressed: false,
        }
    } else {
        LoadError::io(path, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_reader_stops_past_its_limit() {
        let mut ok = Capped::new(&b"12345"[..], 5);
        let mut out = Vec::new();
        assert_eq!(ok.read_to_end(&mut out).unwrap(), 5);
        let mut over = Capped::new(&b"123456"[..], 5);
        let err = over.read_to_end(&mut Vec::new()).unwrap_err();
        assert!(is_over_limit(&err));
    }

    #[test]
    fn only_regular_files_pass() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            check_regular(dir.path()),
            Err(LoadError::NotRegular { kind: "a folder", .. })
        ));
        assert!(matches!(
            check_regular(Path::new("/dev/zero")),
            Err(LoadError::NotRegular {
                kind: "a character device",
                ..
            })
        ));
        let file = dir.path().join("s.jsonl");
        fs::write(&file, "{}\n").unwrap();
        assert!(check_regular(&file).is_ok());
    }
}
