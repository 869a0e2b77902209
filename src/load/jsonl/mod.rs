//! OpenClaw / pi session JSONL: v1 (upgraded on read), v2–v4 `type:"session"` headers,
//! headerless OpenClaw history, and the pi-agent-core `kind:"header"` v4 layout.
//!
//! Lines are read in order and parsed in batches across cores ([`lines`]), then handed to
//! the builder one at a time in file order. A line that is not JSON, or not an object, is
//! skipped and reported with its line number; a torn last line (no newline, not JSON) is
//! reported as such. The header and every entry are kept exactly as stored.

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use crate::model::json::Value;

use super::Keep;
use super::error::LoadError;
use super::foreign::{foreign_format, mapped_format};
use super::json_parse::JsonError;
use super::limits::Limits;
use super::preview::{Preview, due};
use crate::model::{Diagnostic, Entry, EntryKind, Location, Session, SessionFormat};
use lines::{ParsedLine, RawLine};
pub(crate) use lines::{line_value, read_lines, read_lines_after};

mod lines;
#[cfg(test)]
mod tests;

/// How many leading lines are examined to recognise a foreign format.
const SNIFF_LINES: usize = 20;

/// Read a session JSONL stream.
pub fn load_jsonl(path: &Path, reader: impl BufRead, limits: &Limits) -> Result<Session, LoadError> {
    load_jsonl_previewed(path, reader, limits, None, Keep::Everything)
}

/// Read a session JSONL stream, handing the session read so far to `preview` once the first
/// entries of an OpenClaw session are parsed, and keeping of each entry what `keep` says.
pub fn load_jsonl_previewed(
    path: &Path,
    reader: impl BufRead,
    limits: &Limits,
    preview: Option<Preview>,
    keep: Keep,
) -> Result<Session, LoadError> {
    let mut builder = Builder::new(Cow::Borrowed(path));
    builder.preview = preview;
    builder.keep = keep;
    read_lines(path, reader, &mut builder, limits)?;
    builder.finish()
}

#[derive(Clone)]
enum State {
    /// Collecting the first lines until the format is known.
    Sniffing(Vec<(Location, Value)>),
    /// Reading entries of a known format.
    Reading,
}

/// Turns a stream of stored JSON values into a [`Session`]: header, entries, leaf
/// tracking, v1 upgrade and diagnostics. Shared by the JSONL and SQLite loaders.
#[derive(Clone)]
pub(crate) struct Builder<'p> {
    path: Cow<'p, Path>,
    state: State,
    session: Session,
    pi_core: bool,
    /// Another agent's format: entries are kept as stored and mapped when finished.
    foreign: bool,
    /// Blank lines (numbers), reported for other agents' files, whose writers never
    /// leave one.
    blank_lines: Vec<usize>,
    /// Told the session read so far, once (taken when used or when it cannot apply).
    preview: Option<Preview>,
    /// Bytes of the lines pushed so far.
    bytes_read: u64,
    /// How much of each entry to keep.
    keep: Keep,
}

impl<'p> Builder<'p> {
    /// A builder for values already known to be OpenClaw transcript events (SQLite rows).
    pub(crate) fn for_events(path: &'p Path, format: SessionFormat, id: String) -> Self {
        let mut b = Self::new(Cow::Borrowed(path));
        b.state = State::Reading;
        b.session.format = format;
        b.session.id = id;
        b
    }

    /// Add one decoded event.
    pub(crate) fn push_value(&mut self, loc: Location, value: Value) {
        if value.is_object() {
            self.entry(loc, value);
        } else {
            self.session.diagnostics.push(Diagnostic::skipped(
                &*self.path,
                Some(loc),
                "the event is not a JSON object",
            ));
        }
    }

    /// Record a problem found by the caller (an undecodable row).
    pub(crate) fn push_diagnostic(&mut self, d: Diagnostic) {
        self.session.diagnostics.push(d);
    }

    /// Mutable access to the session being built.
    pub(crate) fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// A builder for a session file read incrementally, which outlives any borrowed path.
    pub(crate) fn owned(path: PathBuf, keep: Keep) -> Builder<'static> {
        let mut b = Builder::new(Cow::Owned(path));
        b.keep = keep;
        b
    }

    fn new(path: Cow<'p, Path>) -> Self {
        let stem = path
            .file_name()
            .and_then(|n| n.to_str())
            .map(|n| n.trim_end_matches(".zst").trim_end_matches(".jsonl").to_owned())
            .unwrap_or_default();
        Self {
            session: Session::new(&*path, SessionFormat::OpenClawJsonl, stem),
            path,
            state: State::Sniffing(Vec::new()),
            pi_core: false,
            foreign: false,
            blank_lines: Vec::new(),
            preview: None,
            bytes_read: 0,
            keep: Keep::Everything,
        }
    }

    /// Hand the session read so far to the preview callback once enough is read. Only an
    /// OpenClaw session whose entries carry ids gets one: other layouts are upgraded or
    /// mapped when the file is finished, so their partial state is not what will be shown.
    fn maybe_preview(&mut self) {
        if self.preview.is_none() || !due(self.session.entries.len(), self.bytes_read) {
            return;
        }
        let Some(preview) = self.preview.take() else { return };
        let s = &self.session;
        let tree = !self.foreign
            && !self.pi_core
            && s.header.is_some()
            && s.version != Some(1)
            && !s.entries.is_empty()
            && s.entries.iter().all(|e| e.id.is_some());
        if tree {
            preview.report(s.clone());
        }
    }

    fn push(&mut self, line: RawLine<'_>, parsed: ParsedLine) -> Result<(), LoadError> {
        self.bytes_read += line.bytes.len() as u64;
        let loc = Location::Line(line.number);
        let (parsed, lossy) = match parsed {
            ParsedLine::Blank => {
                self.blank_lines.push(line.number);
                return Ok(());
            }
            ParsedLine::Value {
                value,
                lossy,
                surrogates,
            } => {
                if surrogates {
                    self.session.diagnostics.push(Diagnostic::warning(
                        &*self.path,
                        Some(loc),
                        "lone UTF-16 surrogate escapes (\\ud800…) read as U+FFFD; OpenClaw's JSON.parse keeps them, so this line's text differs from what OpenClaw sends",
                    ));
                }
                (Ok(value), lossy)
            }
            ParsedLine::Invalid {
                error,
                lossy,
                has_cr,
                len,
            } => (Err((error, has_cr, len)), lossy),
        };
        if lossy {
            self.session.diagnostics.push(Diagnostic::warning(
                &*self.path,
                Some(loc),
                "invalid UTF-8 read as U+FFFD, as OpenClaw reads it",
            ));
        }
        let value: Value = match parsed {
            Ok(value) => value,
            Err((e, has_cr, len)) => {
                let msg = if matches!(e, JsonError::TooDeep { .. }) {
                    e.to_string()
                } else if has_cr {
                    format!(
                        "not valid JSON ({e}); the line holds CR characters: with CR-only line endings the file is one line, to OpenClaw too"
                    )
                } else if line.terminated {
                    format!("not valid JSON ({e})")
                } else {
                    format!("torn last line ({len} bytes, no newline): {e}")
                };
                self.session
                    .diagnostics
                    .push(Diagnostic::skipped(&*self.path, Some(loc), msg));
                return Ok(());
            }
        };
        if !value.is_object() {
            let what = match &value {
                Value::Array(_) => "an array",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                Value::Bool(_) => "a boolean",
                _ => "null",
            };
            self.session.diagnostics.push(Diagnostic::skipped(
                &*self.path,
                Some(loc),
                format!("the line is {what}, not a JSON object"),
            ));
            return Ok(());
        }
        match &mut self.state {
            State::Reading => {
                self.entry(loc, value);
                self.maybe_preview();
                Ok(())
            }
            State::Sniffing(pending) => {
                pending.push((loc, value));
                let decided = pending.len() >= SNIFF_LINES
                    || is_header(&pending[0].1)
                    || pending.iter().any(|(_, v)| is_tree_entry(v));
                if decided { self.decide() } else { Ok(()) }
            }
        }
    }

    /// Decide the format from the lines seen so far, then replay them as entries.
    fn decide(&mut self) -> Result<(), LoadError> {
        let State::Sniffing(pending) = std::mem::replace(&mut self.state, State::Reading) else {
            return Ok(());
        };
        let Some((_, first)) = pending.first() else {
            return Ok(());
        };
        if !is_header(first) {
            if let Some(name) = pending.iter().find_map(|(_, v)| foreign_format(v)) {
                let Some(format) = mapped_format(name) else {
                    return Err(LoadError::Unsupported {
                        path: self.path.to_path_buf(),
                        format: name,
                    });
                };
                self.session.format = format;
                self.foreign = true;
            }
            if !self.foreign && !pending.iter().any(|(_, v)| is_tree_entry(v)) {
                return Err(LoadError::Unrecognized {
                    path: self.path.to_path_buf(),
                    reason: "its first lines hold neither a session header nor OpenClaw/pi entries".into(),
                });
            }
        }
        for (loc, value) in pending {
            self.entry(loc, value);
        }
        self.maybe_preview();
        Ok(())
    }

    fn entry(&mut self, loc: Location, value: Value) {
        let s = &mut self.session;
        if self.foreign {
            s.entries.push(Entry::from_stored(loc, value));
            return;
        }
        if s.header.is_none() && s.entries.is_empty() && is_header(&value) {
            if value.get("kind").and_then(Value::as_str) == Some("header") {
                self.pi_core = true;
                s.format = SessionFormat::PiCoreV4;
            }
            s.version = Some(value.get("version").and_then(Value::as_u64).unwrap_or(1));
            if s.format != SessionFormat::OpenClawSqlite
                && let Some(id) = value.get("id").and_then(Value::as_str)
            {
                s.id = id.to_owned();
            }
            s.header = Some(value);
            s.header_location = Some(loc);
            return;
        }
        if self.pi_core {
            match value.get("kind").and_then(Value::as_str) {
                Some("lane") => {
                    if let Some(leaf) = value.get("leafId") {
                        s.explicit_leaf = Some(leaf.as_str().map(str::to_owned));
                    }
                }
                Some("entry") if value.get("entry").is_some_and(Value::is_object) => {
                    s.diagnostics.push(Diagnostic::warning(
                        &*self.path,
                        Some(loc),
                        "nested v4 entry layout is kept but not placed in the tree",
                    ));
                }
                _ => {}
            }
        }
        let mut entry = Entry::from_stored(loc, value);
        if self.keep == Keep::Transcript {
            entry.keep_message_only();
        }
        match entry.kind() {
            EntryKind::Leaf => {
                let target = entry.raw.get("targetId").map(|t| t.as_str().map(str::to_owned));
                if let Some(target) = target {
                    s.explicit_leaf = Some(target);
                }
            }
            EntryKind::Session => {
                s.diagnostics.push(Diagnostic::warning(
                    &*self.path,
                    Some(loc),
                    "a second session header is kept as an opaque entry",
                ));
            }
            _ => {
                if entry.id.is_some() && !self.pi_core && !entry.is_side_append() {
                    s.explicit_leaf = None;
                }
            }
        }
        s.entries.push(entry);
    }

    /// Finish: decide a pending format, upgrade v1, and check entries.
    pub(crate) fn finish(mut self) -> Result<Session, LoadError> {
        if matches!(self.state, State::Sniffing(_)) {
            self.decide()?;
        }
        let mut s = self.session;
        if self.foreign {
            for n in self.blank_lines {
                s.diagnostics.push(Diagnostic::skipped(
                    &*self.path,
                    Some(Location::Line(n)),
                    "the line is empty",
                ));
            }
            s.diagnostics.sort_by_key(|d| match d.location {
                Some(Location::Line(n)) => n,
                _ => 0,
            });
            super::map_foreign(&mut s);
            super::reproducer::apply(&mut s);
            return Ok(s);
        }
        if s.header.is_none() && s.entries.is_empty() {
            if s.diagnostics.is_empty() {
                return Err(LoadError::Empty {
                    path: self.path.to_path_buf(),
                });
            }
            return Err(LoadError::Unrecognized {
                path: self.path.to_path_buf(),
                reason: format!("no line could be read ({})", s.diagnostics[0]),
            });
        }
        // The list grew by doubling; a large session keeps it for its whole life.
        s.entries.shrink_to_fit();
        let has_ids = s.entries.iter().any(|e| e.id.is_some());
        let version = s.version.unwrap_or(if has_ids { 3 } else { 1 });
        if s.version.is_none() {
            s.version = Some(version);
        }
        // OpenClaw's codec (`migrateToCurrentVersion`) reads a file without a session header as
        // version 1: every entry gets a fresh id chained to the line before it, whatever ids the
        // lines carry. A database session's rows are hydrated through the same migration, so
        // one without its header row is read the same way (the loader differential holds it).
        let headerless_file = s.header.is_none();
        if (version < 2 || headerless_file) && !self.pi_core {
            if version < 2 {
                s.format = SessionFormat::PiJsonlV1;
            }
            upgrade_v1(&mut s);
        }
        for e in &s.entries {
            if e.id.is_none()
                && matches!(
                    e.kind(),
                    EntryKind::Message | EntryKind::CustomMessage | EntryKind::BranchSummary | EntryKind::Compaction
                )
            {
                s.diagnostics.push(Diagnostic::warning(
                    &s.path,
                    Some(e.location),
                    format!("{} entry has no id, so it is on no branch", e.type_str().unwrap_or("?")),
                ));
            }
        }
        super::reproducer::apply(&mut s);
        Ok(s)
    }
}

fn is_header(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str) == Some("session") || v.get("kind").and_then(Value::as_str) == Some("header")
}

fn is_tree_entry(v: &Value) -> bool {
    let Some(t) = v.get("type").and_then(Value::as_str) else {
        return false;
    };
    let known = !matches!(EntryKind::from_type(t), EntryKind::Other(_) | EntryKind::Session);
    known && (v.get("message").is_some() || v.get("id").is_some())
}

/// pi's v1 → v2 migration: assign ids, chain each entry to the previous one, and map a
/// compaction's `firstKeptEntryIndex` (an index into the file's lines, header included)
/// to the id of that entry. The stored JSON is not changed.
fn upgrade_v1(s: &mut Session) {
    let mut used: HashSet<String> = s
        .entries
        .iter()
        .filter_map(|e| e.id.as_deref().map(str::to_owned))
        .collect();
    // A leaf control names an id the migration replaced: OpenClaw finds no such entry and
    // walks from the last line.
    s.explicit_leaf = None;
    let mut counter: u64 = 0;
    let mut prev: Option<String> = None;
    let offset = usize::from(s.header.is_some());
    let mut ids: Vec<String> = Vec::with_capacity(s.entries.len());
    for i in 0..s.entries.len() {
        let id = loop {
            counter += 1;
            let candidate = format!("{counter:08x}");
            if used.insert(candidate.clone()) {
                break candidate;
            }
        };
        let e = &mut s.entries[i];
        e.id = Some(id.clone().into());
        e.parent_id = prev.replace(id.clone()).map(Into::into);
        e.assigned_id = true;
        ids.push(id);
        if e.kind() == EntryKind::Compaction
            && e.first_kept_entry_id.is_none()
            && let Some(idx) = e.raw.get("firstKeptEntryIndex").and_then(Value::as_u64)
        {
            let idx = idx as usize;
            let target = idx.checked_sub(offset).filter(|t| *t <= i).map(|t| ids[t].clone());
            match target {
                Some(t) => e.first_kept_entry_id = Some(t.into()),
                None => s.diagnostics.push(Diagnostic::warning(
                    &s.path,
                    Some(e.location),
                    format!("firstKeptEntryIndex {idx} names no earlier entry"),
                )),
            }
        }
    }
}
