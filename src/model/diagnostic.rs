//! Load diagnostics: every malformed line, row or link is reported, never dropped silently.

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

/// Where in a session source something sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Location {
    /// 1-based line of a JSONL file.
    Line(usize),
    /// `seq` of a `transcript_events` row in an OpenClaw database.
    Seq(i64),
    /// `rowid` of a `transcript_events` row whose `seq` is not an integer.
    Rowid(i64),
    /// 0-based index into a bare JSON array of messages.
    Index(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Line(n) => write!(f, "line {n}"),
            Self::Seq(n) => write!(f, "seq {n}"),
            Self::Rowid(n) => write!(f, "rowid {n}"),
            Self::Index(n) => write!(f, "index {n}"),
        }
    }
}

/// How serious a diagnostic is. Neither stops the load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something was skipped (a malformed line, an undecodable row).
    Skipped,
    /// Something was kept but looks off (a dangling parent link, an odd field).
    Warning,
    /// Something was kept as stored but is not part of what the model is sent (another
    /// agent's bookkeeping lines, a block the common model has no place for).
    Note,
}

/// One problem found while loading, with the file and place it was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    /// The file the problem is in.
    pub file: PathBuf,
    /// The line, row or index, when known.
    pub location: Option<Location>,
    /// Whether the item was skipped or only warned about.
    pub severity: Severity,
    /// One sentence saying what is wrong.
    pub message: String,
}

impl Diagnostic {
    /// A skipped item.
    pub fn skipped(file: impl Into<PathBuf>, location: Option<Location>, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            location,
            severity: Severity::Skipped,
            message: message.into(),
        }
    }

    /// A note about a kept item that is not sent to the model.
    pub fn note(file: impl Into<PathBuf>, location: Option<Location>, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            location,
            severity: Severity::Note,
            message: message.into(),
        }
    }

    /// A warning about a kept item.
    pub fn warning(file: impl Into<PathBuf>, location: Option<Location>, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            location,
            severity: Severity::Warning,
            message: message.into(),
        }
    }
}

impl Diagnostic {
    /// The diagnostic without its file name (`line 12: note: …`), for a view that already
    /// names the file.
    pub fn in_file(&self) -> String {
        let tag = match self.severity {
            Severity::Skipped => "skipped",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        match self.location {
            Some(loc) => format!("{loc}: {tag}: {}", self.message),
            None => format!("{tag}: {}", self.message),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.in_file())
    }
}
