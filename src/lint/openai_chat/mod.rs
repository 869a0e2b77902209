//! OpenAI Chat Completions constraints (https://platform.openai.com/docs/api-reference/chat).

mod image_role;
mod null_content;
mod tool_call_id_length;
mod tool_calls_answered;
mod tool_message_answers_call;

use crate::model::json::Value;

use super::Constraint;
use super::shape::{array, str_at};

/// Every hand-written OpenAI Chat constraint, in report order (the limits table's rows follow).
pub static CONSTRAINTS: &[&Constraint] = &[
    &tool_calls_answered::CONSTRAINT,
    &tool_message_answers_call::CONSTRAINT,
    &tool_call_id_length::CONSTRAINT,
    &null_content::CONSTRAINT,
    &image_role::CONSTRAINT,
];

/// The ids of an assistant message's `tool_calls`.
fn call_ids(message: &Value) -> Vec<&str> {
    array(message, "tool_calls")
        .iter()
        .filter_map(|c| str_at(c, "id"))
        .collect()
}

/// For tests: an assistant message calling `ids`.
#[cfg(test)]
fn calls(ids: &[&str]) -> Value {
    let calls: Vec<Value> = ids
        .iter()
        .map(|id| crate::json!({"id": id, "type": "function", "function": {"name": "read", "arguments": "{}"}}))
        .collect();
    crate::json!({"role": "assistant", "content": null, "tool_calls": calls})
}

/// For tests: the tool message answering `id`.
#[cfg(test)]
fn answer(id: &str) -> Value {
    crate::json!({"role": "tool", "content": "ok", "tool_call_id": id})
}
