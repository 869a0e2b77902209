//! What a provider constraint is: its id, the APIs it applies to, the provider's error text,
//! the hygiene rule that fixes it, and its check.

use super::limits::Limit;
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
    /// Where it is documented: the provider's published API documentation (name and address) and,
    /// where one is on record, a public issue that shows the rejection.
    pub reference: &'static str,
    /// The hygiene rule that makes a replay meet it, or `None` when hygiene does not.
    pub fixed_by: Option<&'static str>,
    /// How violations are found.
    pub check: Check,
}

/// How a constraint finds the violations of a payload.
#[derive(Debug, Clone, Copy)]
pub enum Check {
    /// A check of its own.
    Code(fn(&Payload, &WireModel) -> Vec<Hit>),
    /// A row of the [limits table](super::limits), checked by its kind's check.
    Limit(&'static Limit),
}

impl Constraint {
    /// Find every violation in a payload.
    pub fn run(&self, payload: &Payload, model: &WireModel) -> Vec<Hit> {
        match self.check {
            Check::Code(check) => check(payload, model),
            Check::Limit(row) => super::limit_checks::check(row, payload),
        }
    }
}
