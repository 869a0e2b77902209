//! Mistral chat completions constraints (https://docs.mistral.ai/api/#tag/chat), for `mistral-conversations`.
//!
//! OpenClaw sends through Mistral's SDK, whose camelCase fields (`toolCalls`, `toolCallId`,
//! `imageUrl`) go on the wire in snake_case; both spellings are read.

mod assistant_content;
mod tool_after_user;
mod tool_call_count;
mod tool_call_id_format;
mod user_after_tool;

use crate::model::json::Value;

use super::shape::{field, hit, provider_index, str_at};
use super::{Constraint, Hit};
use crate::wire::Payload;

/// Every hand-written Mistral constraint, in report order (the limits table's rows follow).
pub static CONSTRAINTS: &[&Constraint] = &[
    &tool_call_id_format::CONSTRAINT,
    &user_after_tool::CONSTRAINT,
    &tool_after_user::CONSTRAINT,
    &tool_call_count::CONSTRAINT,
    &assistant_content::CONSTRAINT,
];

/// An assistant message's tool calls.
fn tool_calls(message: &Value) -> &[Value] {
    field(message, &["tool_calls", "toolCalls"])
        .and_then(Value::as_array)
        .map_or(&[], |a| a.as_slice())
}

/// A tool message's call id.
fn tool_call_id(message: &Value) -> Option<&str> {
    field(message, &["tool_call_id", "toolCallId"]).and_then(Value::as_str)
}

/// The ids of an assistant message's tool calls, with their index.
fn call_ids(message: &Value) -> impl Iterator<Item = (usize, &str)> {
    tool_calls(message)
        .iter()
        .enumerate()
        .filter_map(|(j, c)| Some((j, str_at(c, "id")?)))
}

/// A hit at message `i`, numbered as Mistral counts it, with the provider's `text`.
fn message_hit(payload: &Payload, i: usize, text: &str) -> Hit {
    hit(i, format!("messages[{}]", provider_index(payload, i)), text.to_string())
}

/// For tests: a user message.
#[cfg(test)]
use super::test_support::user_text as user;

/// For tests: an assistant message calling `ids`.
#[cfg(test)]
fn calls(ids: &[&str]) -> Value {
    let calls: Vec<Value> = ids
        .iter()
        .map(|id| crate::json!({"id": id, "type": "function", "function": {"name": "read", "arguments": "{}"}}))
        .collect();
    crate::json!({"role": "assistant", "tool_calls": calls})
}

/// For tests: the tool message answering `id`.
#[cfg(test)]
fn answer(id: &str) -> Value {
    crate::json!({"role": "tool", "tool_call_id": id, "name": "read", "content": [{"type": "text", "text": "ok"}]})
}
