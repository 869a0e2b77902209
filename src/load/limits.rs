//! Size limits on what a session file can make replaylens hold in memory: a hostile file (a
//! zstd bomb, a symlink to `/dev/zero`, one endless line) ends in a one-sentence error, never in
//! an allocation failure.

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use super::LoadError;

const MIB: u64 = 1 << 20;

/// The default document limit in MiB (`--max-decompressed-mb`).
pub const DEFAULT_DOCUMENT_MIB: u64 = 256;

/// How many times its compressed size a compressed session may expand to. Real sessions
/// compress 5 to 50 times (a session repeating one screenshot about 100 times); a file that
/// expands more is built to exhaust memory (353 KB of zstd holding 4 GB of lines).
pub const MAX_EXPANSION: u64 = 1_000;

/// Decompressed bytes read before the expansion is judged: a small file may compress well.
pub const EXPANSION_JUDGED_AFTER: u64 = 32 * MIB;

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
    /// 256 MiB lines and 256 MiB documents: far above real sessions (the largest are about
    /// 100 MB; a line holding a few screenshots is tens of MB). Memory follows the document
    /// limit, not the file: 256 MiB of short JSON lines take about 1 GiB once loaded (3.6×), so
    /// a compressed file cannot make a load use more than that.
    fn default() -> Self {
        Self {
            max_line_bytes: 256 * MIB,
            max_document_bytes: DEFAULT_DOCUMENT_MIB * MIB,
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

/// What a file that is not a regular file is, for a sentence ("a FIFO", "a folder", …);
/// `None` for a regular file.
pub fn special_kind(t: &fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    Some(if t.is_file() {
        return None;
    } else if t.is_dir() {
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
    })
}

/// Refuse anything but a regular file (after following symlinks): reading a FIFO blocks
/// forever, a device never ends.
pub fn check_regular(path: &Path) -> Result<(), LoadError> {
    let meta = fs::metadata(path).map_err(|e| LoadError::io(path, e))?;
    let t = meta.file_type();
    let Some(kind) = special_kind(&t) else {
        return Ok(());
    };
    // A folder listed because it could not be searched: name why.
    if t.is_dir()
        && let Err(e) = fs::read_dir(path)
    {
        return Err(LoadError::io(path, e));
    }
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

/// A buffered reader stays one buffer: its bytes are counted as they are consumed, and the
/// next fill past the limit fails.
impl<R: io::BufRead> io::BufRead for Capped<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.seen > self.limit {
            return Err(io::Error::other(OverLimit(self.limit)));
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.seen += amount as u64;
        self.inner.consume(amount);
    }
}

/// The error an [`Expanding`] reader raises for a decompression bomb: compressed bytes read
/// and what they had become.
#[derive(Debug, thiserror::Error)]
#[error("{compressed} bytes had become {decompressed}")]
pub struct Bomb {
    /// Compressed bytes read.
    pub compressed: u64,
    /// Decompressed bytes produced from them.
    pub decompressed: u64,
}

/// Counts the bytes a decoder consumes from a buffered reader (not what the buffer read
/// ahead), into a counter an [`Expanding`] reader watches.
pub struct Counted<R> {
    inner: R,
    count: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl<R> Counted<R> {
    /// Wrap `inner`; the counter is what [`Expanding::new`] takes.
    pub fn new(inner: R) -> (Self, std::sync::Arc<std::sync::atomic::AtomicU64>) {
        let count = std::sync::Arc::default();
        (
            Self {
                inner,
                count: std::sync::Arc::clone(&count),
            },
            count,
        )
    }

    fn add(&self, n: usize) {
        self.count.fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.add(n);
        Ok(n)
    }
}

impl<R: io::BufRead> io::BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.add(amt);
        self.inner.consume(amt);
    }
}

/// A decompressed stream that fails with [`Bomb`] once it has expanded more than
/// [`MAX_EXPANSION`] times the compressed bytes read (judged after the first 32 MiB), long
/// before the document limit: the load stops at a few hundred MB of memory, not gigabytes.
pub struct Expanding<R> {
    inner: R,
    compressed: std::sync::Arc<std::sync::atomic::AtomicU64>,
    out: u64,
}

impl<R> Expanding<R> {
    /// Watch `inner`, the decompression of the bytes [`Counted`] counts into `compressed`.
    pub fn new(inner: R, compressed: std::sync::Arc<std::sync::atomic::AtomicU64>) -> Self {
        Self {
            inner,
            compressed,
            out: 0,
        }
    }
}

impl<R: Read> Read for Expanding<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.out += n as u64;
        if self.out > EXPANSION_JUDGED_AFTER {
            let compressed = self.compressed.load(std::sync::atomic::Ordering::Relaxed).max(1);
            if self.out / compressed > MAX_EXPANSION {
                return Err(io::Error::other(Bomb {
                    compressed,
                    decompressed: self.out,
                }));
            }
        }
        Ok(n)
    }
}

/// Whether an I/O error is a [`Capped`] reader's limit.
pub fn is_over_limit(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<OverLimit>())
}

/// The load error for a failed read: [`LoadError::TooLarge`] for a passed limit,
/// [`LoadError::Bomb`] for a decompression bomb, else I/O.
pub fn read_error(path: &Path, e: io::Error, limits: &Limits) -> LoadError {
    if let Some(bomb) = e.get_ref().and_then(|inner| inner.downcast_ref::<Bomb>()) {
        return LoadError::Bomb {
            path: path.to_owned(),
            compressed: bomb.compressed,
            decompressed: bomb.decompressed,
        };
    }
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
    fn a_stream_expanding_a_thousandfold_is_refused_after_32_mib() {
        let plain = vec![b'x'; 40 << 20];
        let packed = zstd::encode_all(&plain[..], 19).unwrap();
        // Counted over the whole buffer: only what the decoder consumed counts.
        let (counted, n) = Counted::new(&packed[..]);
        let mut bomb = Expanding::new(zstd::Decoder::with_buffer(counted).unwrap(), n);
        let err = io::copy(&mut bomb, &mut io::sink()).unwrap_err();
        let b = err.get_ref().unwrap().downcast_ref::<Bomb>().unwrap();
        assert!(b.decompressed > 32 << 20 && b.decompressed <= 40 << 20, "{b:?}");
        let e = read_error(Path::new("s.jsonl.zst"), err, &Limits::default());
        assert!(matches!(e, LoadError::Bomb { .. }), "{e}");
        // Ordinary text expands a few times: read to the end.
        let text: Vec<u8> = (0..400_000u32)
            .flat_map(|i| format!("{{\"n\":{i}}}\n").into_bytes())
            .collect();
        let packed = zstd::encode_all(&text[..], 3).unwrap();
        let (counted, n) = Counted::new(&packed[..]);
        let mut fine = Expanding::new(zstd::Decoder::with_buffer(counted).unwrap(), n);
        assert_eq!(io::copy(&mut fine, &mut io::sink()).unwrap(), text.len() as u64);
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
