//! `tool-result-pairing`: pair every tool-call occurrence with exactly one result directly after
//! its assistant turn (OpenClaw's
//! `sanitizeToolUseResultPairingForModel`, newest: by occurrence; `aborted` on the Responses APIs).

use std::borrow::Cow;

use crate::hygiene::{Action, Context, PendingRewrite, Rule, RuleInfo, Working, WorkingMessage};
use crate::model::Message;

use crate::openclaw::pairing::classify::{ErroredPolicy, Item, Options, plan};
use crate::openclaw::synthetic::{ABORTED_TEXT, LEGACY_MISSING_TOOL_RESULT_TEXT, MISSING_TOOL_RESULT_TEXT};
use crate::rule_set::SyntheticResultText;

static INFO: RuleInfo = RuleInfo {
    id: "tool-result-pairing",
    summary: "move displaced results, drop duplicates and orphans, synthesize missing results (`aborted` on Responses)",
    explanation: "Providers reject a transcript unless every tool call is answered by exactly one result directly \
        after its assistant turn. This is OpenClaw's newest pairing repair (sanitizeToolUseResultPairingForModel), \
        which works by occurrence: a tool call is a `toolCall`, `toolUse` or `functionCall` block with a non-empty \
        string `id` (snake_case spellings never form a frame, so their results are orphans), and a repeated id is \
        a separate occurrence. Each assistant turn with tool calls opens a frame that runs up to the next such \
        turn; text-only assistant turns do not end it. Within a frame, results claim the earliest unclaimed \
        occurrence of their id. Result ids are read from toolCallId, toolUseId, tool_call_id, tool_use_id, callId, \
        call_id in that order and trimmed, while call ids are not trimmed, so a call id with surrounding spaces \
        never matches a real result and gets a synthetic one (the page's sentence about trimming both ids \
        describes the projection made when switching models, not this pass). A result without any id in \
        a frame with exactly one call adopts that call's id and is forced to isError:true, unless the \
        trimmed names conflict. Every assigned result gets its toolName trimmed, else the call's name, else \
        `unknown`. A second result for an already answered occurrence is a duplicate: the first real result \
        wins, a synthetic result loses to any real one, and the earlier of two of a kind wins. A result whose id \
        belongs to no call of its frame moves backward to an earlier call only when exactly one unresolved \
        occurrence (no result, or a synthetic one while this result is real) can own it; otherwise it is dropped \
        as an orphan, as are results before the first tool call. Results never move forward. Each occurrence \
        still without a result gets a synthetic error result (details marker, isError:true) whose text is our \
        unknown-outcome guidance (with `--openclaw 2026.9.6`: the legacy `[openclaw] missing tool result in \
        session history; inserted synthetic error result for transcript repair.`), or `aborted` on the OpenAI \
        Responses family; its toolName is the trimmed \
        call name or `unknown` and its timestamp is the owning assistant's timestamp, so output is \
        deterministic. Replay uses erroredAssistantResultPolicy `drop` for \
        every family: an assistant turn with tool calls that stopped with `error` or `aborted` is removed \
        together with every result assigned to it. Messages between a call and its results (user turns, \
        text-only assistant turns) end up after the results; such a message is recorded as moved only when a \
        result that originally followed it now precedes it. As in OpenClaw, a synthetic result for a call id with \
        surrounding whitespace never pairs again (its id is trimmed, the call's is not): a later pass drops \
        it as an orphan and synthesizes a fresh one. The pass runs twice: in sanitizeSessionHistory, and once more after turn \
        validation (OpenClaw's final pairing pass), which drops results orphaned by `[tool calls omitted]` \
        and results whose id was rewritten differently from their call's. preserveUnframedToolResults (compaction windows only) is not used.",
    families: "every family (the newest policy table keeps repairToolUseResultPairing on for all of them); the \
        OpenAI Responses family (openai-responses, openai-chatgpt-responses, azure-openai-responses) writes \
        `aborted` as the missing-result text",
    reference: "transcript-hygiene.md › \"Global rule: tool result pairing\" · sanitizeToolUseResultPairingForModel",
};

/// The `tool-result-pairing` rule.
pub struct ToolResultPairing;

/// The Responses family's pass after the provider history hooks (`responsesProviderRepaired`
/// in OpenClaw's sanitizeSessionHistory): after `details` were stripped, so the results it
/// synthesizes keep their marker, and before turn validation (which an unowned Responses
/// provider with a Claude model id runs).
pub struct ResponsesAfterHooks;

impl Rule for ResponsesAfterHooks {
    fn step(&self) -> &'static str {
        "tool-result-pairing/responses-after-hooks"
    }

    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ToolResultPairing.enabled(ctx) && ctx.is_openai_responses() && !ctx.options.rule_set.switches.legacy_pairing
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        ToolResultPairing.apply(ctx, work, rewrites);
    }
}

impl Rule for ToolResultPairing {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.resolved.policy.repair_tool_use_result_pairing
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let opts = Options {
            errored: ErroredPolicy::Drop,
            missing_text: if ctx.is_openai_responses() {
                ABORTED_TEXT
            } else {
                match ctx.options.rule_set.switches.synthetic_result_text {
                    SyntheticResultText::OutcomeUnknown => MISSING_TOOL_RESULT_TEXT,
                    SyntheticResultText::Legacy => LEGACY_MISSING_TOOL_RESULT_TEXT,
                }
            },
        };
        let plan = {
            let view: Vec<&Message> = work.iter_messages().collect();
            // Up to 2026.7 (`legacy-pairing`): the forward-scanning repair of those releases.
            if ctx.options.rule_set.switches.legacy_pairing {
                crate::openclaw::pairing::legacy::plan_legacy(&view, &opts)
            } else {
                plan(&view, &opts)
            }
        };
        let Some(plan) = plan else { return };
        let copy_sources = plan.copy_sources(|of| work.messages.get(of).map(|m| m.source.clone()));
        let mut old: Vec<Option<WorkingMessage<'s>>> =
            std::mem::take(&mut work.messages).into_iter().map(Some).collect();
        // (anchor input index, rewrite); a stable sort keeps rewrites in transcript order.
        let mut recorded: Vec<(usize, PendingRewrite)> = Vec::new();
        for (index, detail) in plan.dropped {
            if let Some(wm) = old.get_mut(index).and_then(Option::take) {
                recorded.push((index, PendingRewrite::dropped(INFO.id, &wm, detail)));
            }
        }
        let mut next = Vec::with_capacity(plan.items.len());
        for item in plan.items {
            match item {
                Item::Kept { index, change, moved } => {
                    let Some(mut wm) = old.get_mut(index).and_then(Option::take) else {
                        continue;
                    };
                    if let Some(detail) = moved {
                        recorded.push((index, PendingRewrite::on(INFO.id, Action::Move, &wm, detail)));
                    }
                    if let Some((message, detail)) = change {
                        wm.message = Cow::Owned(message);
                        recorded.push((index, PendingRewrite::on(INFO.id, Action::Modify, &wm, detail)));
                    }
                    next.push(wm);
                }
                Item::Synthetic { owner, message, detail } => {
                    let wm = work.synthesized(message);
                    recorded.push((owner, PendingRewrite::on(INFO.id, Action::Insert, &wm, detail)));
                    next.push(wm);
                }
                Item::Copy {
                    owner,
                    of,
                    message,
                    detail,
                } => {
                    // A copy comes from the same stored messages as its original.
                    let mut wm = work.synthesized(message);
                    wm.source = copy_sources.get(&of).cloned().unwrap_or_default();
                    recorded.push((owner, PendingRewrite::on(INFO.id, Action::Insert, &wm, detail)));
                    next.push(wm);
                }
            }
        }
        recorded.sort_by_key(|(anchor, _)| *anchor);
        rewrites.extend(recorded.into_iter().map(|(_, r)| r));
        work.messages = next;
    }
}
