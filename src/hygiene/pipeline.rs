//! Running the rules in order and resolving rewrites to final replay indices.

use std::borrow::Cow;
use std::collections::HashMap;

use super::rewrite::{PendingRewrite, Rewrite};
use super::rule::Context;
use super::rules;
use super::working::{Uid, Working};
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
    /// The messages that would be sent, in order.
    pub messages: Vec<ReplayMessage<'s>>,
    /// One record per change, in pipeline order.
    pub rewrites: Vec<Rewrite>,
    /// Ids of the rules that ran (their gate was open), in order.
    pub rules_run: Vec<&'static str>,
}

/// Run every enabled rule over the stored transcript.
pub fn project<'s>(stored: &[StoredMessage<'s>], ctx: &Context<'_>) -> Projection<'s> {
    run(Working::from_stored(stored), ctx)
}

/// Run every enabled rule over a working transcript.
pub fn run<'s>(mut work: Working<'s>, ctx: &Context<'_>) -> Projection<'s> {
    let mut pending: Vec<PendingRewrite> = Vec::new();
    let mut rules_run = Vec::new();
    for rule in rules::pipeline() {
        if rule.enabled(ctx) {
            rules_run.push(rule.info().id);
            rule.apply(ctx, &mut work, &mut pending);
        }
    }
    let index_of: HashMap<Uid, usize> = work.messages.iter().enumerate().map(|(i, m)| (m.uid, i)).collect();
    let rewrites = pending
        .into_iter()
        .map(|p| {
            let mut replay: Vec<usize> = p.result.iter().filter_map(|u| index_of.get(u).copied()).collect();
            replay.sort_unstable();
            replay.dedup();
            Rewrite {
                rule: p.rule,
                action: p.action,
                stored: p.stored,
                replay,
                detail: p.detail,
            }
        })
        .collect();
    let messages = work
        .messages
        .into_iter()
        .map(|m| ReplayMessage {
            source: m.source,
            message: m.message,
        })
        .collect();
    Projection {
        messages,
        rewrites,
        rules_run,
    }
}
