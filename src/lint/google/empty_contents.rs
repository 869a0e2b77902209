//! `contents` is not empty (a system-only request is rejected).

use crate::lint::shape::hit;
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireModel};

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "gemini-empty-contents",
    apis: super::APIS,
    summary: "contents holds at least one content",
    error: "contents is not specified",
    reference: "Google Gemini generateContent, https://ai.google.dev/api/generate-content; rejection: https://github.com/NousResearch/hermes-agent/pull/57942",
    fixed_by: None,
    check: Check::Code(check),
};

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    if payload.items.is_empty() {
        vec![hit(0, "contents".to_string(), "contents is not specified".to_string())]
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::super::user;
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn one_content_passes() {
        assert!(run(&CONSTRAINT, json!([user("hi")])).is_empty());
    }

    #[test]
    fn no_content_is_reported() {
        assert_eq!(texts(&run(&CONSTRAINT, json!([]))), ["contents is not specified"]);
    }
}
