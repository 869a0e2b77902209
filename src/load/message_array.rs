//! A `.json` file holding a bare array of messages (`docs/internals.md`).

use std::path::Path;

use crate::model::json::Value;

use super::error::LoadError;
use super::foreign::foreign_document;
use super::json_parse::parse_value;
use crate::model::{BareMessage, Diagnostic, Entry, Location, Session, SessionFormat};

/// Parse a whole JSON document: a message array, or a recognisable foreign document.
pub fn load_message_array(path: &Path, text: &[u8]) -> Result<Session, LoadError> {
    load_document(path, std::borrow::Cow::Borrowed(text))
}

/// [`load_message_array`] on a buffer it may drop once parsed: the file's bytes are freed
/// before the session is built, so a load holds the text and the parsed document, never the
/// text and the session too.
pub fn load_message_array_owned(path: &Path, text: Vec<u8>) -> Result<Session, LoadError> {
    load_document(path, std::borrow::Cow::Owned(text))
}

fn load_document(path: &Path, text: std::borrow::Cow<'_, [u8]>) -> Result<Session, LoadError> {
    // Read as the JSONL loader reads a line: a leading byte-order mark is ignored and invalid
    // UTF-8 is decoded with U+FFFD (Node's `readFile(…, "utf8")`), each with a note.
    let mut notes = Vec::new();
    let mut start = 0;
    if text.starts_with(b"\xEF\xBB\xBF") {
        notes.push(Diagnostic::note(
            path,
            None,
            "a byte-order mark before the document was ignored",
        ));
        start = 3;
    }
    let text = if std::str::from_utf8(&text[start..]).is_err() {
        notes.push(Diagnostic::warning(
            path,
            None,
            "invalid UTF-8 read as U+FFFD, as OpenClaw reads it",
        ));
        let lossy = String::from_utf8_lossy(&text[start..]).into_owned().into_bytes();
        start = 0;
        std::borrow::Cow::Owned(lossy)
    } else {
        text
    };
    let doc = parse_value(&text[start..]).map_err(|e| LoadError::InvalidJson {
        path: path.to_owned(),
        line: e.line(),
        column: e.column(),
        reason: e.to_string(),
    })?;
    drop(text);
    let mut session = from_document(path, doc)?;
    session.diagnostics.splice(0..0, notes);
    Ok(session)
}

/// The session a parsed document holds.
fn from_document(path: &Path, doc: Value) -> Result<Session, LoadError> {
    let items = match doc {
        Value::Array(items) => items,
        other => {
            if let Some(format) = foreign_document(&other) {
                return match other {
                    Value::Object(document) if format == "Claude Code web export" => {
                        Ok(load_web_export(path, document))
                    }
                    _ => Err(LoadError::Unsupported {
                        path: path.to_owned(),
                        format,
                    }),
                };
            }
            return Err(LoadError::Unrecognized {
                path: path.to_owned(),
                reason: "it is one JSON document but not an array of messages".into(),
            });
        }
    };
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("messages")
        .to_owned();
    let mut session = Session::new(path, SessionFormat::MessageArray, stem);
    for (index, raw) in items.into_iter().enumerate() {
        if raw.is_object() {
            session.bare_messages.push(BareMessage { index, raw });
        } else {
            session.diagnostics.push(Diagnostic::skipped(
                path,
                Some(Location::Index(index)),
                "the element is not a message object",
            ));
        }
    }
    Ok(session)
}

/// A Claude Code web export `{"loglines": […]}`: each logline is one stored entry (located
/// by its index); any other top-level field is kept as the header.
fn load_web_export(path: &Path, mut document: crate::model::json::Map) -> Session {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("session")
        .to_owned();
    let mut session = Session::new(path, SessionFormat::ClaudeCodeWeb, stem);
    let lines = match document.remove("loglines") {
        Some(Value::Array(lines)) => lines.into_vec(),
        Some(other) => {
            session.diagnostics.push(Diagnostic::skipped(
                path,
                None,
                "`loglines` is not an array; nothing could be read from it",
            ));
            document.insert("loglines".into(), other);
            Vec::new()
        }
        None => Vec::new(),
    };
    if !document.is_empty() {
        session.header = Some(Value::Object(document));
    }
    for (index, raw) in lines.into_iter().enumerate() {
        if raw.is_object() {
            session.entries.push(Entry::from_stored(Location::Index(index), raw));
        } else {
            session.diagnostics.push(Diagnostic::skipped(
                path,
                Some(Location::Index(index)),
                "the logline is not a JSON object",
            ));
        }
    }
    super::map_foreign(&mut session);
    session
}
