//! `stream-error-turn`: drop empty stream-error turns, legacy fallback placeholders and
//! zero-usage empty stop turns (hygiene-b §2.2, newest behaviour).

use crate::model::json::Value;

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use crate::openclaw::assistant_text::{
    STREAM_ERROR_FALLBACK_TEXT, is_blank, is_stream_error_fallback_content, is_zero_usage_stop,
};

pub(super) static INFO: RuleInfo = RuleInfo {
    id: "stream-error-turn",
    summary: "drop empty stream-error turns, legacy fallback placeholders and zero-usage empty stop turns",
    explanation: "A stream that fails before producing content leaves an assistant turn with no content; \
        older builds stored the placeholder `[assistant turn failed before producing content]` instead. \
        Replaying either gives providers (Bedrock Converse first of all) an empty content block or a \
        synthetic assistant prefill. The newest OpenClaw drops such turns from the replay copy wherever \
        they are (the older behaviour of rewriting them to the placeholder and trimming only the tail is \
        not used). An assistant turn is dropped when its content is stream-error fallback content — \
        missing or null; a string that is blank or trims to the placeholder; or an array whose every \
        block is a `text`, `input_text` or `output_text` block with a string `text` that is blank or \
        trims to the placeholder (`[]` qualifies) — and either `stopReason` is `error`, or \
        `stopReason` is `stop` with a zero token usage snapshot. Zero usage: `usage` is an object; \
        with `total ?? totalTokens ?? total_tokens` a finite number it must be 0 and each of \
        input/output/cacheRead/cacheWrite absent or 0; otherwise at least one of those four must be a \
        finite number and all finite ones 0. Missing or cost-only usage is not zero; `contextUsage` \
        (also `{state:\"unavailable\"}`) is ignored; a count that is not a number counts as absent. \
        Kept: the placeholder text with `toolUse` or `length`, or with `stop` and non-zero usage (a \
        real reply that happens to equal it); empty `toolUse`/`length` turns (a later rule drops \
        still-empty assistants); failed turns with visible text, thinking or tool calls; a block \
        whose `text` is not a string.",
    families: "all (the published page lists it under Amazon Bedrock; OpenClaw applies it to every provider)",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Amazon Bedrock · normalizeAssistantReplayContent, isStreamErrorFallbackContent",
};

/// The `stream-error-turn` rule.
pub struct StreamErrorTurn;

impl Rule for StreamErrorTurn {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        // Up to 2026.9.2 such turns became a placeholder instead (`stream_error_legacy`).
        !ctx.options.rule_set.switches.empty_turn_placeholder
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        work.drop_where(INFO.id, rewrites, |_, m| stream_error_reason(m));
    }
}

/// Why an assistant turn is a droppable stream-error / zero-usage turn, or `None`.
pub fn stream_error_reason(m: &Message) -> Option<String> {
    if !m.is_assistant() || !is_stream_error_fallback_content(m.content()) {
        return None;
    }
    let why = if m.str_field("stopReason") == Some("error") {
        "stopReason error"
    } else if is_zero_usage_stop(m) {
        "stopReason stop with zero token usage"
    } else {
        return None;
    };
    let what = match m.content() {
        None => "no content".to_owned(),
        Some(Value::Null) => "null content".to_owned(),
        Some(Value::String(s)) if is_blank(s) => "blank string content".to_owned(),
        Some(Value::String(_)) => format!("legacy placeholder `{STREAM_ERROR_FALLBACK_TEXT}`"),
        Some(Value::Array(blocks)) if blocks.is_empty() => "empty content".to_owned(),
        Some(Value::Array(blocks)) => {
            let placeholder = blocks
                .iter()
                .any(|b| b.get("text").and_then(Value::as_str).is_some_and(|t| !is_blank(t)));
            if placeholder {
                format!("legacy placeholder `{STREAM_ERROR_FALLBACK_TEXT}`")
            } else {
                format!("only blank text ({} block(s))", blocks.len())
            }
        }
        Some(_) => return None,
    };
    Some(format!("failed turn without content: {what}, {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hygiene::Action;
    use crate::hygiene::rules::normalize_test_support::assert_untouched;
    use crate::hygiene::rules::test_support::{apply_rule, msgs};
    use crate::json;

    const S: &str = STREAM_ERROR_FALLBACK_TEXT;

    #[test]
    fn drops_empty_error_turns_wherever_they_are() {
        let work = msgs(json!([
            {"role": "user", "content": "a"},
            {"role": "assistant", "content": [], "stopReason": "error", "errorMessage": "overloaded"},
            {"role": "user", "content": "b"},
            {"role": "assistant", "stopReason": "error"},
            {"role": "assistant", "content": null, "stopReason": "error"},
            {"role": "assistant", "content": "  ", "stopReason": "error"},
            {"role": "assistant", "content": [{"type": "text", "text": " "}, {"type": "output_text", "text": ""}], "stopReason": "error"}
        ]));
        let (out, rw) = apply_rule(&StreamErrorTurn, work);
        assert_eq!(out.len(), 2);
        let got: Vec<_> = rw
            .iter()
            .map(|r| (r.action, r.stored[0], r.detail.to_string()))
            .collect();
        let d = |w: &str| format!("failed turn without content: {w}, stopReason error");
        assert_eq!(
            got,
            vec![
                (Action::Drop, 1, d("empty content")),
                (Action::Drop, 3, d("no content")),
                (Action::Drop, 4, d("null content")),
                (Action::Drop, 5, d("blank string content")),
                (Action::Drop, 6, d("only blank text (2 block(s))")),
            ]
        );
    }

    #[test]
    fn drops_legacy_placeholders() {
        let work = msgs(json!([
            {"role": "assistant", "content": [{"type": "text", "text": S}], "stopReason": "error"},
            {"role": "assistant", "content": format!(" {S}\n"), "stopReason": "error"},
            {"role": "assistant", "content": [{"type": "text", "text": S}], "stopReason": "stop",
             "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0}}
        ]));
        let (out, rw) = apply_rule(&StreamErrorTurn, work);
        assert!(out.is_empty());
        let got: Vec<_> = rw.iter().map(|r| r.detail.to_string()).collect();
        assert_eq!(
            got,
            vec![
                format!("failed turn without content: legacy placeholder `{S}`, stopReason error"),
                format!("failed turn without content: legacy placeholder `{S}`, stopReason error"),
                format!("failed turn without content: legacy placeholder `{S}`, stopReason stop with zero token usage"),
            ]
        );
    }

    #[test]
    fn drops_zero_usage_empty_stop_turns() {
        let work = msgs(json!([
            {"role": "assistant", "content": [], "stopReason": "stop", "usage": {"input": 0, "output": 0}},
            {"role": "assistant", "content": [], "stopReason": "stop", "usage": {"totalTokens": 0}},
            {"role": "assistant", "content": [], "stopReason": "stop", "usage": {"total_tokens": 0}},
            {"role": "assistant", "content": [], "stopReason": "stop", "usage": {"total": 0, "input": 0}},
            {"role": "assistant", "content": [], "stopReason": "stop",
             "usage": {"input": 0, "output": 0, "contextUsage": {"state": "unavailable"}}}
        ]));
        let (out, rw) = apply_rule(&StreamErrorTurn, work);
        assert!(out.is_empty());
        assert_eq!(rw.iter().map(|r| r.stored[0]).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        assert!(
            rw.iter().all(
                |r| r.detail == "failed turn without content: empty content, stopReason stop with zero token usage"
            )
        );
    }

    #[test]
    fn keeps_real_replies_and_non_triggers() {
        assert_untouched(
            &StreamErrorTurn,
            json!([
                {"role": "assistant", "content": [{"type": "text", "text": S}], "stopReason": "stop", "usage": {"input": 10, "output": 7}},
                {"role": "assistant", "content": [{"type": "text", "text": S}], "stopReason": "toolUse", "usage": {"input": 0, "output": 0}},
                {"role": "assistant", "content": [], "stopReason": "toolUse"},
                {"role": "assistant", "content": [], "stopReason": "length", "usage": {"input": 0}},
                {"role": "assistant", "content": [], "stopReason": "stop", "usage": {"input": 3, "output": 0}},
                {"role": "assistant", "content": [], "stopReason": "stop", "usage": {"totalTokens": 4, "input": 0}},
                {"role": "assistant", "content": [], "stopReason": "stop", "usage": {"cost": {"total": 0}}},
                {"role": "assistant", "content": [], "stopReason": "stop"},
                {"role": "assistant", "content": [], "stopReason": "stop", "usage": {"contextUsage": {"state": "unavailable"}}},
                {"role": "assistant", "content": [{"type": "text", "text": "partial"}], "stopReason": "error"},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": "t"}], "stopReason": "error"},
                {"role": "assistant", "content": [{"type": "text"}], "stopReason": "error"},
                {"role": "assistant", "content": {"type": "text", "text": ""}, "stopReason": "error"},
                {"role": "assistant", "content": [], "stopReason": "aborted"},
                {"role": "user", "content": [], "stopReason": "error"}
            ]),
        );
    }
}
