//! Reading a session file that an agent keeps appending to, parsing only what was appended.
//!
//! A [`TailReader`] reads a JSONL session (any flavour the loader knows: OpenClaw and pi,
//! Claude Code, Codex) once in full and keeps what it parsed: the loader's state, the byte
//! offset just past the last complete line, the number of lines before it, and enough of the
//! file's identity to tell an append from anything else (device and inode, modification
//! time, and the first and last few KiB before the offset). On the next read, when the file
//! only grew, the complete lines after the offset are parsed and added to that state; the
//! session (its tree, active branch, mapping of another agent's entries) is then built again
//! from the parsed entries, which is linear and cheap next to parsing JSON, so a new branch
//! or a compaction re-projects as a full load would. Line numbers in diagnostics continue
//! from the lines already read.
//!
//! A half-written last line (no newline yet) is left for a later read: the session is always
//! that of the file's complete lines. A file that was truncated, replaced, or rewritten in
//! place (`repair` writes a new file), and anything that is not line-oriented JSON (a
//! database, a compressed archive, a message array), is read in full again with
//! [`load_path`](super::load_path).

use std::fs::{File, Metadata};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::jsonl::{Builder, read_lines_after};
use super::{Detected, LoadError, LoadOptions, READ_BUFFER, detect, limits, load_path, starts_as_document};
use crate::model::Session;

/// How many bytes at the start of the file, and before the offset, must be unchanged for a
/// longer file to count as appended to.
const CHECKED_BYTES: u64 = 4096;

/// Bytes scanned at a time, backwards from the end, to find the last complete line.
const BACK_SCAN: u64 = 64 << 10;

/// How a read went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadKind {
    /// The whole file was read (the first read, or the file was not just appended to).
    Full,
    /// Only the bytes after the previous read were parsed (none when nothing was appended).
    Appended,
}

/// What one [`TailReader::read`] parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadStats {
    /// Whether the file was read in full or only its appended lines.
    pub kind: ReadKind,
    /// Bytes of the file parsed by this read.
    pub bytes: u64,
    /// Lines parsed by this read (0 for a file that is not JSONL, read by the full loader).
    pub lines: usize,
}

/// A session file read incrementally: see the [module documentation](self).
pub struct TailReader {
    path: PathBuf,
    options: LoadOptions,
    state: Option<Parsed>,
}

impl std::fmt::Debug for TailReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TailReader")
            .field("path", &self.path)
            .field("parsed", &self.state.as_ref().map(|p| (p.offset, p.lines)))
            .finish()
    }
}

/// What has been parsed of a JSONL file.
struct Parsed {
    builder: Builder<'static>,
    /// Bytes of complete lines parsed (the offset the next read starts at).
    offset: u64,
    /// Lines parsed.
    lines: usize,
    identity: Identity,
}

/// What must be unchanged for a file to count as the same file, only longer.
#[derive(Debug, PartialEq, Eq)]
struct Identity {
    dev: u64,
    ino: u64,
    modified: Option<SystemTime>,
    head: Vec<u8>,
    before_offset: Vec<u8>,
}

impl Identity {
    /// The identity of `file` as parsed up to `offset`.
    fn of(file: &File, meta: &Metadata, offset: u64) -> std::io::Result<Self> {
        let read = |from: u64, to: u64| -> std::io::Result<Vec<u8>> {
            let mut bytes = vec![0; (to - from) as usize];
            file.read_exact_at(&mut bytes, from)?;
            Ok(bytes)
        };
        Ok(Self {
            dev: meta.dev(),
            ino: meta.ino(),
            modified: meta.modified().ok(),
            head: read(0, offset.min(CHECKED_BYTES))?,
            before_offset: read(offset.saturating_sub(CHECKED_BYTES), offset)?,
        })
    }
}

impl TailReader {
    /// A reader of `path` with these load options (their preview is not used); nothing is
    /// read until [`read`](Self::read).
    pub fn new(path: &Path, options: LoadOptions) -> Self {
        Self {
            path: path.to_owned(),
            options: LoadOptions {
                preview: None,
                ..options
            },
            state: None,
        }
    }

    /// The file read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes of the file's complete lines parsed and kept so far; `None` before the first
    /// read, after a failed one, and for a file that is not JSONL (read whole every time).
    pub fn parsed_bytes(&self) -> Option<u64> {
        self.state.as_ref().map(|p| p.offset)
    }

    /// Forget what was parsed: the next [`read`](Self::read) reads the whole file (after the
    /// follower was told it was truncated or replaced).
    pub fn forget(&mut self) {
        self.state = None;
    }

    /// Read what is new in the file and return the session of its complete lines, with what
    /// this read parsed. After an error, the next read starts over with a full read (an
    /// error of the session alone, such as a file with no entry yet, keeps what was parsed).
    pub fn read(&mut self) -> Result<(Session, ReadStats), LoadError> {
        let stats = match self.read_appended() {
            Ok(Some(stats)) => stats,
            Ok(None) => self.read_full()?,
            Err(e) => {
                self.state = None;
                return Err(e);
            }
        };
        let session = match &self.state {
            Some(parsed) => parsed.builder.clone().finish()?,
            None => load_path(&self.path, &self.options)?,
        };
        Ok((session, stats))
    }

    /// Parse the lines appended since the last read; `None` when the file is not the one
    /// parsed, only longer (or nothing was parsed yet).
    fn read_appended(&mut self) -> Result<Option<ReadStats>, LoadError> {
        let Some(parsed) = &mut self.state else { return Ok(None) };
        let path = &self.path;
        let mut file = open_regular(path)?;
        let meta = file.metadata().map_err(|e| LoadError::io(path, e))?;
        let len = meta.len();
        let same = meta.dev() == parsed.identity.dev
            && meta.ino() == parsed.identity.ino
            && len >= parsed.offset
            // An append always makes the file longer: a change of the same length is a rewrite.
            && (len > parsed.offset || meta.modified().ok() == parsed.identity.modified);
        if !same {
            return Ok(None);
        }
        let now = Identity::of(&file, &meta, parsed.offset).map_err(|e| LoadError::io(path, e))?;
        if now.head != parsed.identity.head || now.before_offset != parsed.identity.before_offset {
            return Ok(None);
        }
        let end = complete_end(&file, parsed.offset, len).map_err(|e| LoadError::io(path, e))?;
        let mut stats = ReadStats {
            kind: ReadKind::Appended,
            bytes: end - parsed.offset,
            lines: 0,
        };
        if end == parsed.offset {
            return Ok(Some(stats));
        }
        file.seek(SeekFrom::Start(parsed.offset))
            .map_err(|e| LoadError::io(path, e))?;
        let mut reader = BufReader::with_capacity(READ_BUFFER, file.take(end - parsed.offset));
        let limits = &self.options.limits;
        let last = read_lines_after(path, &mut reader, &mut parsed.builder, limits, parsed.lines)?;
        stats.lines = last - parsed.lines;
        let file = reader.into_inner().into_inner();
        parsed.identity = Identity::of(&file, &meta, end).map_err(|e| LoadError::io(path, e))?;
        parsed.offset = end;
        parsed.lines = last;
        Ok(Some(stats))
    }

    /// Read the whole file: its complete lines when it is JSONL (keeping what was parsed),
    /// otherwise nothing here (the session is then loaded in full by [`load_path`]).
    fn read_full(&mut self) -> Result<ReadStats, LoadError> {
        self.state = None;
        let path = &self.path;
        let file = open_regular(path)?;
        let meta = file.metadata().map_err(|e| LoadError::io(path, e))?;
        let len = meta.len();
        let mut reader = BufReader::with_capacity(READ_BUFFER, file);
        let head = reader.fill_buf().map_err(|e| LoadError::io(path, e))?;
        if detect(head) != Detected::Jsonl || starts_as_document(head) {
            return Ok(ReadStats {
                kind: ReadKind::Full,
                bytes: len,
                lines: 0,
            });
        }
        let end = complete_end(reader.get_ref(), 0, len).map_err(|e| LoadError::io(path, e))?;
        let mut builder = Builder::owned(path.clone(), self.options.keep);
        let mut lines_reader = reader.take(end);
        let lines = read_lines_after(path, &mut lines_reader, &mut builder, &self.options.limits, 0)?;
        let file = lines_reader.into_inner().into_inner();
        let identity = Identity::of(&file, &meta, end).map_err(|e| LoadError::io(path, e))?;
        self.state = Some(Parsed {
            builder,
            offset: end,
            lines,
            identity,
        });
        Ok(ReadStats {
            kind: ReadKind::Full,
            bytes: end,
            lines,
        })
    }
}

/// Open `path` for reading only when it is a regular file, never blocking: a FIFO swapped in
/// between the look and the open is opened with `O_NONBLOCK` and refused on its descriptor.
fn open_regular(path: &Path) -> Result<File, LoadError> {
    use std::os::unix::fs::OpenOptionsExt;
    limits::check_regular(path)?;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| LoadError::io(path, e))?;
    let meta = file.metadata().map_err(|e| LoadError::io(path, e))?;
    if !meta.is_file() {
        return Err(LoadError::NotRegular {
            path: path.to_owned(),
            kind: "not a regular file",
        });
    }
    Ok(file)
}

/// The offset just past the last newline of `file` between `from` and `len` (`from` when
/// there is none): where its complete lines end.
fn complete_end(file: &File, from: u64, len: u64) -> std::io::Result<u64> {
    let mut to = len;
    let mut chunk = Vec::new();
    while to > from {
        let start = to.saturating_sub(BACK_SCAN).max(from);
        chunk.resize((to - start) as usize, 0);
        file.read_exact_at(&mut chunk, start)?;
        if let Some(i) = chunk.iter().rposition(|b| *b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        to = start;
    }
    Ok(from)
}

#[cfg(test)]
mod tests;
