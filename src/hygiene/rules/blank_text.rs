//! `blank-text`: remove blank text blocks; drop assistant turns left empty; give user and
//! tool-result turns left empty the `[empty content omitted]` placeholder (OpenClaw's `sanitizeSessionMessagesImages`).

use crate::json;
use crate::model::json::Value;

use crate::hygiene::{Change, Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::{Message, Role};

use super::thought_signature::ThoughtSignature;
use crate::openclaw::assistant_text::{EMPTY_CONTENT_PLACEHOLDER, is_blank_text_block};
use crate::openclaw::compaction_replay::{has_movable_checkpoint, replace_owner_content};
use crate::openclaw::js::truthy;

static INFO: RuleInfo = RuleInfo {
    id: "blank-text",
    summary: "remove blank text blocks; drop assistant turns left empty; give user and tool-result turns left empty the `[empty content omitted]` placeholder",
    explanation: "Providers reject empty text blocks and empty messages. While OpenClaw's image pass walks \
        the replay content it removes every `text` block whose string text is blank (JavaScript `trim()`; \
        a text block without a string `text` stays), keeping the order of the other blocks. Then: an \
        assistant message with array content that is empty is dropped — whether it became empty here or \
        already was (empty `toolUse`/`length`/billed `stop` turns that the earlier rules kept), for \
        `stopReason` `error` and every other stop reason alike; a user message with array content that is \
        empty gets `[{type:\"text\", text:\"[empty content omitted]\"}]`; a tool result always ends up \
        with array content: its blank text blocks are removed and, when nothing is left, it gets the same \
        placeholder. A tool result whose content is not an \
        array (a string, null or missing) is treated as `[]` and so receives the placeholder, even when \
        the string held text. String user content and assistant content that is not an array are left \
        alone, as are other roles. An assistant turn that \"owns opaque provider replay state\" (its \
        `providerReplay` is truthy) is kept with `content: []` instead of being dropped. The same pass \
        keeps a compaction checkpoint (`providerReplay` of type `anthropic-compaction` or \
        `openai-responses-compaction`) in step with every assistant turn with array content, whether or \
        not a block goes (replaceCompactionReplayOwnerContent): it is removed when the content was \
        emptied, when `replayIndex` is past the end of the content, or when a kept block was made anew \
        by the pass (every `image` block, and every block thought-signature rewrites), else `replayIndex` \
        becomes the number of kept blocks before it. Images themselves are handled by image-sanitize.",
    families: "all",
    reference: "transcript-hygiene.md › \"Global rule: image sanitization\" · sanitizeSessionMessagesImages",
};

/// The `blank-text` rule.
pub struct BlankText;

impl Rule for BlankText {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, _ctx: &Context<'_>) -> bool {
        true
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        work.change_each(INFO.id, rewrites, |_, m| blank_text_outcome(ctx, m));
    }
}

/// The placeholder content of a user or tool-result turn left empty.
pub fn empty_content_placeholder() -> Vec<Value> {
    vec![json!({"type": "text", "text": EMPTY_CONTENT_PLACEHOLDER})]
}

fn describe_removed(removed: &[usize]) -> String {
    let list: Vec<String> = removed.iter().map(usize::to_string).collect();
    format!("removed blank text block(s) {}", crate::text::join_folded(&list))
}

/// An assistant turn after the image pass: its new content and detail, with the compaction
/// checkpoint moved as OpenClaw's single pass over the turn moves it.
fn assistant_outcome(ctx: &Context<'_>, m: &Message, kept: Vec<Value>, what: Option<String>) -> Option<Change> {
    // Up to 2026.7 (`no-compaction-checkpoints`) neither the exemption nor the checkpoint.
    let checkpoints = ctx.options.rule_set.switches.compaction_checkpoints;
    if kept.is_empty() && !(checkpoints && truthy(m.get("providerReplay"))) {
        let what = what.unwrap_or_else(|| "empty content".to_owned());
        return Some(Change::Drop(format!("assistant turn without content: {what}")));
    }
    if !checkpoints {
        return what.map(|what| Change::Content(kept, what));
    }
    if what.is_none() && !has_movable_checkpoint(m) {
        return None;
    }
    let emptied = kept.is_empty() && what.is_some();
    let mut next = m.clone();
    next.set_content(kept);
    let rebuilt = |b: &Value| {
        b.get("type").and_then(Value::as_str) == Some("image") || ThoughtSignature::rebuilds_block(ctx, m, b)
    };
    let moved = replace_owner_content(m, &mut next, &rebuilt);
    let mut notes: Vec<String> = what.into_iter().collect();
    if emptied {
        notes.push("kept with `content: []`: the turn owns provider replay state (`providerReplay`)".to_owned());
    }
    notes.extend(moved);
    (!notes.is_empty()).then(|| Change::Replace(next, notes.join("; ")))
}

fn blank_text_outcome(ctx: &Context<'_>, m: &Message) -> Option<Change> {
    let role = m.role();
    let blocks = match (role, m.content()) {
        (Role::Assistant | Role::User | Role::ToolResult, Some(Value::Array(blocks))) => blocks,
        (Role::ToolResult, other) => {
            let what = match other {
                None => "no content".to_owned(),
                Some(Value::String(s)) => format!("string content ({} chars)", s.chars().count()),
                Some(Value::Null) => "null content".to_owned(),
                Some(_) => "non-array content".to_owned(),
            };
            return Some(Change::Content(
                empty_content_placeholder(),
                format!("{what} treated as empty; set the `{EMPTY_CONTENT_PLACEHOLDER}` placeholder"),
            ));
        }
        _ => return None,
    };
    let removed: Vec<usize> = (0..blocks.len()).filter(|&i| is_blank_text_block(&blocks[i])).collect();
    let kept: Vec<Value> = blocks
        .iter()
        .enumerate()
        .filter(|(i, _)| !removed.contains(i))
        .map(|(_, b)| b.clone())
        .collect();
    if role == Role::Assistant {
        return assistant_outcome(ctx, m, kept, (!removed.is_empty()).then(|| describe_removed(&removed)));
    }
    if !kept.is_empty() {
        return (!removed.is_empty()).then(|| Change::Content(kept, describe_removed(&removed)));
    }
    let what = if removed.is_empty() {
        "empty content".to_owned()
    } else {
        describe_removed(&removed)
    };
    Some(Change::Content(
        empty_content_placeholder(),
        format!("{what}; set the `{EMPTY_CONTENT_PLACEHOLDER}` placeholder"),
    ))
}
