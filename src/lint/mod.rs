//! Provider lint: would the provider accept this payload?
//!
//! Each provider constraint (from the providers' API documentation and public issues) that can be checked on the
//! conversation lives in its own file under the provider's folder, holding the check, the
//! provider's exact error text (filled in the way the provider fills it: indices, ids,
//! sizes) and its tests; the size and count limits are rows of one table ([`limits`]),
//! checked by one check per kind of limit. [`lint`] runs every constraint of the payload's API and traces each
//! finding to the replay and stored messages it points at.

pub mod anthropic;
pub mod bedrock;
pub mod constraint;
pub mod error_patterns;
pub mod error_sizes;
pub mod explain;
pub mod google;
pub(crate) mod ids;
pub(crate) mod limit_checks;
pub mod limits;
pub mod mistral;
pub mod ollama;
pub mod openai_chat;
pub mod openai_responses;
pub mod pasted;
pub mod registry;
pub(crate) mod shape;
#[cfg(test)]
pub(crate) mod test_support;

use serde::Serialize;

pub use constraint::{Check, Constraint, Hit};

use crate::wire::{WirePayload, WireStage};

/// One violated constraint at one place of the payload.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The constraint's id, e.g. `anthropic-tool-use-adjacency`.
    pub constraint: &'static str,
    /// Which payload was checked.
    pub stage: WireStage,
    /// The provider's error text for this payload, filled in as the provider would.
    pub message: String,
    /// Where in the body the provider points (`messages.22`, `input[3].call_id`, …).
    pub path: String,
    /// Index of the payload item the finding is about.
    pub item: usize,
    /// Replay messages that item came from (`[]` at the stored stage).
    pub replay: Vec<usize>,
    /// Stored messages that item came from.
    pub stored: Vec<usize>,
    /// The hygiene rule that fixes this constraint, or `None` when hygiene does not.
    pub fixed_by: Option<&'static str>,
}

impl Finding {
    /// What hygiene does about it, in words: the rule that fixes it (on the stored payload), that
    /// the rule did not fix it here (still on the replay payload), or that hygiene does not.
    pub fn fix_note(&self) -> String {
        match (self.fixed_by, self.stage) {
            (Some(rule), WireStage::Stored) => format!("fixed by hygiene rule {rule}"),
            (Some(rule), WireStage::Replay) => {
                format!("hygiene rule {rule} fixes this kind, but not this case: it is still in the replay")
            }
            (None, _) => "not fixed by hygiene".to_string(),
        }
    }
}

/// Check a payload against every constraint of its API, in payload order.
pub fn lint(w: &WirePayload) -> Vec<Finding> {
    let mut findings: Vec<Finding> = registry::for_api(w.payload.api)
        .flat_map(|c| {
            c.run(&w.payload, &w.model).into_iter().map(move |hit| Finding {
                constraint: c.id,
                stage: w.stage,
                message: hit.message,
                path: hit.path,
                item: hit.item,
                replay: w.replay(hit.item).to_vec(),
                stored: w.stored(hit.item).to_vec(),
                fixed_by: c.fixed_by,
            })
        })
        .collect();
    findings.sort_by_key(|f| f.item);
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(stage: WireStage, fixed_by: Option<&'static str>) -> Finding {
        Finding {
            constraint: "x",
            stage,
            message: String::new(),
            path: String::new(),
            item: 0,
            replay: Vec::new(),
            stored: Vec::new(),
            fixed_by,
        }
    }

    #[test]
    fn a_replay_finding_never_claims_its_rule_fixed_it() {
        assert_eq!(
            finding(WireStage::Stored, Some("blank-text")).fix_note(),
            "fixed by hygiene rule blank-text"
        );
        let still = finding(WireStage::Replay, Some("blank-user-turn")).fix_note();
        assert!(
            still.contains("not this case") && still.contains("blank-user-turn"),
            "{still}"
        );
        assert_eq!(finding(WireStage::Replay, None).fix_note(), "not fixed by hygiene");
    }
}
