//! The inspector's view of the wire stage: the replay payload for the current target, which
//! payload items each replay message became, and the provider lint findings.

use std::sync::Arc;

use replaylens::lint::{Finding, lint};
use replaylens::model::{Message, Transcript};
use replaylens::policy::Target;
use replaylens::wire::{WireApi, WireItem, WirePayload, WireStage, stored_payload, wire_target};

use super::inspection::{Projected, replayed_message};

/// What computing a wire state needs: the stored transcript and one projection of it, shared
/// with the inspection (no copy), and the resolved target.
#[derive(Debug, Clone)]
pub struct WireJob {
    /// The stored transcript.
    pub transcript: Arc<Transcript<'static>>,
    /// The projection.
    pub replay: Arc<Vec<Projected>>,
    /// The resolved target.
    pub target: Target,
}

impl PartialEq for WireJob {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.replay, &other.replay) && self.target == other.target
    }
}

impl Eq for WireJob {}

impl WireJob {
    /// True when this job was made for exactly this projection (not an older one).
    pub fn is_for(&self, replay: &Arc<Vec<Projected>>) -> bool {
        Arc::ptr_eq(&self.replay, replay)
    }

    /// A replay message (its stored source when unchanged).
    fn replayed(&self, index: usize) -> Option<&Message> {
        replayed_message(&self.transcript, &self.replay, index)
    }
}

/// The replay payload of an inspection and its lint.
#[derive(Debug, Clone, PartialEq)]
pub struct WireState {
    /// True until the payload of the current projection has been computed.
    pub pending: bool,
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
    /// Lint findings on the stored-stage payload (the stored messages sent as they are,
    /// without hygiene: what the provider rejected in the first place), in payload order.
    pub stored_findings: Vec<Finding>,
}

impl Default for WireState {
    fn default() -> Self {
        Self {
            pending: true,
            api: None,
            unsupported: None,
            items: Vec::new(),
            items_of_replay: Vec::new(),
            findings: Vec::new(),
            stored_findings: Vec::new(),
        }
    }
}

impl WireState {
    /// Build the replay payload of a projection for its resolved target and lint it.
    pub fn compute(job: &WireJob) -> Self {
        let (api, model) = match wire_target(&job.target) {
            Ok(found) => found,
            Err(e) => {
                return Self {
                    pending: false,
                    unsupported: Some(e.to_string()),
                    ..Self::default()
                };
            }
        };
        let messages: Vec<&Message> = (0..job.replay.len()).filter_map(|i| job.replayed(i)).collect();
        let sources: Vec<&[usize]> = job.replay.iter().map(|p| p.source.as_slice()).collect();
        let w = WirePayload::of_projection(api, model, &messages, &sources);
        let findings = lint(&w);
        let stored_findings = stored_payload(&job.transcript.messages, &job.target)
            .map(|s| lint(&s))
            .unwrap_or_default();
        let mut items_of_replay = vec![Vec::new(); job.replay.len()];
        for (n, item) in w.payload.items.iter().enumerate() {
            for &r in &item.source {
                if let Some(slot) = items_of_replay.get_mut(r) {
                    slot.push(n);
                }
            }
        }
        Self {
            pending: false,
            api: Some(api),
            unsupported: None,
            items: w.payload.items,
            items_of_replay,
            findings,
            stored_findings,
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

    /// Stored-stage findings on any of the stored messages `stored`.
    pub fn stored_findings_for<'a>(&'a self, stored: &'a [usize]) -> impl Iterator<Item = &'a Finding> {
        self.stored_findings
            .iter()
            .filter(move |f| f.stored.iter().any(|s| stored.contains(s)))
    }

    /// The findings of one stage on a row: its replay message's, or its stored messages'.
    pub fn findings_on<'a>(&'a self, stage: WireStage, replay: Option<usize>, stored: &'a [usize]) -> Vec<&'a Finding> {
        match stage {
            WireStage::Replay => replay.map(|r| self.findings_for(r).collect()).unwrap_or_default(),
            WireStage::Stored => self.stored_findings_for(stored).collect(),
        }
    }

    /// All findings of one stage.
    pub fn of_stage(&self, stage: WireStage) -> &[Finding] {
        match stage {
            WireStage::Replay => &self.findings,
            WireStage::Stored => &self.stored_findings,
        }
    }
}

/// Compute a wire state on its own thread; the result arrives on the returned receiver.
pub fn spawn(job: WireJob) -> std::sync::mpsc::Receiver<(WireJob, WireState)> {
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = move || {
        let state = WireState::compute(&job);
        let _ = tx.send((job, state));
    };
    // Converters walk values recursively, as the rules do: the loader's stack size.
    let _ = std::thread::Builder::new()
        .name("replaylens-wire".into())
        .stack_size(64 << 20)
        .spawn(worker);
    rx
}
