//! Rewrites: what each rule changed, recorded by the rule itself as it changes it.

use serde::Serialize;

use crate::model::json::Str;

use super::working::{Uid, WorkingMessage};

/// The kind of change (`action` of `replay --format json`, `docs/internals.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// A message was removed from the replay.
    Drop,
    /// A message was synthesized.
    Insert,
    /// A message was changed in place.
    Modify,
    /// Several messages were merged into one.
    Merge,
    /// A message was moved to another place.
    Move,
}

impl Action {
    /// The action name used in JSON and text output.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Drop => "drop",
            Self::Insert => "insert",
            Self::Modify => "modify",
            Self::Merge => "merge",
            Self::Move => "move",
        }
    }
}

/// Where in OpenClaw's request path a rewrite happens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// The history projection (`sanitizeSessionHistory`, `validateReplayTurns` and the final
    /// pairing pass): what the embedded runner hands to the model stream as history.
    #[default]
    History,
    /// Stream-time and payload-time steps applied to the outgoing request after the history
    /// stage (trailing prefill strip, orphaned Responses reasoning).
    Stream,
}

impl Stage {
    /// The stage name used in JSON and text output.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::History => "history",
            Self::Stream => "stream",
        }
    }
}

/// A rewrite as a rule records it: the working messages it touched, by identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingRewrite {
    /// Rule id.
    pub rule: &'static str,
    /// What happened.
    pub action: Action,
    /// Stored indices involved (the provenance of the touched messages).
    pub stored: Vec<usize>,
    /// Identities of the working messages that carry the result (empty for a drop).
    pub result: Vec<Uid>,
    /// One line saying what changed and why (shared when a rule repeats it).
    pub detail: Str,
}

impl PendingRewrite {
    /// A rewrite of one message that stays in the transcript.
    pub fn on(rule: &'static str, action: Action, msg: &WorkingMessage<'_>, detail: impl Into<Str>) -> Self {
        Self {
            rule,
            action,
            stored: msg.source.clone(),
            result: vec![msg.uid],
            detail: detail.into(),
        }
    }

    /// Append to `rewrites`. A detail line equal to the previous record's is shared with it
    /// rather than held again: a rule that changes thousands of turns the same way
    /// (normalizing the same usage, say) holds its line once.
    pub fn record(mut self, rewrites: &mut Vec<PendingRewrite>) {
        if let Some(last) = rewrites.last()
            && last.detail == self.detail
        {
            self.detail = last.detail.clone();
        }
        rewrites.push(self);
    }

    /// A message dropped from the transcript.
    pub fn dropped(rule: &'static str, msg: &WorkingMessage<'_>, detail: impl Into<Str>) -> Self {
        Self {
            rule,
            action: Action::Drop,
            stored: msg.source.clone(),
            result: Vec::new(),
            detail: detail.into(),
        }
    }
}

/// A rewrite in the final output: indices on both sides (`rewrites` of `replay --format json`, `docs/internals.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rewrite {
    /// Rule id (`replaylens rules` lists them).
    pub rule: &'static str,
    /// What happened.
    pub action: Action,
    /// The stage the rule ran in.
    pub stage: Stage,
    /// Stored message indices involved.
    pub stored: Vec<usize>,
    /// Replay message indices involved (empty when the result did not survive).
    pub replay: Vec<usize>,
    /// One line saying what changed and why (shared when a rule repeats it).
    pub detail: Str,
}

impl Rewrite {
    /// The action as shown to people: `drop`, or `drop (stream stage)` for a step OpenClaw
    /// applies to the outgoing request after the history stage.
    pub fn action_label(&self) -> String {
        match self.stage {
            Stage::History => self.action.as_str().to_owned(),
            Stage::Stream => format!("{} (stream stage)", self.action.as_str()),
        }
    }
}
