//! Loaders for the session files users have, one module per format, with the format
//! detected from content (the first line), not from the file name.

pub mod claude_code;
pub mod codex;
pub mod discover;
pub mod error;
pub mod foreign;
pub mod json_parse;
pub mod jsonl;
pub mod limits;
pub mod message_array;
pub(crate) mod note_tally;
pub mod preview;
pub mod progress;
pub mod reproducer;
pub mod session_text;
pub mod sqlite;
pub mod tail;
pub mod watch;

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

pub use error::LoadError;
pub use limits::Limits;

use crate::model::Session;
use limits::Capped;

const SQLITE_MAGIC: &[u8] = b"SQLite format 3\0";
const ZSTD_MAGIC: &[u8] = &[0x28, 0xB5, 0x2F, 0xFD];
const READ_BUFFER: usize = 1 << 20;

/// Options for [`load_path`].
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// For a database: the window id, session key or id prefix to load.
    pub session: Option<String>,
    /// Size limits.
    pub limits: Limits,
    /// Told how many bytes of the file have been read, about every MiB.
    pub progress: Option<progress::Progress>,
    /// Given the session read so far once the first entries of a large OpenClaw JSONL file
    /// are parsed (see [`preview`]).
    pub preview: Option<preview::Preview>,
    /// How much of each entry to keep.
    pub keep: Keep,
}

/// How much of each stored entry a load keeps in memory.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Keep {
    /// Every entry exactly as stored: what views, exports, scans and `repair` need.
    #[default]
    Everything,
    /// Only what the stored transcript is built from, for commands that read nothing else
    /// (`replay`, `show`): an OpenClaw `message` entry keeps its message alone (its ids are
    /// read into the entry first; see [`crate::model::Entry::keep_message_only`]); every
    /// other entry is kept whole. The stored transcript, and so the replay, are exactly those
    /// of a full load.
    Transcript,
}

/// What a file holds, judged from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detected {
    /// An SQLite database.
    Sqlite,
    /// A zstd-compressed stream (cold archive, `.jsonl.zst`).
    Zstd,
    /// A single JSON document starting with `[` (message array).
    JsonArray,
    /// Line-oriented JSON (or anything else starting with `{`).
    Jsonl,
}

/// Detect a file's kind from its leading bytes.
pub fn detect(head: &[u8]) -> Detected {
    if head.starts_with(SQLITE_MAGIC) {
        return Detected::Sqlite;
    }
    if head.starts_with(ZSTD_MAGIC) {
        return Detected::Zstd;
    }
    let first = head
        .iter()
        .copied()
        .find(|b| !b.is_ascii_whitespace() && *b != 0xEF && *b != 0xBB && *b != 0xBF);
    if first == Some(b'[') {
        Detected::JsonArray
    } else {
        Detected::Jsonl
    }
}

/// Whether a file is an SQLite database, judged from its first bytes.
pub fn is_database(path: &Path) -> bool {
    // Opening a FIFO for reading blocks until a writer appears: look before opening.
    limits::check_regular(path).is_ok()
        && File::open(path)
            .and_then(|mut f| {
                let mut head = [0u8; 16];
                f.read_exact(&mut head).map(|_| head)
            })
            .is_ok_and(|h| detect(&h) == Detected::Sqlite)
}

/// Load one session from a file of any supported format.
pub fn load_path(path: &Path, options: &LoadOptions) -> Result<Session, LoadError> {
    limits::check_regular(path)?;
    let limits = options.limits;
    let file = File::open(path).map_err(|e| LoadError::io(path, e))?;
    let size = file.metadata().map_err(|e| LoadError::io(path, e))?.len();
    let file = progress::ProgressReader::new(file, options.progress.clone());
    let mut reader = BufReader::with_capacity(READ_BUFFER, file);
    let head = reader.fill_buf().map_err(|e| LoadError::io(path, e))?;
    let kind = detect(head);
    // Uncompressed text is refused by its size before it is read: the document limit holds
    // for every format, not only for what a compressed file expands to.
    if matches!(kind, Detected::JsonArray | Detected::Jsonl) && size > limits.max_document_bytes {
        return Err(LoadError::TooLarge {
            path: path.to_owned(),
            limit_mib: limits.document_mib(),
            compressed: false,
        });
    }
    match kind {
        Detected::Sqlite => {
            drop(reader);
            sqlite::load_sqlite(path, options.session.as_deref())
        }
        Detected::Zstd => {
            // Counts the compressed bytes the decoder consumes, for the expansion guard.
            let (reader, compressed) = limits::Counted::new(reader);
            let decoder = zstd::Decoder::with_buffer(reader).map_err(|e| LoadError::io(path, e))?;
            let capped = Capped::new(limits::Expanding::new(decoder, compressed), limits.max_document_bytes);
            jsonl::load_jsonl_previewed(
                path,
                BufReader::with_capacity(READ_BUFFER, capped),
                &limits,
                options.preview.clone(),
                options.keep,
            )
            .map_err(|e| match e {
                LoadError::TooLarge { path, limit_mib, .. } => LoadError::TooLarge {
                    path,
                    limit_mib,
                    compressed: true,
                },
                other => other,
            })
        }
        Detected::JsonArray => {
            let bytes = read_document(path, reader, size, &limits)?;
            message_array::load_message_array_owned(path, bytes)
        }
        Detected::Jsonl => {
            if starts_as_document(head) {
                let bytes = read_document(path, reader, size, &limits)?;
                return message_array::load_message_array_owned(path, bytes);
            }
            // A file growing past the limit while it is read is refused too.
            // (Counted as it is consumed: no second buffer.)
            let reader = Capped::new(reader, limits.max_document_bytes);
            jsonl::load_jsonl_previewed(path, reader, &limits, options.preview.clone(), options.keep)
        }
    }
}

/// Whether a file that starts with `{` is one JSON document rather than lines: its first
/// line holds the opening brace alone (a pretty-printed message array object).
pub(crate) fn starts_as_document(head: &[u8]) -> bool {
    let Some(end) = head.iter().position(|b| *b == b'\n') else {
        return false;
    };
    head[..end].iter().filter(|b| !b.is_ascii_whitespace()).eq(b"{".iter())
}

/// Map another agent's stored entries into the common model (`session.mapped`).
pub(crate) fn map_foreign(session: &mut Session) {
    match session.format {
        crate::model::SessionFormat::CodexRollout => codex::map(session),
        _ => claude_code::map(session),
    }
}

/// Read a whole single-document file, within the document limit.
/// The buffer is sized from the file once (`size`): growing it by doubling would hold the old
/// and the new buffer at once, half again the file's size.
fn read_document(path: &Path, reader: impl Read, size: u64, limits: &Limits) -> Result<Vec<u8>, LoadError> {
    let capacity = size.min(limits.max_document_bytes).saturating_add(1);
    let mut bytes = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
    Capped::new(reader, limits.max_document_bytes)
        .read_to_end(&mut bytes)
        .map_err(|e| limits::read_error(path, e, limits))?;
    Ok(bytes)
}
