//! The inspector's view of the wire stage: the replay payload for the current target, which
//! payload items each replay message became, and the provider lint findings.

use std::sync::Arc;

use replaylens::lint::{Finding, lint};
use replaylens::model::{Message, Transcript};
use replaylens::policy::Target;
use replaylens::wire::{WireApi, WireItem, WirePayload, WireStage, stored_payload_with, wire_target_with};

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
    /// The user's OpenClaw configuration (a custom provider's model object shapes the payload).
    pub config: Option<Arc<replaylens::policy::config::OpenClawConfig>>,
    /// The stored payload's lint when it is already known for this transcript and target (a
    /// rule-set switch changes the projection, not what is stored): not computed again.
    pub stored_lint: Option<Arc<StoredLint>>,
}

/// The lint of the stored-stage payload (the stored messages sent as they are, without
/// hygiene: what the provider rejected in the first place), indexed by stored message.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StoredLint {
    /// The findings, in payload order.
    pub findings: Vec<Finding>,
    /// For each stored message, the indices of the findings on it.
    pub of_stored: Vec<Vec<usize>>,
}

impl StoredLint {
    fn compute(job: &WireJob) -> Self {
        let findings = stored_payload_with(&job.transcript.messages, &job.target, job.config.as_deref())
            .map(|s| lint(&s))
            .unwrap_or_default();
        let of_stored = index(&findings, job.transcript.messages.len(), |f| &f.stored);
        Self { findings, of_stored }
    }
}

/// For each of `n` messages, the indices of the findings `on` it.
fn index(findings: &[Finding], n: usize, on: impl Fn(&Finding) -> &[usize]) -> Vec<Vec<usize>> {
    let mut of = vec![Vec::new(); n];
    for (k, f) in findings.iter().enumerate() {
        for &m in on(f) {
            if let Some(slot) = of.get_mut(m) {
                slot.push(k);
            }
        }
    }
    of
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
    /// For each replay message, the indices of the findings on it.
    pub findings_of_replay: Vec<Vec<usize>>,
    /// The stored-stage payload's lint, once known (shared between the projections of one
    /// transcript and target: a rule-set switch keeps it).
    pub stored: Option<Arc<StoredLint>>,
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
            findings_of_replay: Vec::new(),
            stored: None,
        }
    }
}

impl WireState {
    /// Build the replay payload of a projection for its resolved target and lint it.
    pub fn compute(job: &WireJob) -> Self {
        let (api, model) = match wire_target_with(&job.target, job.config.as_deref()) {
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
        let findings_of_replay = index(&findings, job.replay.len(), |f| &f.replay);
        let stored = Some(
            job.stored_lint
                .clone()
                .unwrap_or_else(|| Arc::new(StoredLint::compute(job))),
        );
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
            findings_of_replay,
            stored,
        }
    }

    /// Findings on the payload items of replay message `replay`.
    pub fn findings_for(&self, replay: usize) -> impl Iterator<Item = &Finding> {
        self.findings_of_replay
            .get(replay)
            .into_iter()
            .flatten()
            .map(|&k| &self.findings[k])
    }

    /// True when some finding points at replay message `replay`.
    pub fn has_finding(&self, replay: usize) -> bool {
        self.findings_of_replay.get(replay).is_some_and(|f| !f.is_empty())
    }

    /// The findings of one stage on a row: its replay message's, or its stored messages'
    /// (each once, in payload order).
    pub fn findings_on(&self, stage: WireStage, replay: Option<usize>, stored: &[usize]) -> Vec<&Finding> {
        match stage {
            WireStage::Replay => replay.map(|r| self.findings_for(r).collect()).unwrap_or_default(),
            WireStage::Stored => {
                let Some(lint) = &self.stored else { return Vec::new() };
                let mut ks: Vec<usize> = stored
                    .iter()
                    .filter_map(|&s| lint.of_stored.get(s))
                    .flatten()
                    .copied()
                    .collect();
                ks.sort_unstable();
                ks.dedup();
                ks.into_iter().map(|k| &lint.findings[k]).collect()
            }
        }
    }

    /// All findings of one stage.
    pub fn of_stage(&self, stage: WireStage) -> &[Finding] {
        match stage {
            WireStage::Replay => &self.findings,
            WireStage::Stored => self.stored.as_ref().map_or(&[], |l| &l.findings),
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
