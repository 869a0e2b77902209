//! The content of a stored message as the converters read it: its blocks, a block's `type`
//! and text, a tool call's arguments.

use std::borrow::Cow;

use crate::json;
use crate::model::json::{Map, Value};

use crate::model::Message;

/// `block.type` when it is a string.
pub fn block_type(v: &Value) -> Option<&str> {
    v.get("type").and_then(Value::as_str)
}

/// A message's content as blocks: an array as it is, a string as one text block, anything
/// else as no block.
pub fn content_blocks(m: &Message) -> Cow<'_, [Value]> {
    match m.content() {
        Some(Value::Array(blocks)) => Cow::Borrowed(blocks.as_slice()),
        Some(Value::String(text)) => Cow::Owned(vec![json!({"type": "text", "text": text})]),
        _ => Cow::Owned(Vec::new()),
    }
}

/// A text field as `sanitizeTransportPayloadText` reads it: a non-string is the empty string.
pub fn payload_text(value: Option<&Value>) -> &str {
    value.and_then(Value::as_str).unwrap_or("")
}

/// Tool-call arguments as an object (`coerceTransportToolCallArguments`): an object as it
/// is, a string holding a JSON object parsed, anything else `{}`.
pub fn coerce_arguments(value: Option<&Value>) -> Value {
    match value {
        Some(v @ Value::Object(_)) => v.clone(),
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(v @ Value::Object(_)) => v,
            _ => Value::Object(Map::new()),
        },
        _ => Value::Object(Map::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_content_is_one_text_block() {
        let m = |v: Value| Message::from_value(v).unwrap();
        let text = m(json!({"role": "user", "content": "hi"}));
        assert_eq!(*content_blocks(&text), [json!({"type": "text", "text": "hi"})]);
        let none = m(json!({"role": "user", "content": 3}));
        assert!(content_blocks(&none).is_empty());
    }

    #[test]
    fn arguments_become_objects() {
        assert_eq!(coerce_arguments(Some(&json!({"a": 1}))), json!({"a": 1}));
        assert_eq!(coerce_arguments(Some(&json!("{\"a\":1}"))), json!({"a": 1}));
        assert_eq!(coerce_arguments(Some(&json!("[1]"))), json!({}));
        assert_eq!(coerce_arguments(None), json!({}));
    }
}
