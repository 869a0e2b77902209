//! `stale-usage`: zero usage recorded before the latest compaction, then normalize every
//! assistant usage snapshot (OpenClaw's
//! `stripStaleAssistantUsageBeforeLatestCompaction`, `ensureAssistantUsageSnapshots`).

use crate::model::json::Value;

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::{Message, Role};

use crate::hygiene::helpers::thinking_blocks::{fmt_ms, parse_timestamp_ms};
use crate::hygiene::helpers::usage_snapshot::{already_normalized, normalize_snapshot, zero_snapshot};

static INFO: RuleInfo = RuleInfo {
    id: "stale-usage",
    summary: "zero usage recorded before the latest compaction; normalize usage",
    explanation: "Token usage recorded before a compaction describes a context that no longer exists; \
        replaying it would make OpenClaw's context accounting think the compacted session is still \
        full. First (stripStaleAssistantUsageBeforeLatestCompaction): when a `compactionSummary` \
        message exists, take the LAST one in the transcript; every assistant turn whose `usage` is an \
        object is stale when both its timestamp and that summary's timestamp parse (a number, or an ISO \
        string) and the turn's is at or before the summary's (`<=`, unlike the strict `<` of \
        compaction-signature), or, when either does not parse, when the turn comes before \
        the summary in the transcript. A stale usage becomes the zero snapshot \
        `{input:0,output:0,cacheRead:0,cacheWrite:0,totalTokens:0,cost:{input:0,output:0,cacheRead:0,\
        cacheWrite:0,total:0}}`. Then (ensureAssistantUsageSnapshots) every assistant usage is normalized \
        to numeric `{input,output,cacheRead,cacheWrite,totalTokens[,cost]}`: counts are read through \
        their aliases (inputTokens/input_tokens/promptTokens/prompt_tokens, outputTokens/…/\
        completion_tokens, cache_read/cache_read_input_tokens/cached_tokens/*_tokens_details.cached_tokens, \
        cache_write/cache_creation_input_tokens, total/total_tokens); OpenAI-style prompt totals that \
        include cached tokens have the cache reads subtracted; missing counts are 0 and totalTokens \
        defaults to their sum; `cost` is kept only when it has a numeric field (missing ones 0, total \
        defaulting to the sum, `totalOrigin: \"provider-billed\"` kept); a turn without usable usage \
        gets the zero snapshot. A usage whose five token fields and cost fields already equal the \
        normalized values is left as stored, extra fields included. Only JSON numbers count as numbers. \
        A `contextUsage` object is carried over unchanged (newer OpenClaw builds normalize it too; \
        replaylens does not). Each changed turn is one rewrite.",
    families: "all",
    reference: "transcript-hygiene.md › \"Where this runs\" · stripStaleAssistantUsageBeforeLatestCompaction, ensureAssistantUsageSnapshots",
};

/// The `stale-usage` rule.
pub struct StaleUsage;

impl Rule for StaleUsage {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, _ctx: &Context<'_>) -> bool {
        true
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let summary = work
            .iter_messages()
            .enumerate()
            .filter(|(_, m)| m.role() == Role::CompactionSummary)
            .last()
            .map(|(i, m)| (i, parse_timestamp_ms(m.get("timestamp"))));
        // The last usage normalized and its result: turns that recorded the same usage share
        // one normalized object instead of holding a copy each.
        let mut last: Option<(Option<Value>, Value)> = None;
        work.modify_each(INFO.id, rewrites, |i, m| {
            if !m.is_assistant() {
                return None;
            }
            let usage = m.get("usage");
            if let Some(why) = summary.and_then(|s| stale(i, m, s)) {
                let zero = zero_snapshot();
                if usage == Some(&zero) {
                    return None;
                }
                return Some((with_usage(m, zero), format!("zeroed usage {}", why)));
            }
            let normalized = match &last {
                Some((seen, normalized)) if seen.as_ref() == usage => normalized.clone(),
                _ => {
                    let normalized = normalize_snapshot(usage);
                    last = Some((usage.cloned(), normalized.clone()));
                    normalized
                }
            };
            if already_normalized(usage, &normalized) {
                return None;
            }
            let detail = match usage {
                None => "added a zero usage snapshot: the turn recorded none".to_owned(),
                Some(old) => format!("normalized usage {} → {}", compact(old), compact(&normalized)),
            };
            Some((with_usage(m, normalized), detail))
        });
    }
}

/// Why the usage of the assistant at `i` is stale, or `None`.
fn stale(i: usize, m: &Message, (summary_index, summary_ts): (usize, Option<f64>)) -> Option<String> {
    if !m.get("usage").is_some_and(Value::is_object) {
        return None;
    }
    match (parse_timestamp_ms(m.get("timestamp")), summary_ts) {
        (Some(ts), Some(t)) => (ts <= t).then(|| {
            format!(
                "recorded before the latest compaction (turn at {} ≤ compaction at {})",
                fmt_ms(ts),
                fmt_ms(t)
            )
        }),
        _ => (i < summary_index)
            .then(|| "recorded before the latest compaction (the turn precedes the summary)".to_owned()),
    }
}

fn with_usage(m: &Message, usage: Value) -> Message {
    let mut next = m.clone();
    next.set("usage", usage);
    next
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}
