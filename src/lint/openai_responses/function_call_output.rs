//! Every `function_call` has a later `function_call_output` with its `call_id`.

use std::collections::HashMap;

use super::APIS;
use crate::lint::shape::{hit, kind, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-responses-function-call-output",
    apis: APIS,
    summary: "every function_call is answered by a later function_call_output with its call_id",
    error: "No tool output found for function call {call_id}.",
    reference: "OpenAI Responses API, https://platform.openai.com/docs/api-reference/responses; rejection: https://github.com/openai/codex/issues/93",
    fixed_by: Some("tool-result-pairing"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let items = &payload.items;
    // For each call id, the position of its last output: a call is answered when an output
    // with its id comes after it.
    let mut last_output: HashMap<&str, usize> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        if kind(&item.value) == Some("function_call_output") {
            last_output.insert(str_at(&item.value, "call_id").unwrap_or(""), i);
        }
    }
    let mut hits = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if kind(&item.value) != Some("function_call") {
            continue;
        }
        let call_id = str_at(&item.value, "call_id").unwrap_or("");
        let answered = last_output.get(call_id).is_some_and(|&o| o > i);
        if !answered {
            hits.push(hit(
                i,
                "input".to_string(),
                format!("No tool output found for function call {call_id}."),
            ));
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::super::{call, output, user};
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn an_answered_call_passes() {
        assert!(run(&CONSTRAINT, json!([user("hi"), call(None, "call_1"), output("call_1")])).is_empty());
    }

    #[test]
    fn an_unanswered_call_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), call(None, "call_1"), output("call_2"), user("go")]),
        );
        assert_eq!(texts(&hits), ["No tool output found for function call call_1."]);
        assert_eq!(hits[0].item, 1);
    }
}
