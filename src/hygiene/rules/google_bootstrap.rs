//! `google-bootstrap`: prepend the `(session bootstrap)` user turn when history starts with the
//! assistant.

use crate::model::json::{Map, Value};

use crate::hygiene::{Action, Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;
use crate::policy::Family;

/// The text of the synthesized bootstrap user turn (OpenClaw's `sanitizeGoogleAssistantFirstOrdering`).
pub const BOOTSTRAP_TEXT: &str = "(session bootstrap)";

static INFO: RuleInfo = RuleInfo {
    id: "google-bootstrap",
    summary: "prepend the `(session bootstrap)` user turn when history starts with the assistant",
    explanation: "Google chat APIs (and strict OpenAI-compatible servers) reject a conversation whose first turn \
        is the model's. OpenClaw's sanitizeGoogleAssistantFirstOrdering therefore prepends a user turn \
        `{role: \"user\", content: \"(session bootstrap)\", timestamp}` when the first message has role \
        `assistant`; any other first message (a user turn, including an existing bootstrap turn, a toolResult, \
        a compaction summary or a custom role) leaves the history unchanged, so the fix is idempotent. The \
        Google plugin applies it in its replay-history hook (which also records a \
        `google-turn-ordering-bootstrap` custom entry in the session; replaylens never writes the session, so \
        that marker is not reproduced) and the generic pass applies it whenever the policy sets \
        applyGoogleTurnOrdering; the two are the same function and the Google family always sets the flag, so \
        this rule runs once for either. Upstream stamps the bootstrap with the current time; for deterministic \
        output the timestamp is copied from the first message that has one (the assistant turn it precedes, \
        normally), and omitted when no message has a timestamp. The inserted turn has no stored source.",
    families: "Google / Gemini / Antigravity, unowned Google APIs, OpenAI-compatible chat completions (generic helper and unowned `openai-completions`)",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Google · sanitizeGoogleAssistantFirstOrdering",
};

/// The `google-bootstrap` rule.
pub struct GoogleBootstrap;

impl Rule for GoogleBootstrap {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.resolved.policy.apply_google_turn_ordering || ctx.resolved.family == Family::Google
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let Some(first) = work.messages.first() else { return };
        if !first.message.is_assistant() {
            return;
        }
        let timestamp = work
            .iter_messages()
            .find_map(|m| m.get("timestamp").filter(|t| !t.is_null()))
            .cloned();
        let mut obj = Map::new();
        obj.insert("role".into(), Value::from("user"));
        obj.insert("content".into(), Value::from(BOOTSTRAP_TEXT));
        if let Some(ts) = timestamp {
            obj.insert("timestamp".into(), ts);
        }
        let wm = work.synthesized(Message::from_map(obj));
        rewrites.push(PendingRewrite::on(
            INFO.id,
            Action::Insert,
            &wm,
            "prepended a `(session bootstrap)` user turn: the history starts with an assistant turn",
        ));
        work.messages.insert(0, wm);
    }
}
