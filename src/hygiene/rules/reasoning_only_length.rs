//! `reasoning-only-length`: drop reasoning-only turns cut off by the output limit (hygiene-b §2.4).

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hygiene::Action;
    use crate::hygiene::rules::normalize_test_support::assert_untouched;
    use crate::hygiene::rules::test_support::{apply_rule, msgs};
    use crate::json;

    #[test]
    fn drops_reasoning_only_length_turns() {
        let work = msgs(json!([
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "partial", "thinkingSignature": "sig"}], "stopReason": "length"},
            {"role": "assistant", "content": [
                {"type": "redacted_thinking", "data": "x"},
                {"type": "text", "text": "  "},
                {"type": "thinking", "thinking": "more"}
            ], "stopReason": "length"},
            {"role": "assistant", "content": {"type": "thinking", "thinking": "obj"}, "stopReason": "length"}
        ]));
        let (out, rw) = apply_rule(&ReasoningOnlyLength, work);
        assert_eq!(out.len(), 1);
        let got: Vec<_> = rw
            .iter()
            .map(|r| (r.action, r.stored.clone(), r.detail.to_string()))
            .collect();
        let d = |n: usize| {
            format!(
                "incomplete reasoning-only turn cut off by the output limit ({n} reasoning block(s), stopReason length)"
            )
        };
        assert_eq!(
            got,
            vec![
                (Action::Drop, vec![1], d(1)),
                (Action::Drop, vec![2], d(2)),
                (Action::Drop, vec![3], d(1))
            ]
        );
    }

    #[test]
    fn keeps_everything_else() {
        assert_untouched(
            &ReasoningOnlyLength,
            json!([
                {"role": "assistant", "content": [], "stopReason": "length"},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}, {"type": "text", "text": "visible"}], "stopReason": "length"},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}, {"type": "toolCall", "id": "c", "name": "n", "arguments": {}}], "stopReason": "length"},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}, {"type": "mystery"}], "stopReason": "length"},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}, {"type": "text", "text": 5}], "stopReason": "length"},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}, null], "stopReason": "length"},
                {"role": "assistant", "content": [{"type": "text", "text": " "}], "stopReason": "length"},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}], "stopReason": "stop"},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}], "stopReason": "toolUse"}
            ]),
        );
    }
}
