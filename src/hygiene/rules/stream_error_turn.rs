//! `stream-error-turn`: drop empty stream-error turns, legacy fallback placeholders and
//! zero-usage empty stop turns (OpenClaw's `isStreamErrorFallbackContent`, newest behaviour).

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
