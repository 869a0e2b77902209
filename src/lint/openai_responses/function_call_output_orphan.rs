//! Every `function_call_output` answers an earlier `function_call` with its `call_id`.

use std::collections::HashSet;

use super::APIS;
use crate::lint::shape::{hit, kind, str_at};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "openai-responses-function-call-output-orphan",
    apis: APIS,
    summary: "every function_call_output answers an earlier function_call with its call_id",
    error: "No tool call found for function call output with call_id {call_id}.",
    reference: "OpenAI Responses API, https://platform.openai.com/docs/api-reference/responses; rejection: https://github.com/continuedev/continue/issues/9897",
    fixed_by: Some("tool-result-pairing"),
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let items = &payload.items;
    let mut called: HashSet<&str> = HashSet::new();
    let mut hits = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if kind(&item.value) == Some("function_call") {
            called.insert(str_at(&item.value, "call_id").unwrap_or(""));
            continue;
        }
        if kind(&item.value) != Some("function_call_output") {
            continue;
        }
        let call_id = str_at(&item.value, "call_id").unwrap_or("");
        if !called.contains(call_id) {
            let message = format!("No tool call found for function call output with call_id {call_id}.");
            hits.push(hit(i, "input".to_string(), message));
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
    fn an_output_after_its_call_passes() {
        assert!(run(&CONSTRAINT, json!([user("hi"), call(None, "call_1"), output("call_1")])).is_empty());
    }

    #[test]
    fn an_output_without_a_call_is_reported() {
        let hits = run(
            &CONSTRAINT,
            json!([user("hi"), output("toolu_01A"), call(None, "call_1"), output("call_1")]),
        );
        assert_eq!(
            texts(&hits),
            ["No tool call found for function call output with call_id toolu_01A."]
        );
    }
}
