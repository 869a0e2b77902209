//! OpenAI Responses API constraints (https://platform.openai.com/docs/api-reference/responses), for
//! `openai-responses` (also the
//! Codex and ChatGPT routes) and `azure-openai-responses`.

mod call_id_length;
mod duplicate_item;
mod function_call_output;
mod function_call_output_orphan;
mod item_id_charset;
mod item_id_prefix;
mod reasoning_following;

use crate::model::json::Value;

use super::Constraint;
use super::shape::{kind, role};
use crate::wire::WireApi;

/// The APIs these constraints apply to.
pub(crate) const APIS: &[WireApi] = &[WireApi::OpenAiResponses, WireApi::AzureOpenAiResponses];

/// Every hand-written Responses constraint, in report order (the limits table's rows follow).
pub static CONSTRAINTS: &[&Constraint] = &[
    &reasoning_following::CONSTRAINT,
    &function_call_output::CONSTRAINT,
    &function_call_output_orphan::CONSTRAINT,
    &item_id_prefix::CONSTRAINT,
    &item_id_charset::CONSTRAINT,
    &call_id_length::CONSTRAINT,
    &duplicate_item::CONSTRAINT,
];

/// An input item's type: its `type`, or `message` for a bare `{role, content}` item.
fn item_type(item: &Value) -> &str {
    kind(item).unwrap_or(if role(item).is_some() { "message" } else { "" })
}

/// For tests: a function call item.
#[cfg(test)]
fn call(id: Option<&str>, call_id: &str) -> Value {
    let mut v = crate::json!({"type": "function_call", "call_id": call_id, "name": "read", "arguments": "{}"});
    if let Some(id) = id {
        v["id"] = id.into();
    }
    v
}

/// For tests: the output answering `call_id`.
#[cfg(test)]
fn output(call_id: &str) -> Value {
    crate::json!({"type": "function_call_output", "call_id": call_id, "output": "ok"})
}

/// For tests: a user message item.
#[cfg(test)]
fn user(text: &str) -> Value {
    crate::json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})
}
