//! `silent-reply`: remove `NO_REPLY` silent-reply text; drop turns it leaves empty or
//! reasoning-only (OpenClaw's `isSilentReplyPayloadText`, newest behaviour).

use crate::model::json::Value;

use crate::hygiene::{Change, Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use crate::openclaw::assistant_text::{excerpt, is_blank, is_reasoning_only};
use crate::openclaw::js::js_trim;
use crate::openclaw::silent_token::is_silent_reply_payload_as;
use crate::rule_set::Switches;

static INFO: RuleInfo = RuleInfo {
    id: "silent-reply",
    summary: "remove `NO_REPLY` silent-reply text; drop turns it leaves empty or reasoning-only",
    explanation: "An agent that decides not to answer replies with the silent token `NO_REPLY`; OpenClaw does \
        not deliver it, and replaying it would teach the model to stay silent. In every assistant message \
        with array content, each block that has a string `text` (whatever its type) whose trimmed text is \
        a silent payload is removed. A silent payload is what OpenClaw 2026.9.6's isSilentReplyPayloadText \
        accepts: the token alone, case-insensitive and possibly repeated (`NO_REPLY`, `no_reply`, \
        `NO_REPLY NO_REPLY`), also inside edge punctuation (`NO_REPLY.`, `**NO_REPLY**`); a JSON string \
        `\"NO_REPLY\"`; a JSON object whose only key `action` trims to the token; or reasoning followed by \
        the token (closed `<think>` blocks, an unclosed `<thinking>` or a `Thinking:` line, then the token \
        or a silent-intent sentence such as `I will stay quiet.` ending in it). `NO_REPLY` inside an \
        ordinary answer (`Sure. NO_REPLY`, `` `NO_REPLY` ``) is not silent. A message whose blocks are all removed is dropped \
        (no placeholder is fabricated). Newest behaviour: when a silent text was removed and what \
        remains is reasoning-only (at least one `thinking`/`redacted_thinking` block and otherwise only \
        blank text blocks), the whole message is dropped so its signed reasoning cannot merge into a \
        later assistant tool-use turn. A silent turn that also has tool calls, visible text or unknown \
        blocks keeps them; only the silent block goes. String content (normally converted to a text \
        block by internal-metadata just before) is dropped when it is a silent payload.",
    families: "all",
    reference: "transcript-hygiene.md › \"Global rule: incomplete or silent reasoning-only turns\" · normalizeAssistantReplayContent, isSilentReplyPayloadText",
};

/// The `silent-reply` rule.
pub struct SilentReply;

impl Rule for SilentReply {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, _ctx: &Context<'_>) -> bool {
        true
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        // Up to 2026.7 (`keep-reasoning-after-silent-reply`) the reasoning left stays; in 2026.6
        // (`silent-token-exact`) `NO_REPLY.` is not silent.
        let switches = &ctx.options.rule_set.switches;
        work.change_each(INFO.id, rewrites, |_, m| silent_outcome(m, switches));
    }
}

/// Whether a block is a silent-reply text block (`exact`: without edge punctuation).
pub fn is_silent_block(block: &Value, exact: bool) -> bool {
    block
        .get("text")
        .and_then(Value::as_str)
        .is_some_and(|t| !is_blank(t) && is_silent_reply_payload_as(t, exact))
}

fn silent_outcome(m: &Message, switches: &Switches) -> Option<Change> {
    if !m.is_assistant() {
        return None;
    }
    let exact = !switches.silent_token_edge_punctuation;
    if let Some(s) = m.content_str() {
        return (!is_blank(s) && is_silent_reply_payload_as(s, exact)).then(|| {
            Change::Drop(format!(
                "string content is the silent reply {}",
                excerpt(js_trim(s), 40)
            ))
        });
    }
    let blocks = m.content_array()?;
    let mut notes = Vec::new();
    let mut kept = Vec::with_capacity(blocks.len());
    for (i, block) in blocks.iter().enumerate() {
        if is_silent_block(block, exact) {
            let text = block.get("text").and_then(Value::as_str).unwrap_or_default();
            let ty = block.get("type").and_then(Value::as_str).unwrap_or("untyped");
            notes.push(format!("removed {} {ty} block {i}", excerpt(js_trim(text), 40)));
        } else {
            kept.push(block.clone());
        }
    }
    if notes.is_empty() {
        return None;
    }
    let removed = notes.join("; ");
    if kept.is_empty() {
        return Some(Change::Drop(format!("only silent-reply text: {removed}")));
    }
    if switches.silent_reply_drops_reasoning_only && is_reasoning_only(&kept) {
        return Some(Change::Drop(format!("reasoning-only after silent reply: {removed}")));
    }
    Some(Change::Content(kept, removed))
}
