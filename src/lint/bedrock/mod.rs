//! Amazon Bedrock Converse / ConverseStream constraints
//! (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html).

mod alternation;
mod blank_text;
mod empty_content;
mod error_result_content;
mod first_user;
mod reasoning_text;
mod tool_result_count;
mod tool_use_duplicate_id;
mod tool_use_id_format;

use crate::model::json::Value;

use super::Constraint;
use super::shape::blocks;

/// Every hand-written Bedrock constraint, in report order (the limits table's rows follow).
pub static CONSTRAINTS: &[&Constraint] = &[
    &alternation::CONSTRAINT,
    &first_user::CONSTRAINT,
    &empty_content::CONSTRAINT,
    &blank_text::CONSTRAINT,
    &reasoning_text::CONSTRAINT,
    &tool_result_count::CONSTRAINT,
    &tool_use_duplicate_id::CONSTRAINT,
    &tool_use_id_format::CONSTRAINT,
    &error_result_content::CONSTRAINT,
];

/// `(block index, inner value)` of the content blocks of a message holding `key`
/// (`toolUse`, `toolResult`, `reasoningContent`, …).
fn blocks_with<'a>(message: &'a Value, key: &'a str) -> impl Iterator<Item = (usize, &'a Value)> + 'a {
    blocks(message)
        .iter()
        .enumerate()
        .filter_map(move |(j, b)| b.get(key).map(|v| (j, v)))
}

/// For tests: a message of `role` with `content` blocks.
#[cfg(test)]
fn message(role: &str, content: Value) -> Value {
    crate::json!({"role": role, "content": content})
}

/// For tests: a user text message.
#[cfg(test)]
fn user(text: &str) -> Value {
    message("user", crate::json!([{"text": text}]))
}

/// For tests: an assistant message calling `ids`.
#[cfg(test)]
fn calls(ids: &[&str]) -> Value {
    let content: Vec<Value> = ids
        .iter()
        .map(|id| crate::json!({"toolUse": {"toolUseId": id, "name": "read", "input": {}}}))
        .collect();
    message("assistant", Value::Array(content.into()))
}

/// For tests: a user message answering `ids`.
#[cfg(test)]
fn results(ids: &[&str]) -> Value {
    let content: Vec<Value> = ids
        .iter()
        .map(|id| crate::json!({"toolResult": {"toolUseId": id, "content": [{"text": "ok"}], "status": "success"}}))
        .collect();
    message("user", Value::Array(content.into()))
}
