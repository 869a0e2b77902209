//! `reasoning-only-length`: drop reasoning-only turns cut off by the output limit
//! (OpenClaw's `isReasoningOnlyLengthAssistantTurn`).

use crate::model::json::Value;

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use crate::openclaw::assistant_text::is_reasoning_only;

static INFO: RuleInfo = RuleInfo {
    id: "reasoning-only-length",
    summary: "drop reasoning-only turns cut off by the output limit",
    explanation: "When the provider's output limit ends a turn while the model is still thinking, the turn \
        holds only incomplete reasoning, and replaying it can resend a partial signature. An assistant \
        turn is dropped when `stopReason` is `length` and its content (an array, or a single block object) \
        holds at least one `thinking` or `redacted_thinking` block and every other block is a `text` \
        block whose string text is blank. Kept unchanged: empty length turns (`[]`), and length turns \
        with visible text, tool calls, unknown block types, a text block whose `text` is not a string, \
        or a null block. It runs after silent-reply, so it sees content already normalized to an array.",
    families: "all",
    reference: "transcript-hygiene.md › \"Global rule: incomplete or silent reasoning-only turns\" · normalizeAssistantReplayContent, isReasoningOnlyLengthAssistantTurn",
};

/// The `reasoning-only-length` rule.
pub struct ReasoningOnlyLength;

impl Rule for ReasoningOnlyLength {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, _ctx: &Context<'_>) -> bool {
        true
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        work.drop_where(INFO.id, rewrites, |_, m| reasoning_only_length_reason(m));
    }
}

/// `isReasoningOnlyLengthAssistantTurn`: why the turn is dropped, or `None`.
pub fn reasoning_only_length_reason(m: &Message) -> Option<String> {
    if !m.is_assistant() || m.str_field("stopReason") != Some("length") {
        return None;
    }
    let single;
    let blocks: &[Value] = match m.content()? {
        Value::Array(blocks) => blocks,
        obj @ Value::Object(_) => {
            single = [obj.clone()];
            &single
        }
        _ => return None,
    };
    if !is_reasoning_only(blocks) {
        return None;
    }
    let reasoning = blocks
        .iter()
        .filter(|b| {
            matches!(
                b.get("type").and_then(Value::as_str),
                Some("thinking" | "redacted_thinking")
            )
        })
        .count();
    Some(format!(
        "incomplete reasoning-only turn cut off by the output limit ({reasoning} reasoning block(s), stopReason length)"
    ))
}
