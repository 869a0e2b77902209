//! Re-projection after a profile or rule-set switch, off the UI thread: the old projection
//! stays on screen with a busy mark in the header, keys keep working, and a result for a switch
//! that a newer one replaced is dropped.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};

use replaylens::hygiene::{ReplayOptions, Rewrite};
use replaylens::model::Transcript;
use replaylens::policy::{EffectiveTarget, ResolvedPolicy, Target, effective};
use replaylens::replay::{Replay, replay_transcript};

use super::app::{App, Effect, plural};
use super::inspection::{Projected, borrowed_view, projected};

/// What re-projecting a loaded transcript needs.
#[derive(Clone)]
pub struct Job {
    /// The stored transcript, shared.
    pub transcript: Arc<Transcript<'static>>,
    /// The target asked for.
    pub requested: Target,
    /// The replay options (the rule set among them).
    pub options: ReplayOptions,
    /// Which switch this is: only the newest one's result is taken.
    pub generation: u64,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("requested", &self.requested)
            .field("rule_set", &self.options.rule_set.name)
            .field("generation", &self.generation)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Job {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.transcript, &other.transcript)
            && self.generation == other.generation
            && self.requested == other.requested
            && self.options == other.options
    }
}

impl Eq for Job {}

/// A finished re-projection.
pub struct Reprojected {
    /// The switch it answers.
    pub generation: u64,
    /// The target asked for.
    pub requested: Target,
    /// Where each part of the target came from.
    pub target_origin: EffectiveTarget,
    /// Target, family and policy it resolved to.
    pub resolved: ResolvedPolicy,
    /// The replay options used.
    pub options: ReplayOptions,
    /// The replay messages.
    pub replay: Vec<Projected>,
    /// Every rewrite, in pipeline order.
    pub rewrites: Vec<Rewrite>,
    /// Ids of the rules that ran.
    pub rules_run: Vec<&'static str>,
    /// Why OpenClaw refuses to send this replay at all, if it does.
    pub refusal: Option<String>,
}

impl Job {
    /// Compute the projection.
    pub fn run(self) -> Reprojected {
        let view = borrowed_view(&self.transcript);
        let Replay {
            resolved, projection, ..
        } = replay_transcript(view, &self.requested, &self.options);
        let replay = projected(&self.transcript.messages, projection.messages);
        Reprojected {
            generation: self.generation,
            target_origin: effective(&self.requested, &self.transcript.model),
            requested: self.requested,
            resolved,
            options: self.options,
            replay,
            rewrites: projection.rewrites,
            rules_run: projection.rules_run,
            refusal: projection.refusal,
        }
    }
}

/// Run a job on its own thread; the result arrives on the returned receiver.
pub fn spawn(job: Job) -> Receiver<Reprojected> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let _ = tx.send(job.run());
    });
    rx
}

impl App {
    /// Re-project the loaded transcript for `requested` under `options` in the background.
    pub(super) fn start_reproject(&mut self, requested: Target, options: ReplayOptions) {
        let Some(insp) = &self.insp else { return };
        self.generation += 1;
        let job = insp.reproject_job(requested, options, self.generation);
        self.reprojecting = Some(self.generation);
        self.effects.push(Effect::Reproject(job));
    }

    /// A re-projection finished: taken when it answers the newest switch, the selection kept
    /// on the same stored message.
    pub fn reprojected(&mut self, r: Reprojected) {
        if self.reprojecting != Some(r.generation) {
            return;
        }
        self.reprojecting = None;
        let anchor = self.anchor();
        let rule_set_changed = self
            .insp
            .as_ref()
            .is_some_and(|i| !std::ptr::eq(i.options.rule_set, r.options.rule_set));
        let Some(insp) = &mut self.insp else { return };
        insp.apply(r);
        self.effects.push(Effect::Wire(insp.wire_job()));
        let (n, m, k) = (
            insp.stored_len(),
            insp.replay.len(),
            plural(insp.rewrites.len(), "rewrite"),
        );
        let status = if rule_set_changed {
            let set = insp.options.rule_set;
            format!("OpenClaw {} ({}): stored {n} → replay {m}, {k}", set.name, set.releases)
        } else {
            format!("{}: stored {n} → replay {m}, {k}", insp.resolved.family.label())
        };
        self.realign(anchor);
        self.status = Some(status);
    }
}
