//! Gemini `generateContent` constraints (provider-constraints.md §4), for `google-generative-ai`.
//! Constraint ids start with `gemini-`.

mod empty_contents;
mod empty_parts;
mod empty_text;
mod function_call_placement;
mod function_response_count;
mod function_response_name;
mod function_response_placement;
mod request_size;
mod thought_signature;

use crate::model::json::Value;

use super::Constraint;
use super::shape::{array, field, role};

/// Every Gemini constraint, in report order.
pub static CONSTRAINTS: &[&Constraint] = &[
    &function_call_placement::CONSTRAINT,
    &function_response_placement::CONSTRAINT,
    &function_response_count::CONSTRAINT,
    &empty_parts::CONSTRAINT,
    &empty_contents::CONSTRAINT,
    &empty_text::CONSTRAINT,
    &function_response_name::CONSTRAINT,
    &thought_signature::CONSTRAINT,
    &request_size::CONSTRAINT,
];

/// The parts of a content.
fn parts(content: &Value) -> &[Value] {
    array(content, "parts")
}

/// A part's `functionCall`.
fn function_call(part: &Value) -> Option<&Value> {
    field(part, &["functionCall", "function_call"])
}

/// A part's `functionResponse`.
fn function_response(part: &Value) -> Option<&Value> {
    field(part, &["functionResponse", "function_response"])
}

/// Number of functionCall parts of a model content (0 for other roles).
fn call_count(content: &Value) -> usize {
    if role(content) != Some("model") {
        return 0;
    }
    parts(content).iter().filter(|p| function_call(p).is_some()).count()
}

/// Number of functionResponse parts of a content.
fn response_count(content: &Value) -> usize {
    parts(content).iter().filter(|p| function_response(p).is_some()).count()
}

/// For tests: a user text turn.
#[cfg(test)]
fn user(text: &str) -> Value {
    crate::json!({"role": "user", "parts": [{"text": text}]})
}

/// For tests: a model turn calling `names` (the first call signed with `signature`).
#[cfg(test)]
fn calls(names: &[&str], signature: Option<&str>) -> Value {
    let parts: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(n, name)| {
            let mut part = crate::json!({"functionCall": {"name": name, "args": {}}});
            if let (0, Some(s)) = (n, signature) {
                part["thoughtSignature"] = s.into();
            }
            part
        })
        .collect();
    crate::json!({"role": "model", "parts": parts})
}

/// For tests: a user turn answering `names`.
#[cfg(test)]
fn responses(names: &[&str]) -> Value {
    let parts: Vec<Value> = names
        .iter()
        .map(|name| crate::json!({"functionResponse": {"name": name, "response": {"output": "ok"}}}))
        .collect();
    crate::json!({"role": "user", "parts": parts})
}
