//! The owned data the inspector shows: the stored transcript and one replay projection of it.
//!
//! The library's [`Replay`] borrows the session; the inspector keeps an owned copy so that it
//! can live in the app state and be recomputed for another target. Replay messages that a rule
//! did not touch are not copied: they point back at their stored message.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use replaylens::hygiene::{ReplayOptions, Rewrite};
use replaylens::model::{Message, StoredMessage, Transcript};
use replaylens::policy::{EffectiveTarget, ResolvedPolicy, Target, effective, resolve_for};
use replaylens::replay::Replay;

use super::wire_state::{WireJob, WireState};

/// Where the session came from, for the header.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionInfo {
    /// The file it was read from.
    pub path: PathBuf,
    /// The session id.
    pub id: String,
    /// The format name (`openclaw-jsonl`, …).
    pub format: String,
    /// For a database: the session id to load it again with.
    pub db_session: Option<String>,
}

/// One message of the replay projection, owned.
#[derive(Debug, Clone, PartialEq)]
pub struct Projected {
    /// Stored indices it came from (`[]` = synthesized, several = merge).
    pub source: Vec<usize>,
    /// The message when it differs from its single stored source; `None` = unchanged.
    pub changed: Option<Message>,
}

/// An owned replay: the stored transcript, the target and the projection.
#[derive(Debug, Clone)]
pub struct Inspection {
    /// Where the session came from.
    pub session: SessionInfo,
    /// The stored transcript (owned messages), shared with the loader while it computes
    /// the projection.
    pub transcript: Arc<Transcript<'static>>,
    /// The target as requested (missing parts are filled from the session or from the
    /// requested provider's defaults).
    pub requested: Target,
    /// Where each part of the resolved target came from, and warnings about the request
    /// (near misses of known provider and API ids).
    pub target_origin: EffectiveTarget,
    /// Target, family and policy the replay resolved to.
    pub resolved: ResolvedPolicy,
    /// Options of the replay.
    pub options: ReplayOptions,
    /// The replay messages, in order.
    pub replay: Arc<Vec<Projected>>,
    /// Every rewrite, in pipeline order.
    pub rewrites: Vec<Rewrite>,
    /// Ids of the rules that ran.
    pub rules_run: Vec<&'static str>,
    /// Why OpenClaw refuses to send this replay at all, if it does.
    pub refusal: Option<String>,
    /// What the load skipped or warned about (lines, rows, cut branches), one sentence each.
    pub load_problems: Vec<String>,
    /// How many of `load_problems` are notes (another agent's lines kept but not sent),
    /// not problems.
    pub load_notes: usize,
    /// True while the projection is still being computed (the stored side is shown first).
    pub pending: bool,
    /// True for the provisional stored side of a large file still being read: its first
    /// messages in file order, replaced by the active branch once the whole file is read.
    pub preview: bool,
    /// The replay payload for the target and its provider lint (computed off the UI thread
    /// once the projection is on screen; `pending` until then).
    pub wire: WireState,
}

impl Inspection {
    /// Take ownership of a computed replay.
    pub fn from_replay(session: SessionInfo, requested: Target, replay: Replay<'_>) -> Self {
        let Replay {
            transcript,
            resolved,
            options,
            projection,
        } = replay;
        let messages = projected(&transcript.messages, projection.messages);
        let mut insp = Self::stored_only(session, requested, transcript, options);
        insp.resolved = resolved;
        insp.replay = Arc::new(messages);
        insp.rewrites = projection.rewrites;
        insp.rules_run = projection.rules_run;
        insp.refusal = projection.refusal;
        insp.pending = false;
        insp
    }

    /// The stored side alone, shown while the projection is computed: no replay messages,
    /// no rewrites, `pending` set. The target and policy are already resolved.
    pub fn stored_only(
        session: SessionInfo,
        requested: Target,
        transcript: Transcript<'_>,
        options: ReplayOptions,
    ) -> Self {
        let target_origin = effective(&requested, &transcript.model);
        let resolved = resolve_for(&target_origin.target, options.rule_set);
        let mut load_problems: Vec<String> = transcript
            .diagnostics
            .iter()
            .map(|d| problem_line(d, &session.path))
            .collect();
        let mut load_notes = transcript
            .diagnostics
            .iter()
            .filter(|d| d.severity == replaylens::model::Severity::Note)
            .count();
        // What the file holds beyond the active branch is a note of the load panel.
        if let Some(hidden) = transcript.hidden.sentence() {
            load_problems.push(format!("note: {hidden}"));
            load_notes += 1;
        }
        Self {
            session,
            transcript: Arc::new(owned_transcript(transcript)),
            requested,
            target_origin,
            resolved,
            options,
            replay: Arc::new(Vec::new()),
            rewrites: Vec::new(),
            rules_run: Vec::new(),
            refusal: None,
            load_problems,
            load_notes,
            pending: true,
            preview: false,
            wire: WireState::default(),
        }
    }

    /// Compute the projection of a [`Self::stored_only`] inspection (on the loader's thread).
    pub fn complete(mut self) -> Self {
        let requested = self.requested.clone();
        self.retarget(requested);
        self.pending = false;
        self
    }

    /// Recompute the projection for another target, keeping the stored transcript (on this
    /// thread; the inspector does it on another, see [`super::reproject`]).
    pub fn retarget(&mut self, requested: Target) {
        let job = self.reproject_job(requested, self.options.clone(), 0);
        self.apply(job.run());
    }

    /// What re-projecting this transcript for `requested` under `options` needs, shared
    /// without copying.
    pub fn reproject_job(&self, requested: Target, options: ReplayOptions, generation: u64) -> super::reproject::Job {
        super::reproject::Job {
            transcript: Arc::clone(&self.transcript),
            requested,
            options,
            generation,
        }
    }

    /// Take a finished re-projection.
    pub fn apply(&mut self, r: super::reproject::Reprojected) {
        // The stored payload's lint depends on the transcript and the target only.
        let stored = self
            .wire
            .stored
            .take()
            .filter(|_| self.resolved.target == r.resolved.target);
        self.target_origin = r.target_origin;
        self.requested = r.requested;
        self.resolved = r.resolved;
        self.options = r.options;
        self.replay = Arc::new(r.replay);
        self.rewrites = r.rewrites;
        self.rules_run = r.rules_run;
        self.refusal = r.refusal;
        self.wire = WireState {
            stored,
            ..WireState::default()
        };
    }

    /// What computing the wire state of this projection needs, shared without copying.
    pub fn wire_job(&self) -> WireJob {
        WireJob {
            transcript: Arc::clone(&self.transcript),
            replay: Arc::clone(&self.replay),
            target: self.resolved.target.clone(),
            config: self.options.config.clone(),
            stored_lint: self.wire.stored.clone(),
        }
    }

    /// Number of stored messages.
    pub fn stored_len(&self) -> usize {
        self.transcript.messages.len()
    }

    /// A stored message.
    pub fn stored(&self, index: usize) -> Option<&Message> {
        self.transcript.messages.get(index).map(|m| &*m.message)
    }

    /// A replay message (its stored source when unchanged).
    pub fn replayed(&self, index: usize) -> Option<&Message> {
        replayed_message(&self.transcript, &self.replay, index)
    }

    /// Rewrites per rule id, in rule-id order.
    pub fn counts_by_rule(&self) -> BTreeMap<&'static str, usize> {
        let mut counts = BTreeMap::new();
        for r in &self.rewrites {
            *counts.entry(r.rule).or_insert(0) += 1;
        }
        counts
    }
}

/// Replay message `index` of a projection: its own copy when a rule changed it, else its
/// stored source.
pub fn replayed_message<'a>(
    transcript: &'a Transcript<'static>,
    replay: &'a [Projected],
    index: usize,
) -> Option<&'a Message> {
    let p = replay.get(index)?;
    match &p.changed {
        Some(m) => Some(m),
        None => p
            .source
            .first()
            .and_then(|&s| transcript.messages.get(s))
            .map(|m| &*m.message),
    }
}

/// Owned replay messages: unchanged ones point back at their stored source; changed ones
/// are moved, not copied.
pub(super) fn projected(
    stored: &[StoredMessage<'_>],
    messages: Vec<replaylens::hygiene::ReplayMessage<'_>>,
) -> Vec<Projected> {
    messages
        .into_iter()
        .map(|m| {
            let unchanged = match (m.source.as_slice(), stored) {
                ([single], stored) => stored
                    .get(*single)
                    .is_some_and(|s| std::ptr::eq(&*m.message, &*s.message) || *m.message == *s.message),
                _ => false,
            };
            Projected {
                changed: (!unchanged).then(|| m.message.into_owned()),
                source: m.source,
            }
        })
        .collect()
}

/// A copy of the transcript that owns its messages (a move where they are owned already).
fn owned_transcript(t: Transcript<'_>) -> Transcript<'static> {
    let (messages, mut rest) = t.into_parts();
    rest.messages = messages
        .into_iter()
        .map(|m| StoredMessage {
            entry_id: m.entry_id,
            location: m.location,
            origin: m.origin,
            message: Cow::Owned(m.message.into_owned()),
        })
        .collect();
    rest
}

/// A transcript that borrows its messages from `t`.
pub(super) fn borrowed_view<'a>(t: &'a Transcript<'static>) -> Transcript<'a> {
    Transcript {
        messages: t
            .messages
            .iter()
            .map(|m| StoredMessage {
                entry_id: m.entry_id.clone(),
                location: m.location,
                origin: m.origin,
                message: Cow::Borrowed(&*m.message),
            })
            .collect(),
        leaf_id: t.leaf_id.clone(),
        branch_len: t.branch_len,
        compaction: t.compaction.clone(),
        model: t.model.clone(),
        model_source: t.model_source,
        hidden: t.hidden,
        model_events: t.model_events.clone(),
        thinking_level: t.thinking_level.clone(),
        diagnostics: t.diagnostics.clone(),
    }
}

/// A load diagnostic as one line of the load-problems panel: without the file name when it is
/// the session's own file (the header names it already).
pub fn problem_line(d: &replaylens::model::Diagnostic, session_path: &std::path::Path) -> String {
    if d.file == session_path {
        d.in_file()
    } else {
        d.to_string()
    }
}
