//! The inspector's view of the wire stage: the replay payload for the current target, which
//! payload items each replay message became, and the provider lint findings.

use replaylens::lint::{Finding, lint};
use replaylens::model::Message;
use replaylens::wire::{WireApi, WireItem, WirePayload, wire_target};

use super::inspection::Inspection;

/// The replay payload of an inspection and its lint.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WireState {
    /// The API the payload is for; `None` when replaylens has no converter for the target.
    pub api: Option<WireApi>,
    /// Why there is no payload (unknown API), one sentence.
    pub unsupported: Option<String>,
    /// The payload's conversation items.
    pub items: Vec<WireItem>,
    /// For each replay message, the payload items it went into.
    pub items_of_replay: Vec<Vec<usize>>,
    /// Lint findings on the replay payload, in payload order.
    pub findings: Vec<Finding>,
}

impl WireState {
    /// Build the replay payload of `insp` for its resolved target and lint it.
    pub fn compute(insp: &Inspection) -> Self {
        let (api, model) = match wire_target(&insp.resolved.target) {
            Ok(found) => found,
            Err(e) => {
                return Self {
                    unsupported: Some(e.to_string()),
                    ..Self::default()
                };
            }
        };
        let messages: Vec<&Message> = (0..insp.replay.len()).filter_map(|i| insp.replayed(i)).collect();
        let sources: Vec<&[usize]> = insp.replay.iter().map(|p| p.source.as_slice()).collect();
        let w = WirePayload::of_projection(api, model, &messages, &sources);
        let findings = lint(&w);
        let mut items_of_replay = vec![Vec::new(); insp.replay.len()];
        for (n, item) in w.payload.items.iter().enumerate() {
            for &r in &item.source {
                if let Some(slot) = items_of_replay.get_mut(r) {
                    slot.push(n);
                }
            }
        }
        Self {
            api: Some(api),
            unsupported: None,
            items: w.payload.items,
            items_of_replay,
            findings,
        }
    }

    /// Findings on the payload items of replay message `replay`.
    pub fn findings_for(&self, replay: usize) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.replay.contains(&replay))
    }

    /// True when some finding points at replay message `replay`.
    pub fn has_finding(&self, replay: usize) -> bool {
        self.findings_for(replay).next().is_some()
    }
}
