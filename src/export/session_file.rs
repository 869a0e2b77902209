//! `export --format session`: the session itself, in its own format, with secrets replaced, so
//! support staff can replay a customer's case without receiving the customer's secrets. One
//! redactor runs over the whole file, so a value redacted in two places (a tool-call id and
//! the result that answers it) gets the same placeholder and the session still pairs.

use crate::load::session_text::{SessionText, Shape, ShapeError};
use crate::model::json::Value;

use super::{Redaction, Redactor};

/// Entry keys that are structure, not content: ids, links and timestamps stay as they are.
const STRUCTURE: [&str; 8] = [
    "type",
    "id",
    "parentId",
    "uuid",
    "parentUuid",
    "timestamp",
    "firstKeptEntryId",
    "fromId",
];

/// The session `text` (its loader format `format`) with every message and every other entry's
/// content redacted at `redaction`; the counts of what was redacted, by kind. Every character
/// the other outputs escape (C1 and other controls, bidi controls, invisible characters) is
/// written as a JSON `\u` escape ([`crate::text::terminal_safe_json`]), so the file is the same
/// data and still safe to `cat`.
pub fn redacted_session(
    text: &str,
    format: &str,
    redaction: Redaction,
) -> Result<(String, std::collections::BTreeMap<&'static str, usize>), ShapeError> {
    let mut session = SessionText::parse(text, format)?;
    let all: Vec<usize> = (0..session.units.len()).collect();
    let counts = redact_units(&mut session, &all, redaction);
    Ok((crate::text::terminal_safe_json(session.render(&all)), counts))
}

/// Redact the header and the units at `units` in place with one redactor (so a value in two
/// places gets one placeholder): a message as the reports redact messages, any other entry's
/// content as values; ids, links and timestamps stay. The counts of what was redacted.
pub fn redact_units(
    session: &mut SessionText,
    units: &[usize],
    redaction: Redaction,
) -> std::collections::BTreeMap<&'static str, usize> {
    let mut redactor = Redactor::new(redaction);
    let convert = |v: &mut serde_json::Value, f: &mut dyn FnMut(&mut Value)| {
        let mut value: Value = serde_json::from_value(v.take()).unwrap_or(Value::Null);
        f(&mut value);
        *v = serde_json::to_value(&value).unwrap_or(serde_json::Value::Null);
    };
    if let Some(header) = session.header.as_mut().and_then(serde_json::Value::as_object_mut) {
        for (key, value) in header.iter_mut() {
            if !STRUCTURE.contains(&key.as_str()) && key != "version" {
                convert(value, &mut |v| redactor.value(v));
            }
        }
    }
    let message_key = session.shape.message_key();
    for &i in units {
        if session.is_message(i)
            && let Some(message) = session.message_mut(i)
        {
            convert(message, &mut |v| redactor.message(v));
        }
        if session.shape == Shape::MessageArray {
            continue;
        }
        let is_message = session.is_message(i);
        let Some(entry) = session.units[i].as_object_mut() else {
            continue;
        };
        for (key, value) in entry.iter_mut() {
            let the_message = is_message && Some(key.as_str()) == message_key;
            if !STRUCTURE.contains(&key.as_str()) && !the_message {
                convert(value, &mut |v| redactor.value(v));
            }
        }
    }
    redactor.counts().clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c1_bidi_and_invisible_characters_are_written_as_json_escapes_and_the_data_is_the_same() {
        let line = |text: &str| {
            serde_json::json!({"type": "message", "id": "m1", "parentId": null, "timestamp": "2026-01-01T00:00:00Z",
                "message": {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}})
            .to_string()
        };
        let header = r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}"#;
        let hostile = "a\u{9b}31m b\u{202e}c d\u{200b}e \u{600}1 \u{1b}[2J ❤\u{fe0f}";
        let text = format!("{header}\n{}\n", line(hostile));
        let (out, _) = redacted_session(&text, "openclaw-jsonl", Redaction::None).unwrap();
        assert_eq!(crate::text::first_unsafe(&out), None, "{out}");
        assert!(
            out.contains("\\u009b") && out.contains("\\u202e") && out.contains("\\u0600"),
            "{out}"
        );
        let second: serde_json::Value = serde_json::from_str(out.lines().nth(1).unwrap()).unwrap();
        assert_eq!(second["message"]["content"][0]["text"], hostile);
    }
}
