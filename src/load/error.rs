//! Errors that make a session unusable. Each displays as one sentence naming the file.

use std::path::PathBuf;

/// Why a session could not be loaded at all. Problems with single lines or rows are not
/// errors: they are [`crate::model::Diagnostic`]s on the loaded session.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be opened or read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// A known format that replaylens does not read yet.
    #[error("{} is a {format} transcript, which replaylens cannot read yet (it reads OpenClaw and pi session JSONL, OpenClaw SQLite databases and JSON message arrays)", path.display())]
    Unsupported {
        /// The file.
        path: PathBuf,
        /// The format's name, e.g. "Claude Code".
        format: &'static str,
    },
    /// Not a session format at all.
    #[error("{} is not a session file replaylens recognises: {reason}", path.display())]
    Unrecognized {
        /// The file.
        path: PathBuf,
        /// What was found instead.
        reason: String,
    },
    /// A single-document JSON file that does not parse.
    #[error("{} is not valid JSON at line {line}, column {column}: {reason}", path.display())]
    InvalidJson {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        reason: String,
    },
    /// The database could not be opened or queried.
    #[error("cannot read the OpenClaw database {}: {source}", path.display())]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// The SQLite error.
        #[source]
        source: rusqlite::Error,
    },
    /// The database has no transcript tables.
    #[error("{} is an SQLite database but not an OpenClaw agent database (no transcript_events table)", path.display())]
    NotAnAgentDatabase {
        /// The database file.
        path: PathBuf,
    },
    /// `--session` named a session that is not there.
    #[error("{} has no session {id} (`replaylens sessions {}` lists them)", path.display(), path.display())]
    NoSuchSession {
        /// The database file.
        path: PathBuf,
        /// The id or key asked for.
        id: String,
    },
    /// Not a regular file: a FIFO would block forever, a device never ends; a folder holds
    /// sessions, and the message says where a folder can be opened.
    #[error("{}", not_regular(path, kind))]
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is instead, e.g. "a FIFO".
        kind: &'static str,
    },
    /// A line longer than the line limit.
    #[error("{} line {line} is longer than {limit_mib} MiB; pass --max-line-mb to read it anyway", path.display())]
    LineTooLong {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The limit in MiB.
        limit_mib: u64,
    },
    /// A compressed session that expands past the document limit, or a document that large.
    #[error("{} holds more than {limit_mib} MiB of session data{}; pass --max-decompressed-mb to read it anyway", path.display(), if *.compressed { " once decompressed" } else { "" })]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in MiB.
        limit_mib: u64,
        /// Whether the size is the decompressed size of a zstd file.
        compressed: bool,
    },
    /// A compressed session expanding past [`super::limits::MAX_EXPANSION`] times its size.
    #[error("{} expands more than {} times when decompressed ({} read had become {}); refused as a decompression bomb", path.display(), crate::text::thousands(super::limits::MAX_EXPANSION), crate::model::image::human_bytes(usize::try_from(*compressed).unwrap_or(usize::MAX)), crate::model::image::human_bytes(usize::try_from(*decompressed).unwrap_or(usize::MAX)))]
    Bomb {
        /// The file.
        path: PathBuf,
        /// Compressed bytes read.
        compressed: u64,
        /// What they had become.
        decompressed: u64,
    },
    /// A database's `-wal`, `-shm` or `-journal` that is not a regular file within
    /// [`super::sqlite::MAX_COMPANION_BYTES`]: a FIFO would block the read, a device or a sparse
    /// file of gigabytes would fill the temporary folder it is copied to.
    #[error("{} is {why}; the database beside it is not read (remove or move that file)", path.display())]
    Companion {
        /// The side file.
        path: PathBuf,
        /// What is wrong with it, e.g. "a FIFO, not a regular file".
        why: String,
    },
    /// The database or file holds no session at all.
    #[error("{} holds no session", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
}

/// The sentence of [`LoadError::NotRegular`].
fn not_regular(path: &std::path::Path, kind: &str) -> String {
    let shown = path.display();
    if kind == "a folder" {
        format!(
            "{shown} is a folder, not a session file; open it in the inspector (`replaylens {shown}`) or list its sessions with `replaylens sessions {shown}`"
        )
    } else {
        format!("{shown} is {kind}, not a session file; replaylens reads regular files, databases and folders")
    }
}

impl LoadError {
    /// An I/O error on a file.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn sqlite(path: impl Into<PathBuf>, source: rusqlite::Error) -> Self {
        Self::Sqlite {
            path: path.into(),
            source,
        }
    }
}
