//! Running the stages in order and resolving rewrites to final replay indices.
//!
//! Two stages run one after the other: the history stage (what OpenClaw's embedded runner hands
//! to the model stream as history; the differential test compares it with OpenClaw itself) and
//! the stream stage (steps OpenClaw applies to the outgoing request). The projection keeps the
//! history stage apart only when a stream step changed something.

use std::borrow::Cow;
use std::collections::HashMap;

use super::rewrite::{PendingRewrite, Rewrite, Stage};
use super::rule::{Context, Rule};
use super::rules;
use super::working::{Uid, Working, WorkingMessage};
use crate::model::{Message, StoredMessage};

/// One message of the replay projection.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayMessage<'s> {
    /// Stored indices it came from (`[]` for a synthesized message, several for a merge).
    pub source: Vec<usize>,
    /// The message that would be sent.
    pub message: Cow<'s, Message>,
}

/// The replay projection and every rewrite that produced it.
#[derive(Debug, Clone, Default)]
pub struct Projection<'s> {
    /// The messages that would be sent (after the stream stage), in order.
    pub messages: Vec<ReplayMessage<'s>>,
    /// The history stage, when the stream stage changed it (else it equals `messages`).
    pub history: Option<Vec<ReplayMessage<'s>>>,
    /// One record per change, in pipeline order; `replay` indices point into `messages`.
    pub rewrites: Vec<Rewrite>,
    /// Ids of the rules that ran (their gate was open), in order, each once.
    pub rules_run: Vec<&'static str>,
    /// Why OpenClaw would refuse to send this history at all (it throws before the model call,
    /// e.g. `invalid_replay_transcript: …`); the messages are then what it had built so far.
    pub refusal: Option<String>,
}

impl<'s> Projection<'s> {
    /// The messages that would be sent, everything else freed (for a payload built from the
    /// projection alone).
    pub fn into_messages(self) -> Vec<ReplayMessage<'s>> {
        self.messages
    }

    /// The messages after the history stage, before the stream-time steps: exactly what
    /// OpenClaw's history projection holds.
    pub fn history_stage(&self) -> &[ReplayMessage<'s>] {
        self.history.as_deref().unwrap_or(&self.messages)
    }
}

/// Run every enabled rule over the stored transcript.
pub fn project<'s>(stored: &[StoredMessage<'s>], ctx: &Context<'_>) -> Projection<'s> {
    run(Working::from_stored(stored), ctx)
}

/// Run every enabled rule over a stored transcript the projection takes over: messages it
/// owns are changed in place and freed when dropped, so only one copy of each is held.
pub fn project_owned<'s>(stored: Vec<StoredMessage<'s>>, ctx: &Context<'_>) -> Projection<'s> {
    run(Working::from_owned(stored), ctx)
}

/// Run both stages over a working transcript.
pub fn run<'s>(mut work: Working<'s>, ctx: &Context<'_>) -> Projection<'s> {
    // Every rule records straight into one list; the stream stage's start in it says
    // which stage each record belongs to.
    let mut pending: Vec<PendingRewrite> = Vec::new();
    let mut rules_run = Vec::new();
    run_stage(rules::history_stage(), ctx, &mut work, &mut pending, &mut rules_run);
    let stream_from = pending.len();
    if work.refusal.is_some() {
        // OpenClaw throws here: no stream stage runs.
        return finish(work, None, pending, stream_from, rules_run);
    }
    let stream: Vec<&dyn Rule> = rules::stream_stage()
        .iter()
        .copied()
        .filter(|r| r.enabled(ctx) && r.may_change(ctx, &work))
        .collect();
    let mut history = None;
    if !stream.is_empty() {
        let snapshot = work.messages.clone();
        run_stage(&stream, ctx, &mut work, &mut pending, &mut rules_run);
        if pending.len() > stream_from {
            history = Some(snapshot);
        }
    }
    finish(work, history, pending, stream_from, rules_run)
}

/// Resolve rewrites to final replay indices and build the projection. Records from
/// `stream_from` on were made by the stream stage.
fn finish<'s>(
    work: Working<'s>,
    history: Option<Vec<WorkingMessage<'s>>>,
    pending: Vec<PendingRewrite>,
    stream_from: usize,
    rules_run: Vec<&'static str>,
) -> Projection<'s> {
    let index_of: HashMap<Uid, usize> = work.messages.iter().enumerate().map(|(i, m)| (m.uid, i)).collect();
    let rewrites = pending
        .into_iter()
        .enumerate()
        .map(|(n, p)| {
            let mut replay: Vec<usize> = p.result.iter().filter_map(|u| index_of.get(u).copied()).collect();
            replay.sort_unstable();
            replay.dedup();
            Rewrite {
                rule: p.rule,
                action: p.action,
                stage: if n < stream_from { Stage::History } else { Stage::Stream },
                stored: p.stored,
                replay,
                detail: p.detail,
            }
        })
        .collect();
    Projection {
        refusal: work.refusal,
        messages: into_replay(work.messages),
        history: history.map(into_replay),
        rewrites,
        rules_run,
    }
}

fn run_stage<'s>(
    steps: &[&dyn Rule],
    ctx: &Context<'_>,
    work: &mut Working<'s>,
    pending: &mut Vec<PendingRewrite>,
    rules_run: &mut Vec<&'static str>,
) {
    for rule in steps {
        if !rule.enabled(ctx) {
            continue;
        }
        let id = rule.info().id;
        if !rules_run.contains(&id) {
            rules_run.push(id);
        }
        rule.apply(ctx, work, pending);
    }
}

fn into_replay(messages: Vec<WorkingMessage<'_>>) -> Vec<ReplayMessage<'_>> {
    messages
        .into_iter()
        .map(|m| ReplayMessage {
            source: m.source,
            message: m.message,
        })
        .collect()
}
