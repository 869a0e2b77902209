//! `internal-metadata`: strip inbound-metadata and runtime-context blocks from assistant text
//! (OpenClaw's `stripInternalMetadataForDisplay`), normalize legacy string/object assistant content, and remove managed
//! display blocks (newest behaviour).

use crate::json;
use crate::model::json::Value;

use crate::hygiene::{Change, Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use super::silent_reply::is_silent_block;
use crate::hygiene::helpers::metadata_strip::strip_internal_metadata_as;
use crate::openclaw::assistant_text::is_blank;
use crate::openclaw::compaction_replay::{has_movable_checkpoint, none_rebuilt, replace_owner_content};

static INFO: RuleInfo = RuleInfo {
    id: "internal-metadata",
    summary: "strip inbound-metadata and runtime-context blocks from assistant text",
    explanation: "Models sometimes echo the metadata OpenClaw injects into prompts, and older sessions stored \
        runtime context inside messages; replaying it would feed internal data back as if the assistant had \
        said it. For every assistant message this rule applies OpenClaw's stripInternalMetadataForDisplay. \
        Runtime context: a line `<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>` through the matching line \
        `<<<END_OPENCLAW_INTERNAL_CONTEXT>>>` (nesting counted; an unterminated block removes the rest of \
        the text; the text around is rejoined with one blank line), and a line `OpenClaw runtime context \
        for the immediately preceding user message.` or `OpenClaw runtime event.` directly followed by \
        the notice `This context is runtime-generated, not user-authored. Keep internal details private.` \
        (both lines and the blank lines after them). Inbound metadata (OpenClaw 2026.9.6 \
        stripInboundMetadata, keyed on the provenance marker `⟦openclaw:ctx⟧`, not on label text): a \
        header line ending with the marker (e.g. `Conversation info (untrusted metadata): ⟦openclaw:ctx⟧`) \
        with its fenced ```json block, or with the lines up to the first blank line when no fence follows; \
        a line `Context: ⟦openclaw:ctx⟧` and everything after it; a line that is exactly one of the \
        message-tool delivery hints; active-memory `Context:` + `<active_memory_plugin>` blocks; and a \
        leading `[Mon 2026-01-05 10:00 …]` timestamp envelope. Leading and trailing newlines are then \
        trimmed. An unmarked `Conversation info (untrusted metadata):` block (the legacy label, or text a \
        user typed) is kept, as OpenClaw keeps it. \
        Content shapes: string content that is blank after stripping drops the message; otherwise it \
        becomes `[{type:\"text\", text}]` with the stripped, untrimmed text (always, even when nothing was \
        stripped). A single content object is wrapped in an array; missing, null or other non-object \
        content becomes `[]`. In an array, every block with a string `text` (whatever its type) is \
        stripped: unchanged blocks stay as they are, a changed block keeps its other fields with the new \
        text, and a block left blank is removed. The newest OpenClaw also removes assistant \
        blocks of type `attachment`, `attachment_error`, `audio`, `image` and `video` (display-only \
        facts) in the same pass; this rule owns that removal, because those blocks are OpenClaw \
        display metadata rather than silent replies. A message whose blocks are all removed is dropped. \
        A silent `NO_REPLY` text left after stripping is removed by the next rule (silent-reply), which \
        gives the same result as OpenClaw's single pass. As upstream, where the loop moves on \
        right after converting string content, a turn stored as a string is never tested as a duplicate \
        mirror (the rule records it for duplicate-mirror). A compaction checkpoint (`providerReplay` of \
        type `anthropic-compaction` or `openai-responses-compaction`) follows the pass as OpenClaw's \
        replaceCompactionReplayOwnerContent moves it: this rule moves it for the whole pass, silent-reply \
        text included (removed when a stripped block is kept, or `replayIndex` is past the end; else \
        `replayIndex` becomes the number of untouched blocks kept before it); string content made a \
        text block loses it.",
    families: "all",
    reference: "transcript-hygiene.md › \"Global rule: runtime context is not user transcript\" · stripInternalMetadataForDisplay",
};

/// Assistant block types that only carry display facts and are removed before replay (newest behaviour).
pub const MANAGED_DISPLAY_BLOCK_TYPES: [&str; 5] = ["attachment", "attachment_error", "audio", "image", "video"];

/// The `internal-metadata` rule.
pub struct InternalMetadata;

impl Rule for InternalMetadata {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, _ctx: &Context<'_>) -> bool {
        true
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let string_turns: Vec<_> = work
            .messages
            .iter()
            .filter(|wm| wm.message.is_assistant() && matches!(wm.message.content(), Some(Value::String(_))))
            .map(|wm| wm.uid)
            .collect();
        work.moved_on_turns.extend(string_turns);
        // Up to 2026.7 (`metadata-by-label`): the older inbound-metadata strip, display blocks kept.
        let by_label = ctx.options.rule_set.switches.metadata_by_label;
        let silent_exact = !ctx.options.rule_set.switches.silent_token_edge_punctuation;
        let checkpoints = ctx.options.rule_set.switches.compaction_checkpoints;
        work.change_each(INFO.id, rewrites, |_, m| {
            normalize(m, by_label, silent_exact, checkpoints)
        });
    }
}

fn chars_removed(before: &str, after: &str) -> usize {
    before.chars().count().saturating_sub(after.chars().count())
}

fn normalize(m: &Message, by_label: bool, silent_exact: bool, checkpoints: bool) -> Option<Change> {
    if !m.is_assistant() {
        return None;
    }
    let mut notes = Vec::new();
    let blocks: Vec<Value> = match m.content() {
        Some(Value::String(s)) => return Some(normalize_string(m, s, by_label, checkpoints)),
        Some(Value::Array(_)) => {
            return normalize_blocks(m, m.content_array()?, notes, by_label, (silent_exact, checkpoints));
        }
        Some(obj @ Value::Object(_)) => {
            notes.push("wrapped the single content object in an array".to_owned());
            vec![obj.clone()]
        }
        None => {
            notes.push("replaced missing content by []".to_owned());
            Vec::new()
        }
        Some(Value::Null) => {
            notes.push("replaced null content by []".to_owned());
            Vec::new()
        }
        Some(other) => {
            notes.push(format!("replaced non-array content ({}) by []", kind_name(other)));
            Vec::new()
        }
    };
    normalize_blocks(m, &blocks, notes, by_label, (silent_exact, checkpoints))
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        _ => "value",
    }
}

fn normalize_string(m: &Message, s: &str, by_label: bool, checkpoints: bool) -> Change {
    let stripped = strip_internal_metadata_as(s, by_label);
    let text = stripped.as_ref().map_or(s, |x| x.text.as_str());
    if is_blank(text) {
        return Change::Drop(match &stripped {
            None => "string content is blank".to_owned(),
            Some(x) => format!(
                "string content is blank after stripping {} ({} chars)",
                x.what(),
                chars_removed(s, text)
            ),
        });
    }
    let mut next = m.clone();
    next.set_content(vec![json!({"type": "text", "text": text})]);
    let mut detail = match &stripped {
        None => "converted string content to a text block".to_owned(),
        Some(x) => format!(
            "stripped {} from string content ({} chars) and converted it to a text block",
            x.what(),
            chars_removed(s, text)
        ),
    };
    if let Some(moved) = checkpoints
        .then(|| replace_owner_content(m, &mut next, &none_rebuilt))
        .flatten()
    {
        detail.push_str("; ");
        detail.push_str(&moved);
    }
    Change::Replace(next, detail)
}

fn normalize_blocks(
    m: &Message,
    blocks: &[Value],
    mut notes: Vec<String>,
    by_label: bool,
    (silent_exact, checkpoints): (bool, bool),
) -> Option<Change> {
    let mut kept = Vec::with_capacity(blocks.len());
    let mut touched = !notes.is_empty();
    // What OpenClaw's single pass (normalizeAssistantReplayBlockContent) leaves, silent-reply
    // text removed too: the compaction checkpoint follows it.
    let mut left: Vec<Value> = Vec::with_capacity(blocks.len());
    let mut silent_left = false;
    let mut keep_left = |block: &Value, left: &mut Vec<Value>| {
        if is_silent_block(block, silent_exact) {
            silent_left = true;
        } else {
            left.push(block.clone());
        }
    };
    for (i, block) in blocks.iter().enumerate() {
        if let Some(t) = block.get("type").and_then(Value::as_str)
            && !by_label
            && MANAGED_DISPLAY_BLOCK_TYPES.contains(&t)
        {
            notes.push(format!("removed {t} block {i} (display-only)"));
            touched = true;
            continue;
        }
        let Some(text) = block.get("text").and_then(Value::as_str) else {
            kept.push(block.clone());
            left.push(block.clone());
            continue;
        };
        let Some(stripped) = strip_internal_metadata_as(text, by_label) else {
            keep_left(block, &mut left);
            kept.push(block.clone());
            continue;
        };
        touched = true;
        let n = chars_removed(text, &stripped.text);
        if is_blank(&stripped.text) {
            notes.push(format!("removed text block {i}: only {} ({n} chars)", stripped.what()));
            continue;
        }
        notes.push(format!("stripped {} from text block {i} ({n} chars)", stripped.what()));
        let mut changed = block.clone();
        changed["text"] = Value::String(stripped.text.into());
        keep_left(&changed, &mut left);
        kept.push(changed);
    }
    let checkpoint = checkpoints && has_movable_checkpoint(m);
    if !(touched || silent_left && checkpoint) {
        return None;
    }
    if kept.is_empty() && !blocks.is_empty() {
        return Some(Change::Drop(format!("every block removed: {}", notes.join("; "))));
    }
    let mut next = m.clone();
    next.set_content(kept);
    if checkpoint && !left.is_empty() {
        // The checkpoint as the whole pass leaves it; silent-reply then removes the silent text
        // without moving it again.
        let mut after_pass = m.clone();
        after_pass.set_content(left);
        if let Some(moved) = replace_owner_content(m, &mut after_pass, &none_rebuilt) {
            match after_pass.get("providerReplay") {
                Some(replay) => next.set("providerReplay", replay.clone()),
                None => {
                    next.remove("providerReplay");
                }
            }
            notes.push(if silent_left {
                format!("{moved} (with the silent-reply text the same pass removes)")
            } else {
                moved
            });
        }
    }
    if notes.is_empty() {
        return None;
    }
    Some(Change::Replace(next, notes.join("; ")))
}
