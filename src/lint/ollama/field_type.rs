//! Message `content` is a string and tool-call `arguments` an object: Go's JSON decoder
//! refuses any other JSON kind for these `ChatRequest` fields (`null` leaves them unset).

use crate::model::json::Value;

use crate::lint::shape::{array, hit, provider_index};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Go's `UnmarshalTypeError` text: `{kind}` is the JSON kind found, `{field}` the field's
/// path below `ChatRequest.messages`, `{type}` the Go type expected.
const ERROR: &str = "json: cannot unmarshal {kind} into Go struct field ChatRequest.messages.{field} of type {type}";

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "ollama-field-type",
    apis: &[WireApi::Ollama],
    summary: "message content is a string, tool-call arguments an object",
    error: ERROR,
    reference: "Ollama /api/chat, https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion; rejection: https://github.com/ollama/ollama/issues/10255",
    fixed_by: None,
    check: Check::Code(check),
};

/// The JSON kind as Go's decoder names it; `None` for `null`, which it accepts.
fn kind(value: &Value) -> Option<&'static str> {
    match value {
        Value::Null => None,
        Value::Bool(_) => Some("bool"),
        Value::Number(_) => Some("number"),
        Value::String(_) => Some("string"),
        Value::Array(_) => Some("array"),
        Value::Object(_) => Some("object"),
    }
}

fn message(kind: &str, field: &str, go_type: &str) -> String {
    ERROR
        .replace("{kind}", kind)
        .replace("{field}", field)
        .replace("{type}", go_type)
}

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        let n = provider_index(payload, i);
        if let Some(found) = item.value.get("content").and_then(kind).filter(|k| *k != "string") {
            let text = message(found, "content", "string");
            hits.push(hit(i, format!("messages[{n}].content"), text));
        }
        for (j, call) in array(&item.value, "tool_calls").iter().enumerate() {
            let arguments = call.get("function").and_then(|f| f.get("arguments"));
            if let Some(found) = arguments.and_then(kind).filter(|k| *k != "object") {
                let text = message(found, "tool_calls.function.arguments", "api.ToolCallFunctionArguments");
                hits.push(hit(
                    i,
                    format!("messages[{n}].tool_calls[{j}].function.arguments"),
                    text,
                ));
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn what_openclaw_sends_passes() {
        let call = json!({"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "read", "arguments": {}}}]});
        assert!(
            run(
                &CONSTRAINT,
                json!([{"role": "user", "content": "hi"}, call, {"role": "user", "content": null}])
            )
            .is_empty()
        );
    }

    #[test]
    fn array_content_and_string_arguments_get_go_s_text() {
        let call = json!({"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "read", "arguments": "{}"}}]});
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": [{"type": "text", "text": "hi"}]}, call]),
        );
        assert_eq!(
            texts(&hits),
            [
                "json: cannot unmarshal array into Go struct field ChatRequest.messages.content of type string",
                "json: cannot unmarshal string into Go struct field ChatRequest.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments",
            ]
        );
        assert_eq!(
            hits[1].path, "messages[2].tool_calls[0].function.arguments",
            "the system prompt is message 0"
        );
    }
}
