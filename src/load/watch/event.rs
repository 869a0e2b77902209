//! What a follower is told about its session path ([`Change`]), and the words it says it in:
//! one sentence for `replay --follow`, a few words for the inspector's header.

use std::path::PathBuf;

/// What now stands at a followed path in place of the file that was followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replacement {
    /// Another regular file (renamed over the path, or written in its place): read from the start.
    Rename,
    /// A FIFO: never opened (reading one blocks until a writer comes).
    Fifo,
    /// A folder.
    Folder,
    /// A character or block device, or a socket: never opened (a device never ends).
    Device,
    /// A symbolic link to `target`; `regular` when it leads to a regular file, which is then
    /// read from the start like any session given through a link.
    Link {
        /// Where the link points, as written in it.
        target: PathBuf,
        /// Whether it leads to a regular file.
        regular: bool,
    },
}

/// What happened to the followed path since the last [`Watch::poll`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Nothing a reader needs to know of (or only a line still being written).
    Unchanged,
    /// Complete lines were appended and the file ends at a line's end (for a database: a transaction was committed; for a
    /// single JSON document: it was written again).
    Appended,
    /// The same file (device and inode) is shorter than before: read it from the start.
    Truncated {
        /// Its length now, in bytes.
        len: u64,
    },
    /// Nothing is at the path any more (or a link there leads nowhere).
    Deleted,
    /// A regular file is at the path again after [`Change::Deleted`]: read it from the start.
    Reappeared,
    /// Something else is at the path now.
    Replaced {
        /// What.
        by: Replacement,
    },
    /// A line appended to the file is longer than the line limit (the loaders refuse it):
    /// nothing more is read until the file is truncated or replaced.
    LineTooLong {
        /// Its 1-based line number.
        line: usize,
    },
}

impl Change {
    /// Whether the follower reads the file now: appended lines, or the whole file anew (a
    /// file truncated to nothing has nothing to read: its next lines are read from the start).
    pub fn reads(&self) -> bool {
        *self == Change::Appended || self.reads_from_start() && *self != Change::Truncated { len: 0 }
    }

    /// Whether the follower must forget what it read and read the whole file again.
    pub fn reads_from_start(&self) -> bool {
        matches!(
            self,
            Change::Truncated { .. }
                | Change::Reappeared
                | Change::Replaced {
                    by: Replacement::Rename | Replacement::Link { regular: true, .. }
                }
        )
    }

    /// One sentence naming `file`, what happened and what the follower does next; `None` for
    /// [`Change::Unchanged`] and [`Change::Appended`], which need no word. Not escaped: the
    /// caller escapes it for where it is shown.
    pub fn sentence(&self, file: &str) -> Option<String> {
        const NOT_READ: &str = "not following it until a regular file is back";
        Some(match self {
            Change::Unchanged | Change::Appended => return None,
            Change::Truncated { len } => {
                format!("{file} was truncated to {len} bytes; reloading from the start")
            }
            Change::Deleted => format!("{file} was deleted; waiting for it to reappear"),
            Change::Reappeared => format!("{file} is back; reloading from the start"),
            Change::Replaced { by } => match by {
                Replacement::Rename => {
                    format!("{file} was replaced by another file; reloading from the start")
                }
                Replacement::Fifo => format!("{file} was replaced by a FIFO; {NOT_READ}"),
                Replacement::Folder => format!("{file} was replaced by a folder; {NOT_READ}"),
                Replacement::Device => format!("{file} was replaced by a device; {NOT_READ}"),
                Replacement::Link { target, regular: true } => format!(
                    "{file} was replaced by a link to {}; reloading from the start",
                    target.display()
                ),
                Replacement::Link { target, regular: false } => format!(
                    "{file} was replaced by a link to {}, which is not a regular file; {NOT_READ}",
                    target.display()
                ),
            },
            Change::LineTooLong { line } => format!(
                "{file} line {line} is longer than the line limit (--max-line-mb); not reading further until the file is truncated or replaced"
            ),
        })
    }

    /// A few words for a header (`file deleted`); `None` when there is nothing to say.
    pub fn short(&self) -> Option<String> {
        Some(match self {
            Change::Unchanged | Change::Appended => return None,
            Change::Truncated { .. } => "file truncated".to_owned(),
            Change::Deleted => "file deleted".to_owned(),
            Change::Reappeared => "file back".to_owned(),
            Change::Replaced { by } => match by {
                Replacement::Rename => "file replaced".to_owned(),
                Replacement::Fifo => "replaced by a FIFO, not read".to_owned(),
                Replacement::Folder => "replaced by a folder, not read".to_owned(),
                Replacement::Device => "replaced by a device, not read".to_owned(),
                Replacement::Link { regular: true, .. } => "replaced by a link".to_owned(),
                Replacement::Link { regular: false, .. } => "replaced by a link, not read".to_owned(),
            },
            Change::LineTooLong { line } => format!("line {line} over the limit, not read"),
        })
    }
}
