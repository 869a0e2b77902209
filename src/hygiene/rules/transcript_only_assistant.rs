//! `transcript-only-assistant`: drop delivery-mirror / gateway-injected assistant rows
//! (OpenClaw's `isTranscriptOnlyOpenClawAssistantMessage`).

use crate::model::json::Value;

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

static INFO: RuleInfo = RuleInfo {
    id: "transcript-only-assistant",
    summary: "drop delivery-mirror / gateway-injected assistant rows",
    explanation: "OpenClaw writes some assistant rows only so that the transcript shows what was delivered: \
        copies of a reply mirrored to a channel and text injected by the gateway. They are not model \
        output and are dropped from the replay copy (the stored transcript keeps them). An assistant \
        message is dropped when either (a) `provider` is exactly `openclaw` and `model` is exactly \
        `delivery-mirror` or `gateway-injected`, or (b) `openclawDeliveryMirror` is an object (not an \
        array) whose `kind` is `channel-final`, `channel-final-suppressed` or \
        `message-tool-source-reply`. Not triggers: `provider:\"openclaw\"` with any other model, a \
        marker with another kind (including `cron-direct-delivery-context`, which newer clients list \
        but the replay predicate does not), `api:\"openclaw-transcript\"` on its own, and other roles. \
        Matching is exact and case-sensitive.",
    families: "all",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Amazon Bedrock · isTranscriptOnlyOpenClawAssistantMessage",
};

/// `openclawDeliveryMirror.kind` values that mark a transcript-only row.
pub const DELIVERY_MIRROR_KINDS: [&str; 3] = ["channel-final", "channel-final-suppressed", "message-tool-source-reply"];

/// The `transcript-only-assistant` rule.
pub struct TranscriptOnlyAssistant;

impl Rule for TranscriptOnlyAssistant {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, _ctx: &Context<'_>) -> bool {
        true
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        // Up to 2026.7 (`no-delivery-mirror-marker`) the marker alone does not count.
        let marker = ctx.options.rule_set.switches.delivery_mirror_marker;
        work.drop_where(INFO.id, rewrites, |_, m| {
            transcript_only_reason(m).filter(|why| marker || !why.starts_with(MARKER_REASON))
        });
    }
}

/// How the reason for a marked row begins.
const MARKER_REASON: &str = "delivery-mirror row";

/// `isTranscriptOnlyOpenClawAssistantMessage`: why the message is a transcript-only row.
pub fn transcript_only_reason(m: &Message) -> Option<String> {
    if !m.is_assistant() {
        return None;
    }
    if m.provider() == Some("openclaw")
        && let Some(model @ ("delivery-mirror" | "gateway-injected")) = m.model()
    {
        return Some(format!(
            "transcript-only assistant row (provider openclaw, model {model})"
        ));
    }
    let kind = match m.get("openclawDeliveryMirror") {
        Some(Value::Object(marker)) => marker.get("kind").and_then(Value::as_str)?,
        _ => return None,
    };
    DELIVERY_MIRROR_KINDS
        .contains(&kind)
        .then(|| format!("{MARKER_REASON} (openclawDeliveryMirror.kind {kind})"))
}
