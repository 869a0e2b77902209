//! `transcript-only-assistant`: drop delivery-mirror / gateway-injected assistant rows
//! (hygiene-b §2.1).

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hygiene::Action;
    use crate::hygiene::rules::normalize_test_support::assert_untouched;
    use crate::hygiene::rules::test_support::{apply_rule, msgs};
    use crate::json;

    #[test]
    fn drops_mirror_and_injected_rows_by_provider_and_model() {
        let work = msgs(json!([
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "text", "text": "hello"}], "provider": "openclaw", "model": "delivery-mirror"},
            {"role": "assistant", "content": [{"type": "text", "text": "note"}], "provider": "openclaw", "model": "gateway-injected"},
            {"role": "assistant", "content": [{"type": "text", "text": "real"}], "provider": "anthropic", "model": "claude-sonnet-4-6"}
        ]));
        let (out, rw) = apply_rule(&TranscriptOnlyAssistant, work);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].content_str(), Some("hi"));
        assert_eq!(out[1].text(), "real");
        let got: Vec<_> = rw
            .iter()
            .map(|r| (r.action, r.stored.clone(), r.detail.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    Action::Drop,
                    vec![1],
                    "transcript-only assistant row (provider openclaw, model delivery-mirror)"
                ),
                (
                    Action::Drop,
                    vec![2],
                    "transcript-only assistant row (provider openclaw, model gateway-injected)"
                ),
            ]
        );
    }

    #[test]
    fn drops_rows_marked_with_a_known_mirror_kind() {
        let work = msgs(json!([
            {"role": "assistant", "content": [], "openclawDeliveryMirror": {"kind": "channel-final"}},
            {"role": "assistant", "content": [], "openclawDeliveryMirror": {"kind": "channel-final-suppressed"}},
            {"role": "assistant", "content": [], "openclawDeliveryMirror": {"kind": "message-tool-source-reply", "x": 1}}
        ]));
        let (out, rw) = apply_rule(&TranscriptOnlyAssistant, work);
        assert!(out.is_empty());
        let got: Vec<_> = rw.iter().map(|r| (r.stored[0], r.detail.to_string())).collect();
        assert_eq!(
            got,
            vec![
                (
                    0,
                    "delivery-mirror row (openclawDeliveryMirror.kind channel-final)".to_owned()
                ),
                (
                    1,
                    "delivery-mirror row (openclawDeliveryMirror.kind channel-final-suppressed)".to_owned()
                ),
                (
                    2,
                    "delivery-mirror row (openclawDeliveryMirror.kind message-tool-source-reply)".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn look_alikes_are_kept() {
        assert_untouched(
            &TranscriptOnlyAssistant,
            json!([
                {"role": "assistant", "content": [], "provider": "openclaw", "model": "claude-sonnet-4-6"},
                {"role": "assistant", "content": [], "provider": "anthropic", "model": "delivery-mirror"},
                {"role": "assistant", "content": [], "openclawDeliveryMirror": {"kind": "unknown"}},
                {"role": "assistant", "content": [], "openclawDeliveryMirror": {"kind": "cron-direct-delivery-context"}},
                {"role": "assistant", "content": [], "openclawDeliveryMirror": [{"kind": "channel-final"}]},
                {"role": "assistant", "content": [], "openclawDeliveryMirror": "channel-final"},
                {"role": "assistant", "content": [], "api": "openclaw-transcript"},
                {"role": "user", "content": "x", "provider": "openclaw", "model": "delivery-mirror"},
                {"role": "user", "content": "x", "openclawDeliveryMirror": {"kind": "channel-final"}}
            ]),
        );
    }

    #[test]
    fn up_to_2026_7_the_marker_alone_does_not_count() {
        let transcript = json!([
            {"role": "assistant", "content": [{"type": "text", "text": "x"}], "openclawDeliveryMirror": {"kind": "channel-final"}},
            {"role": "assistant", "content": [], "provider": "openclaw", "model": "delivery-mirror"}
        ]);
        let run = |set| {
            crate::hygiene::rules::test_support::apply_rule_in(&TranscriptOnlyAssistant, msgs(transcript.clone()), set)
        };
        assert_eq!(run(&crate::rule_set::V2026_8).0.len(), 0);
        let (out, rw) = run(&crate::rule_set::V2026_7);
        assert_eq!(
            (out.len(), rw.len()),
            (1, 1),
            "only the openclaw/delivery-mirror row goes"
        );
    }
}
