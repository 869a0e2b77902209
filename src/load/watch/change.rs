//! What happened to a followed session path since the last look: [`Watch::poll`] tells
//! complete lines appended from a truncation, a deletion, a replacement (by another file, a
//! FIFO, a folder, a device or a symbolic link) and a new line over the line limit, by the
//! path's device and inode, size and file type.
//!
//! Nothing but a regular file is ever opened: the type is read with `symlink_metadata` and
//! `metadata` first, the file is opened with `O_NONBLOCK` (a FIFO swapped in between cannot
//! block) and its type and identity checked again on the open descriptor. Appended bytes are
//! scanned in 64 KiB chunks for newlines, and a line is scanned no further than the line
//! limit, so nothing past the limits is read or held.

use std::fs::{File, Metadata};
use std::io::ErrorKind;
use std::os::unix::fs::{FileExt, FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::event::{Change, Replacement};
use crate::load::limits::Limits;
use crate::load::{Detected, detect, starts_as_document};

/// Bytes read at a time when scanning for newlines.
const CHUNK: u64 = 64 << 10;

/// The kind of thing at the path, after following a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Folder,
    Fifo,
    Device,
}

impl Kind {
    fn of(meta: &Metadata) -> Self {
        let t = meta.file_type();
        if t.is_file() {
            Kind::File
        } else if t.is_dir() {
            Kind::Folder
        } else if t.is_fifo() {
            Kind::Fifo
        } else {
            Kind::Device
        }
    }

    fn replacement(self) -> Replacement {
        match self {
            Kind::File => Replacement::Rename,
            Kind::Folder => Replacement::Folder,
            Kind::Fifo => Replacement::Fifo,
            Kind::Device => Replacement::Device,
        }
    }
}

/// What was at the path at the last look.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Seen {
    /// Nothing (reported as deleted).
    Missing,
    /// Something that is not read, and the link leading to it.
    Other(Kind, Option<PathBuf>),
    /// A regular file.
    File(Followed),
}

/// A regular file being followed.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Followed {
    dev: u64,
    ino: u64,
    /// The link at the path leading to it, as written in the link.
    link: Option<PathBuf>,
    len: u64,
    modified: Option<SystemTime>,
    /// Whether it is an SQLite database (its `-wal` file is watched too).
    database: bool,
    /// A database's `-wal` file: its length and modification time.
    wal: Option<(u64, Option<SystemTime>)>,
    /// Where its lines stand, for line-oriented JSON; `None` for a file read whole.
    lines: Option<Lines>,
}

/// How far a JSONL file's lines were scanned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Lines {
    /// Where the line not yet ended starts (just past the last newline).
    start: u64,
    /// Bytes scanned.
    scanned: u64,
    /// A line over the limit was found: nothing more is scanned.
    stuck: bool,
}

/// A watch on one session path, from the state it had when the watch began: see the
/// [module documentation](self).
#[derive(Debug, Clone)]
pub struct Watch {
    path: PathBuf,
    limits: Limits,
    seen: Seen,
}

impl Watch {
    /// Watch `path` from now, with the loaders' `limits`.
    pub fn new(path: &Path, limits: Limits) -> Self {
        let mut watch = Self {
            path: path.to_owned(),
            limits,
            seen: Seen::Missing,
        };
        watch.seen = watch.look().map_or(Seen::Missing, |(kind, link, meta)| match kind {
            Kind::File => Seen::File(watch.followed(link, &meta, true)),
            _ => Seen::Other(kind, link),
        });
        watch
    }

    /// The watched path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What happened since the last call (or since [`new`](Self::new)); each event is said
    /// once, and a state that lasts (a deleted file, a FIFO in its place) is then `Unchanged`.
    pub fn poll(&mut self) -> Change {
        let Some((kind, link, meta)) = self.look() else {
            return self.become_(Seen::Missing, Change::Deleted);
        };
        if kind != Kind::File {
            let new_link = link.clone().filter(|l| self.link() != Some(l));
            let seen = Seen::Other(kind, link);
            let by = match new_link {
                Some(target) => Replacement::Link { target, regular: false },
                None => kind.replacement(),
            };
            return self.become_(seen, Change::Replaced { by });
        }
        let before = match &self.seen {
            Seen::File(f) if f.dev == meta.dev() && f.ino == meta.ino() && f.link == link => f.clone(),
            Seen::Missing => {
                self.seen = Seen::File(self.followed(link, &meta, false));
                return Change::Reappeared;
            }
            _ => {
                let by = match link.clone().filter(|l| self.link() != Some(l)) {
                    Some(target) => Replacement::Link { target, regular: true },
                    None => Replacement::Rename,
                };
                self.seen = Seen::File(self.followed(link, &meta, false));
                return Change::Replaced { by };
            }
        };
        if meta.len() < before.len {
            self.seen = Seen::File(self.followed(link, &meta, false));
            return Change::Truncated { len: meta.len() };
        }
        let mut now = Followed {
            len: meta.len(),
            modified: meta.modified().ok(),
            wal: wal_stamp(&self.path, before.database),
            ..before.clone()
        };
        if now == before {
            return Change::Unchanged;
        }
        let Some(lines) = before.lines else {
            self.seen = Seen::File(now);
            return Change::Appended;
        };
        if lines.stuck {
            self.seen = Seen::File(now);
            return Change::Unchanged;
        }
        let Ok(file) = self.open_same(&before) else {
            // Swapped between the look and the open: the next poll says what it is.
            return Change::Unchanged;
        };
        let scanned = scan(&file, lines, now.len, self.limits.max_line_bytes);
        now.lines = Some(scanned);
        self.seen = Seen::File(now);
        if scanned.stuck {
            return Change::LineTooLong {
                line: count_lines(&file, scanned.start) + 1,
            };
        }
        // Complete lines followed by one still being written wait for it: the file is read
        // when it ends at a line's end.
        if scanned.start > lines.start && scanned.start == scanned.scanned {
            Change::Appended
        } else {
            Change::Unchanged
        }
    }

    /// Record `seen`; `change` when it differs from what was seen, else `Unchanged`.
    fn become_(&mut self, seen: Seen, change: Change) -> Change {
        if self.seen == seen {
            return Change::Unchanged;
        }
        self.seen = seen;
        change
    }

    /// The link that led to what was seen last.
    fn link(&self) -> Option<&PathBuf> {
        match &self.seen {
            Seen::File(f) => f.link.as_ref(),
            Seen::Other(_, link) => link.as_ref(),
            Seen::Missing => None,
        }
    }

    /// What is at the path: its kind after links, the link leading there, its metadata;
    /// `None` when nothing is (or a link leads nowhere).
    fn look(&self) -> Option<(Kind, Option<PathBuf>, Metadata)> {
        let entry = match std::fs::symlink_metadata(&self.path) {
            Ok(entry) => entry,
            Err(_) => return None,
        };
        if !entry.file_type().is_symlink() {
            return Some((Kind::of(&entry), None, entry));
        }
        let link = std::fs::read_link(&self.path).ok();
        match std::fs::metadata(&self.path) {
            Ok(meta) => Some((Kind::of(&meta), link, meta)),
            Err(e) if e.kind() == ErrorKind::NotFound => None,
            // A loop, or a link into a folder that cannot be searched: not a file to read.
            Err(_) => Some((Kind::Device, link, entry)),
        }
    }

    /// The state of the regular file `meta` describes. `at_start` when following begins: its
    /// lines were read by the follower's first load, so only where the last one starts is
    /// found; otherwise the file is scanned from its start.
    fn followed(&self, link: Option<PathBuf>, meta: &Metadata, at_start: bool) -> Followed {
        let mut f = Followed {
            dev: meta.dev(),
            ino: meta.ino(),
            link,
            len: meta.len(),
            modified: meta.modified().ok(),
            database: false,
            wal: None,
            lines: None,
        };
        let Ok(file) = self.open_same(&f) else { return f };
        let mut head = vec![0; CHUNK.min(f.len) as usize];
        if file.read_exact_at(&mut head, 0).is_err() {
            return f;
        }
        if detect(&head) == Detected::Sqlite {
            f.database = true;
            f.wal = wal_stamp(&self.path, true);
            return f;
        }
        if !head.is_empty() && (detect(&head) != Detected::Jsonl || starts_as_document(&head)) {
            return f;
        }
        let max = self.limits.max_line_bytes;
        f.lines = Some(if at_start {
            last_line_start(&file, f.len, max)
        } else {
            scan(&file, Lines::NONE, f.len, max)
        });
        f
    }

    /// Open the followed file without blocking and check the descriptor is that regular file.
    fn open_same(&self, f: &Followed) -> std::io::Result<File> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open(&self.path)?;
        let meta = file.metadata()?;
        if !meta.is_file() || meta.dev() != f.dev || meta.ino() != f.ino {
            return Err(std::io::Error::other("the path changed while it was opened"));
        }
        Ok(file)
    }
}

impl Lines {
    const NONE: Lines = Lines {
        start: 0,
        scanned: 0,
        stuck: false,
    };
}

/// A database's `-wal` file's length and modification time (`None` when there is none or
/// `database` is false).
fn wal_stamp(path: &Path, database: bool) -> Option<(u64, Option<SystemTime>)> {
    if !database {
        return None;
    }
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let meta = std::fs::symlink_metadata(PathBuf::from(wal)).ok()?;
    Some((meta.len(), meta.modified().ok()))
}

/// Scan `file` from `lines.scanned` up to `len` for newlines: where the unended line starts,
/// and whether a line is longer than `max_line` (then the scan stops at that line).
fn scan(file: &File, mut lines: Lines, len: u64, max_line: u64) -> Lines {
    let mut chunk = Vec::new();
    while lines.scanned < len {
        // Never read further into a line than one byte past the limit.
        let stop = len.min(lines.start.saturating_add(max_line).saturating_add(1));
        let to = stop.min(lines.scanned + CHUNK);
        if to <= lines.scanned {
            lines.stuck = true;
            return lines;
        }
        chunk.resize((to - lines.scanned) as usize, 0);
        if file.read_exact_at(&mut chunk, lines.scanned).is_err() {
            return lines;
        }
        for (i, b) in chunk.iter().enumerate() {
            if *b == b'\n' {
                let end = lines.scanned + i as u64 + 1;
                if end - lines.start > max_line {
                    lines.stuck = true;
                    return lines;
                }
                lines.start = end;
            }
        }
        lines.scanned = to;
        if lines.scanned - lines.start > max_line {
            lines.stuck = true;
            return lines;
        }
    }
    lines
}

/// Where the last unended line of `file` (of `len` bytes) starts, looking back no further
/// than one line limit; a file whose last `max_line` bytes hold no newline is over the limit.
fn last_line_start(file: &File, len: u64, max_line: u64) -> Lines {
    let floor = len.saturating_sub(max_line.saturating_add(1));
    let mut to = len;
    let mut chunk = Vec::new();
    while to > floor {
        let from = to.saturating_sub(CHUNK).max(floor);
        chunk.resize((to - from) as usize, 0);
        if file.read_exact_at(&mut chunk, from).is_err() {
            break;
        }
        if let Some(i) = chunk.iter().rposition(|b| *b == b'\n') {
            let start = from + i as u64 + 1;
            return Lines {
                start,
                scanned: len,
                stuck: false,
            };
        }
        to = from;
    }
    Lines {
        start: floor,
        scanned: len,
        stuck: floor > 0 || len > max_line,
    }
}

/// The newlines of `file` before `end`, read a chunk at a time.
fn count_lines(file: &File, end: u64) -> usize {
    let mut count = 0;
    let mut at = 0;
    let mut chunk = Vec::new();
    while at < end {
        let to = end.min(at + CHUNK);
        chunk.resize((to - at) as usize, 0);
        if file.read_exact_at(&mut chunk, at).is_err() {
            break;
        }
        count += chunk.iter().filter(|b| **b == b'\n').count();
        at = to;
    }
    count
}

#[cfg(test)]
mod tests;
