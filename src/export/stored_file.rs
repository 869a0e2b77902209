//! Stored messages read back from their session file, so an export of a large OpenClaw JSONL
//! session need not hold the stored transcript beside the projection.
//!
//! A `message` entry's message is exactly its line's `message` field, so the export keeps the
//! line number alone and parses the line again when it renders the message. The file is
//! opened before the session is loaded and read through that one descriptor: a file replaced
//! meanwhile (a `repair` renames a new file in) is refused, and a line that no longer holds
//! the entry it held is reported instead of shown.

use std::fs::File;
use std::io::{BufReader, Read};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};

use crate::load::jsonl::line_value;
use crate::model::json::{Map, Value};
use crate::model::{Location, Message, Origin, Session, SessionFormat, StoredMessage};

/// An OpenClaw session JSONL file opened for reading its lines again.
#[derive(Debug)]
pub struct StoredFile {
    path: PathBuf,
    file: File,
    /// Byte offset where each line starts (line `n` starts at `starts[n - 1]`), and the
    /// file's length last.
    starts: Vec<u64>,
}

/// A stored message that could not be read back from its line.
#[derive(Debug, thiserror::Error)]
pub enum StoredFileError {
    /// Reading the file failed.
    #[error("{path}: reading line {line} again: {source}")]
    Io {
        /// The session file.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// What failed.
        source: std::io::Error,
    },
    /// The line no longer holds the entry it held when the session was loaded.
    #[error("{path}: line {line} changed while the export was being written (it no longer holds entry {entry})")]
    Changed {
        /// The session file.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// The entry id the line held.
        entry: String,
    },
}

impl StoredFile {
    /// Open a session file and index its lines. `None` when it is not a plain (uncompressed)
    /// regular file.
    pub fn open(path: &Path) -> std::io::Result<Option<Self>> {
        // Opening a FIFO would wait for a writer: look before opening.
        if !std::fs::metadata(path)?.is_file() {
            return Ok(None);
        }
        let file = File::open(path)?;
        if !file.metadata()?.is_file() {
            return Ok(None);
        }
        let mut starts = vec![0u64];
        let mut reader = BufReader::with_capacity(1 << 16, &file);
        let mut buf = [0u8; 1 << 16];
        let mut offset = 0u64;
        let mut first = true;
        loop {
            let n = reader.read(&mut buf)?;
            if n == 0 {
                break;
            }
            if first && buf[..n].starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
                return Ok(None);
            }
            first = false;
            starts.extend(
                buf[..n]
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b'\n')
                    .map(|(i, _)| offset + i as u64 + 1),
            );
            offset += n as u64;
        }
        if starts.last() != Some(&offset) {
            starts.push(offset);
        }
        Ok(Some(Self {
            path: path.to_owned(),
            file,
            starts,
        }))
    }

    /// Whether `session` was loaded from this very file (same device and inode, as long as
    /// it was when opened): a file renamed over the path in between is another file.
    pub fn is_file_of(&self, session: &Session) -> bool {
        let same = |a: &std::fs::Metadata, b: &std::fs::Metadata| a.dev() == b.dev() && a.ino() == b.ino();
        session.format == SessionFormat::OpenClawJsonl
            && match (self.file.metadata(), std::fs::metadata(&session.path)) {
                (Ok(open), Ok(now)) => same(&open, &now) && now.len() as usize >= self.indexed_len(),
                _ => false,
            }
    }

    fn indexed_len(&self) -> usize {
        self.starts.last().copied().unwrap_or(0) as usize
    }

    /// The line a stored message can be read back from: a `message` entry read from a line
    /// of this file, with its entry id.
    pub fn line_of(stored: &StoredMessage<'_>) -> Option<usize> {
        match (stored.origin, stored.location, &stored.entry_id) {
            (Origin::Message, Some(Location::Line(n)), Some(_)) => Some(n),
            _ => None,
        }
    }

    /// The message of a stored message's line, read and parsed again as the loader read it.
    pub fn message(&self, stored: &StoredMessage<'_>) -> Result<Message, StoredFileError> {
        let line = Self::line_of(stored).unwrap_or(0);
        let entry = stored.entry_id.as_deref().unwrap_or_default();
        let changed = || StoredFileError::Changed {
            path: self.path.clone(),
            line,
            entry: entry.to_owned(),
        };
        let (Some(&start), Some(&end)) = (self.starts.get(line.wrapping_sub(1)), self.starts.get(line)) else {
            return Err(changed());
        };
        let mut bytes = vec![0u8; (end - start) as usize];
        self.file
            .read_exact_at(&mut bytes, start)
            .map_err(|source| StoredFileError::Io {
                path: self.path.clone(),
                line,
                source,
            })?;
        let value = line_value(line, &bytes).ok_or_else(changed)?;
        if value.get("id").and_then(Value::as_str) != Some(entry) {
            return Err(changed());
        }
        match value {
            Value::Object(mut entry) => entry
                .shift_remove("message")
                .and_then(Message::from_value)
                // As the loader holds it (`normalizeLoadedFileEntry`'s content forms).
                .map(crate::model::as_loaded)
                .ok_or_else(changed),
            _ => Err(changed()),
        }
    }
}

/// A replay whose stored messages are read back from the session file
/// ([`crate::replay::PreparedReplay::into_replay_reading_back`]): which replay messages the
/// rules left exactly as stored (those are freed and read back too) and which differ from
/// their stored message (for the alignment).
#[derive(Debug)]
pub struct ReadBack {
    file: StoredFile,
    /// Per replay message: identical to its one stored message, so read back rather than held.
    same: Vec<bool>,
    /// Per replay message: differs from its stored message, or has none or several.
    changed: Vec<bool>,
}

impl ReadBack {
    /// Run a prepared replay of the session `file` was opened for, reading its stored messages
    /// back from `file` ([`crate::replay::PreparedReplay::into_replay_reading_back`]), then
    /// compare and free as [`ReadBack::new`] does.
    pub fn replay(
        file: StoredFile,
        prepared: crate::replay::PreparedReplay,
    ) -> Result<(Session, crate::replay::Replay<'static>, Self), StoredFileError> {
        let (session, mut replay) = prepared.into_replay_reading_back(|m| StoredFile::line_of(m).is_some());
        let read_back = Self::new(file, &mut replay)?;
        Ok((session, replay, read_back))
    }

    /// Compare every replay message that comes from one read-back stored message with that
    /// message, read again, and free the replay messages identical to it (same keys in the
    /// same order, same texts): they are read back when shown.
    pub fn new(file: StoredFile, replay: &mut crate::replay::Replay<'_>) -> Result<Self, StoredFileError> {
        use rayon::prelude::*;
        let stored = &replay.transcript.messages;
        // Lines are read and compared across cores; each comparison reads one line.
        let compared: Vec<(bool, bool)> = replay
            .projection
            .messages
            .par_iter()
            .map(|m| {
                let [s] = m.source[..] else { return Ok((false, true)) };
                let Some(original) = stored.get(s) else {
                    return Ok((false, true));
                };
                if StoredFile::line_of(original).is_none() {
                    return Ok((false, original.message.as_ref() != m.message.as_ref()));
                }
                let read = file.message(original)?;
                let same = identical_maps(read.as_map(), m.message.as_map());
                Ok((same, &read != m.message.as_ref()))
            })
            .collect::<Result<_, StoredFileError>>()?;
        let (same, changed): (Vec<bool>, Vec<bool>) = compared.into_iter().unzip();
        for (m, _) in replay
            .projection
            .messages
            .iter_mut()
            .zip(&same)
            .filter(|(_, same)| **same)
        {
            m.message = std::borrow::Cow::Owned(Message::default());
        }
        Ok(Self { file, same, changed })
    }

    /// Whether replay message `r` is exactly its stored message (and is read back).
    pub fn is_same(&self, r: usize) -> bool {
        self.same.get(r).copied().unwrap_or(false)
    }

    /// Whether replay message `r` differs from its stored message, as the alignment counts it.
    pub fn is_changed(&self, r: usize) -> bool {
        self.changed.get(r).copied().unwrap_or(true)
    }

    /// Whether stored message `stored` is read back rather than held.
    pub fn reads(&self, stored: &StoredMessage<'_>) -> bool {
        StoredFile::line_of(stored).is_some()
    }

    /// Read a stored message back.
    pub fn message(&self, stored: &StoredMessage<'_>) -> Result<Message, StoredFileError> {
        self.file.message(stored)
    }
}

/// Equal and written the same: same keys in the same order (object equality alone ignores
/// key order), same texts.
fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => identical_maps(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| identical(p, q))
        }
        _ => a == b,
    }
}

fn identical_maps(x: &Map, y: &Map) -> bool {
    x.len() == y.len()
        && x.iter()
            .zip(y.iter())
            .all(|((ka, va), (kb, vb))| ka == kb && identical(va, vb))
}
