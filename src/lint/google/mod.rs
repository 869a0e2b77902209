//! Gemini `generateContent` constraints (https://ai.google.dev/api/generate-content, AI Studio and Vertex), for
//! `google-generative-ai` (provider `google-gemini-cli` included: its models use that API) and
//! `google-vertex` (either transport). Constraint ids start with `gemini-`.

mod empty_contents;
mod empty_parts;
mod empty_text;
mod function_call_placement;
mod function_response_count;
mod function_response_name;
mod function_response_placement;
mod thought_signature;

use crate::model::json::Value;

use super::Constraint;
use super::shape::{array, field, role};
use crate::wire::WireApi;

/// The APIs these constraints apply to: both send the Gemini `contents` body.
pub(crate) const APIS: &[WireApi] = &[
    WireApi::GoogleGenerativeAi,
    WireApi::GoogleVertex,
    WireApi::GoogleVertexPiAi,
];

/// Every hand-written Gemini constraint, in report order (the limits table's rows follow).
pub static CONSTRAINTS: &[&Constraint] = &[
    &function_call_placement::CONSTRAINT,
    &function_response_placement::CONSTRAINT,
    &function_response_count::CONSTRAINT,
    &empty_parts::CONSTRAINT,
    &empty_contents::CONSTRAINT,
    &empty_text::CONSTRAINT,
    &function_response_name::CONSTRAINT,
    &thought_signature::CONSTRAINT,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::lint;
    use crate::lint::registry::for_api;
    use crate::model::Message;
    use crate::wire::{WireModel, WirePayload};

    #[test]
    fn vertex_gets_every_gemini_constraint() {
        let ids = |api| for_api(api).map(|c| c.id).collect::<Vec<_>>();
        assert_eq!(ids(WireApi::GoogleVertex), ids(WireApi::GoogleGenerativeAi));
        let rows = crate::lint::limits::LIMITS.iter().filter(|r| r.apis == APIS).count();
        assert_eq!(ids(WireApi::GoogleVertex).len(), CONSTRAINTS.len() + rows);
        assert_eq!(ids(WireApi::GoogleVertexPiAi), ids(WireApi::GoogleGenerativeAi));
    }

    #[test]
    fn a_vertex_payload_is_checked_like_a_gemini_one() {
        let stored = [
            crate::json!({"role": "assistant", "provider": "google-vertex", "api": "google-vertex",
                          "model": "gemini-2.5-pro",
                          "content": [{"type": "toolCall", "id": "c1", "name": "x", "arguments": {}}]}),
            crate::json!({"role": "user", "content": "go"}),
        ];
        let messages: Vec<Message> = stored.into_iter().filter_map(Message::from_value).collect();
        let refs: Vec<&Message> = messages.iter().collect();
        let found = |api: WireApi| {
            let model = WireModel::new("google-vertex", api.id(), "gemini-2.5-pro");
            lint(&WirePayload::of_stored(api, model, &refs))
                .into_iter()
                .map(|f| (f.constraint, f.message))
                .collect::<Vec<_>>()
        };
        let vertex = found(WireApi::GoogleVertex);
        assert!(
            vertex.iter().any(|(id, _)| *id == "gemini-function-call-placement"),
            "{vertex:?}"
        );
        assert_eq!(vertex, found(WireApi::GoogleGenerativeAi));
    }
}
