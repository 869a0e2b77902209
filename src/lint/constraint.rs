//! What a provider constraint is: its id, the APIs it applies to, the provider's error text,
//! the hygiene rule that fixes it, and its check.

use crate::wire::{Payload, WireApi, WireModel};

/// One place where a payload breaks a constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// Index of the payload item (`messages[i]`, `input[i]`, `contents[i]`).
    pub item: usize,
    /// Path the provider names, e.g. `messages.22.content.1`.
    pub path: String,
    /// The provider's error text, filled in.
    pub message: String,
}

/// A provider's documented constraint on the conversation part of a request.
#[derive(Debug)]
pub struct Constraint {
    /// Stable id, `<provider>-<what>`.
    pub id: &'static str,
    /// The APIs whose payloads it applies to.
    pub apis: &'static [WireApi],
    /// One line: what the provider requires.
    pub summary: &'static str,
    /// The provider's error text as a template, `{…}` marking what the provider fills in.
    pub error: &'static str,
    /// Where it is documented (`provider-constraints.md` section).
    pub reference: &'static str,
    /// The hygiene rule that makes a replay meet it, or `None` when hygiene does not.
    pub fixed_by: Option<&'static str>,
    /// Find every violation in a payload.
    pub check: fn(&Payload, &WireModel) -> Vec<Hit>,
}
