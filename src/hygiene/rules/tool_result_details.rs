//! `tool-result-details`: strip `details` from tool results before replay.

use crate::json;
use crate::model::json::{Map, Value};

use crate::hygiene::{Action, Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use crate::openclaw::synthetic::{SYNTHETIC_MARKER, is_synthetic_result};

static INFO: RuleInfo = RuleInfo {
    id: "tool-result-details",
    summary: "strip `details` from tool results (synthetics keep only the marker)",
    explanation: "Tool results may carry a `details` object with tool-specific structured data (diffs, exit \
        codes, file lists) that the model never needs and providers do not accept. OpenClaw's \
        stripToolResultDetails removes `details` from every toolResult message. In the newest rule set a \
        synthetic missing-result message keeps exactly `{openclawSyntheticMissingToolResult: true}` so that \
        later replays still recognise it as synthetic; with `--openclaw 2026.9.6` the marker goes too (that \
        release strips every `details`). Messages without `details` are left untouched.",
    families: "all",
    reference: "transcript-hygiene.md › \"Where this runs\" · stripToolResultDetails",
};

/// The `tool-result-details` rule.
pub struct ToolResultDetails;

impl Rule for ToolResultDetails {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, _ctx: &Context<'_>) -> bool {
        true
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let keep_marker = ctx.options.rule_set.switches.keep_synthetic_marker;
        for wm in &mut work.messages {
            let Some(next) = stripped(&wm.message, keep_marker) else {
                continue;
            };
            let detail = if next.get("details").is_some() {
                "kept only the synthetic-result marker of `details`".to_owned()
            } else {
                "removed `details`".to_owned()
            };
            wm.message = std::borrow::Cow::Owned(next);
            rewrites.push(PendingRewrite::on(INFO.id, Action::Modify, wm, detail));
        }
    }
}

/// The message with `details` stripped, or `None` when nothing changes.
fn stripped(m: &Message, keep_marker: bool) -> Option<Message> {
    if !m.is_tool_result() {
        return None;
    }
    let details = m.get("details")?;
    let mut next = m.clone();
    if keep_marker && is_synthetic_result(m) {
        let marker = json!({ SYNTHETIC_MARKER: true });
        if *details == marker {
            return None;
        }
        let mut only = Map::new();
        only.insert(SYNTHETIC_MARKER.to_owned().into(), Value::Bool(true));
        next.set("details", Value::Object(only));
    } else {
        next.remove("details");
    }
    Some(next)
}
