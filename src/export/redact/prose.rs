//! `--redact=all-text`: every string a person, a model or a tool wrote becomes a
//! length-preserving placeholder, in every kind of message (prose, thinking, tool arguments
//! and output with its details, error messages, shell executions, custom messages, compaction
//! and branch summaries, image alt text), and numbers in tool arguments lose their digits.
//! What identifies and structures the transcript stays: roles, ids, tool names, model and
//! provider, stop reasons, MIME types, signatures.

use crate::model::json::{Map, Number, Value};

use super::Redactor;

/// Message fields that structure the transcript, kept as they are.
const MESSAGE_KEPT: &[&str] = &[
    "role",
    "api",
    "provider",
    "model",
    "stopReason",
    "toolCallId",
    "toolName",
    "responseId",
    "customType",
    "id",
    "parentId",
    "type",
    "firstKeptEntryId",
    "fromId",
    "usage",
];

/// Block fields that structure the content, kept as they are (image `data` is already a note,
/// redacted thinking `data` is opaque).
const BLOCK_KEPT: &[&str] = &[
    "type",
    "id",
    "name",
    "mimeType",
    "data",
    "thinkingSignature",
    "signature",
    "textSignature",
    "toolCallId",
];

/// Block fields holding tool arguments: their numbers are written text too.
const ARGUMENTS: &[&str] = &["arguments", "input", "args"];

impl Redactor {
    /// Replace the prose of one message (see the module doc).
    pub(super) fn all_text(&mut self, message: &mut Map) {
        for (key, value) in message.iter_mut() {
            let key = key.as_str();
            if MESSAGE_KEPT.contains(&key) {
                continue;
            }
            match value {
                Value::Array(blocks) if key == "content" => {
                    for block in blocks.iter_mut() {
                        match block {
                            Value::Object(block) => self.block_prose(block),
                            other => self.prose_value(other, false),
                        }
                    }
                }
                other => self.prose_value(other, false),
            }
        }
    }

    fn block_prose(&mut self, block: &mut Map) {
        for (key, value) in block.iter_mut() {
            let key = key.as_str();
            if !BLOCK_KEPT.contains(&key) {
                self.prose_value(value, ARGUMENTS.contains(&key));
            }
        }
    }

    /// Every string inside a value (and, in tool arguments, every number) becomes a
    /// placeholder of the same length.
    fn prose_value(&mut self, v: &mut Value, numbers: bool) {
        match v {
            Value::String(s) if !s.is_empty() => *s = self.prose(s).into(),
            Value::Number(n) if numbers => {
                if let Some(blank) = blank_number(n) {
                    *n = blank;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|i| self.prose_value(i, numbers)),
            Value::Object(map) => map.values_mut().for_each(|i| self.prose_value(i, numbers)),
            _ => {}
        }
    }

    /// A length-preserving placeholder: letters → `x`, digits → `0`, the rest kept.
    pub(super) fn prose(&mut self, text: &str) -> String {
        *self.counts.entry("prose").or_default() += 1;
        text.chars()
            .map(|c| {
                if c.is_alphabetic() {
                    'x'
                } else if c.is_numeric() {
                    '0'
                } else {
                    c
                }
            })
            .collect()
    }
}

/// A number with its digits blanked and its shape kept: `5432` → `1000`, `-3.25` → `-1.00`,
/// `0` → `0` (the exponent is kept, so the magnitude stays a valid number).
fn blank_number(n: &Number) -> Option<Number> {
    let text = n.as_str();
    let mut out = String::with_capacity(text.len());
    let mut first = true;
    let mut exponent = false;
    for c in text.chars() {
        if matches!(c, 'e' | 'E') {
            exponent = true;
        }
        if c.is_ascii_digit() && !exponent {
            out.push(if first && c != '0' { '1' } else { '0' });
            first = false;
        } else {
            out.push(c);
        }
    }
    if out == text {
        return None;
    }
    out.parse::<serde_json::Number>().ok().map(Number::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::redact::Redaction;
    use crate::json;

    #[test]
    fn every_kind_of_message_loses_its_prose_and_keeps_its_structure() {
        let mut r = Redactor::new(Redaction::AllText);
        let messages = [
            json!({"role": "compactionSummary", "summary": "Zanzibar plans", "tokensBefore": 1000}),
            json!({"role": "branchSummary", "summary": "Zanzibar branch", "fromId": "e7"}),
            json!({"role": "bashExecution", "command": "cat Zanzibar.txt", "output": "Zanzibar", "exitCode": 0}),
            json!({"role": "custom", "customType": "note", "content": "Zanzibar", "details": {"why": "Zanzibar"}}),
            json!({"role": "toolResult", "toolCallId": "c1", "toolName": "read", "content": [{"type": "text", "text": "Zanzibar"}],
                "details": {"diff": ["Zanzibar"]}}),
            json!({"role": "assistant", "content": [], "stopReason": "error", "errorMessage": "Zanzibar overloaded"}),
            json!({"role": "user", "content": [{"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo=", "alt": "Zanzibar map"}]}),
            json!({"role": "assistant", "content": [{"type": "functionCall", "id": "c2", "name": "geo", "args": {"place": "Zanzibar", "zoom": 12}},
                {"type": "toolCall", "id": "c3", "name": "pay", "arguments": {"amount": 5432.75, "pin": [4711]}}]}),
        ];
        for m in messages {
            let mut redacted = m.clone();
            r.message(&mut redacted);
            let text = redacted.to_string();
            assert!(!text.contains("Zanzibar"), "{text}");
            assert!(
                !text.contains("5432") && !text.contains("4711") && !text.contains("12}"),
                "{text}"
            );
            assert_eq!(redacted.get("role"), m.get("role"), "{text}");
            for kept in ["c1", "c2", "read", "geo", "note", "image/png", "e7", "error"] {
                assert_eq!(m.to_string().contains(kept), text.contains(kept), "{kept} in {text}");
            }
        }
    }

    #[test]
    fn blank_numbers_keep_their_shape() {
        let blank = |t: &str| blank_number(&t.parse::<serde_json::Number>().unwrap().into()).map(|n| n.to_string());
        assert_eq!(blank("5432").as_deref(), Some("1000"));
        assert_eq!(blank("-3.25").as_deref(), Some("-1.00"));
        assert_eq!(blank("0"), None);
        assert_eq!(blank("1e400").as_deref(), None);
        assert_eq!(blank("7.5e3").as_deref(), Some("1.0e+3"));
    }
}
