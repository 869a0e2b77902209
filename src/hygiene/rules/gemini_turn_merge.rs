//! `gemini-turn-merge`: merge consecutive assistant turns (Gemini alternation).

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Role;

use crate::hygiene::helpers::turn_merge::{MergeSpec, merge_assistants, merge_consecutive};

static INFO: RuleInfo = RuleInfo {
    id: "gemini-turn-merge",
    summary: "merge consecutive assistant turns (Gemini alternation)",
    explanation: "Gemini requires strictly alternating turns and rejects two model turns in a row. OpenClaw's \
        validateGeminiTurns merges every run of adjacent assistant messages into one: the merged turn keeps \
        every field of the earlier turn (in its key order) with the content of both concatenated, except that \
        `usage`, `stopReason` and `errorMessage` are taken from the later turn when they are truthy there \
        (a JavaScript spread; a falsy value such as an empty errorMessage is ignored, and a field the earlier \
        turn lacks is appended at the end). A run of three or more merges left to right and is recorded as \
        one merge whose replay message lists the stored indices of every member. Only neighbours merge: a \
        toolResult, user, custom-role message, or a message without a role between two assistant turns \
        breaks the run (OpenClaw's code would fold an assistant into a message without a role right before \
        it; here only adjacent assistants merge). OpenClaw concatenates array content only; here assistant \
        content stored as a plain string (normally converted to a text block \
        by the earlier legacy-content normalization) contributes one text block instead of being lost, and \
        any other non-array content contributes nothing. The merged message keeps the first turn's place.",
    families: "Google / Gemini / Antigravity, unowned Google APIs, OpenAI-compatible chat completions (generic helper and unowned `openai-completions`)",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Google · validateGeminiTurns",
};

/// The `gemini-turn-merge` rule.
pub struct GeminiTurnMerge;

impl Rule for GeminiTurnMerge {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.resolved.policy.validate_gemini_turns
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let spec = MergeSpec {
            rule: INFO.id,
            role: Role::Assistant,
            why: "for Gemini alternation",
            fields: "fields of the first turn except usage/stopReason/errorMessage taken from later turns when set",
            union_notes: true,
        };
        merge_consecutive(work, &spec, merge_assistants, rewrites);
    }
}
