//! `dangling-tool-call`: strip tool calls without results before an Anthropic replay.

use std::collections::{HashMap, HashSet};

use crate::json;
use crate::model::json::Value;
use crate::openclaw::result_ids::ANTHROPIC_RESULT_ID_FIELDS;

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::{BlockKind, Message, Role};

use crate::openclaw::js::js_truthy;

/// The text left in a turn whose tool calls were all removed (OpenClaw's `validateAnthropicTurns`).
pub const TOOL_CALLS_OMITTED_TEXT: &str = "[tool calls omitted]";

static INFO: RuleInfo = RuleInfo {
    id: "dangling-tool-call",
    summary: "strip tool calls without results before an Anthropic replay (`[tool calls omitted]`)",
    explanation: "Anthropic rejects a request in which a tool_use block has no tool_result in the next turn. \
        OpenClaw's validateAnthropicTurns strips such dangling calls after merging consecutive assistant \
        turns. For each assistant turn with array content and at least one tool call (`toolCall`, `toolUse` or \
        `functionCall` with a non-empty string `id`), it looks forward until the next assistant turn and \
        collects result ids: from `toolResult` and `tool` messages the trimmed values of toolUseId, \
        toolCallId, tool_use_id, tool_call_id, callId and call_id (plus the untrimmed toolCallId, else \
        toolUseId, of a toolResult), and from `toolResult`/`tool` blocks embedded in the content of any \
        message in that span (user content in practice; upstream reads every message's content, which we \
        follow) the same six fields. Without thinking blocks in the turn, a tool call is kept only when its \
        trimmed id is among those ids; calls without an id go too, and so do null/false/0/\"\" entries of the \
        content (an upstream filter quirk), but a turn none of whose calls has an id is left alone. With a `thinking` or `redacted_thinking` block in the turn the \
        signed turn cannot be edited: it is kept only if every tool call has a non-blank id and name and a \
        real result message (not a user-embedded block) with that id whose tool name (toolName, else name) \
        matches or is absent; otherwise the whole content is replaced. When a turn loses all its content, or \
        a thinking turn is replaced, the content becomes one text block `[tool calls omitted]`, or `[]` when \
        the turn's stopReason is `aborted` or `error`. All other fields of the turn are kept. Runs after \
        anthropic-turn-merge: it must follow the assistant merge (an injected assistant turn would otherwise \
        hide the result that resolves the call before it), and the user merge, which upstream runs after \
        this step, never changes an assistant turn or which results lie between two assistant turns.",
    families: "Anthropic (direct), MiniMax on Anthropic APIs, Amazon Bedrock Converse, unowned Anthropic APIs, OpenAI-compatible chat completions, Responses-compatible APIs with Claude-family model ids",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Anthropic · stripDanglingAnthropicToolUses (in validateAnthropicTurns)",
};

/// The `dangling-tool-call` rule.
pub struct DanglingToolCall;

impl Rule for DanglingToolCall {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.resolved.policy.validate_anthropic_turns
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        // Only the changed turns are held, in order, and handed over as their turn comes.
        let changes: Vec<(usize, (Message, String))> = (0..work.len())
            .filter_map(|i| stripped(work, i).map(|c| (i, c)))
            .collect();
        let mut changes = changes.into_iter().peekable();
        work.modify_each(INFO.id, rewrites, |i, _| {
            changes.next_if(|(j, _)| *j == i).map(|(_, c)| c)
        });
    }
}

/// A non-blank trimmed string field.
fn trimmed(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

/// The trimmed ids of the six id fields of a result message or block.
fn match_ids(record: &crate::model::json::Map) -> Vec<String> {
    ANTHROPIC_RESULT_ID_FIELDS
        .iter()
        .filter_map(|k| trimmed(record.get(k)))
        .map(str::to_owned)
        .collect()
}

/// The canonical id of a toolResult message: `toolCallId`, else `toolUseId` (non-empty, untrimmed).
fn canonical_result_id(m: &Message) -> Option<String> {
    ["toolCallId", "toolUseId"]
        .iter()
        .find_map(|k| m.str_field(k).filter(|s| !s.is_empty()))
        .map(str::to_owned)
}

/// Result ids and trusted (id → tool names) matches in the span after assistant `i`, up to the
/// next assistant turn.
fn span_results(work: &Working<'_>, i: usize) -> (HashSet<String>, HashMap<String, HashSet<String>>) {
    let mut any = HashSet::new();
    let mut trusted: HashMap<String, HashSet<String>> = HashMap::new();
    for wm in &work.messages[i + 1..] {
        let m = wm.message.as_ref();
        let role = m.role();
        if role == Role::Assistant {
            break;
        }
        if role == Role::ToolResult || role == Role::Other("tool") {
            let mut ids = match_ids(m.as_map());
            if role == Role::ToolResult {
                ids.extend(canonical_result_id(m));
            }
            let name = trimmed(m.get("toolName")).or_else(|| trimmed(m.get("name")));
            for id in ids {
                let bucket = trusted.entry(id.clone()).or_default();
                bucket.extend(name.map(str::to_owned));
                any.insert(id);
            }
        }
        for b in m.content_array().into_iter().flatten() {
            let Some(obj) = b.as_object() else { continue };
            if matches!(obj.get("type").and_then(Value::as_str), Some("toolResult" | "tool")) {
                any.extend(match_ids(obj));
            }
        }
    }
    (any, trusted)
}

/// A call for the detail: `id (name)`; `<no id>` when the id is missing or blank.
fn describe(b: &Value) -> String {
    let id = b
        .get("id")
        .and_then(Value::as_str)
        .filter(|id| !id.trim().is_empty())
        .unwrap_or("<no id>");
    match b.get("name").and_then(Value::as_str) {
        Some(n) => format!("{id} ({n})"),
        None => id.to_owned(),
    }
}

/// Why a tool call of a turn with thinking blocks does not count as answered, in words, or
/// `None` when it does: it needs a non-blank id and name and a tool-result message in its span
/// with that id whose tool name matches or is absent.
fn unresolved_in_signed_turn(
    b: &Value,
    any: &HashSet<String>,
    trusted: &HashMap<String, HashSet<String>>,
) -> Option<String> {
    let call = describe(b);
    let Some(id) = trimmed(b.get("id")) else {
        return Some(format!("tool call {call} has no id"));
    };
    let Some(name) = trimmed(b.get("name")) else {
        return Some(format!("tool call {call} has no tool name"));
    };
    let Some(names) = trusted.get(id) else {
        return Some(if any.contains(id) {
            format!(
                "tool call {call} has no matching result: the result for {id} is only a block embedded in \
                 another message, which a turn with thinking blocks does not accept"
            )
        } else {
            format!("tool call {call} has no matching result before the next assistant turn")
        });
    };
    if names.is_empty() || names.contains(name) {
        return None;
    }
    let mut others: Vec<&str> = names.iter().map(String::as_str).collect();
    others.sort_unstable();
    let listed = others
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(" and ");
    let (result, verb) = if others.len() == 1 {
        ("result", "names tool")
    } else {
        ("results", "name tools")
    };
    Some(format!(
        "tool call {call} has no matching result: the {result} for {id} {verb} {listed}, not `{name}`"
    ))
}

/// The replacement content of a turn that loses everything.
fn omitted(m: &Message) -> (Vec<Value>, &'static str) {
    if m.stop_reason().is_some_and(|s| s.is_failure()) {
        (Vec::new(), "empty content (the turn was aborted/failed)")
    } else {
        (
            vec![json!({"type": "text", "text": TOOL_CALLS_OMITTED_TEXT})],
            "`[tool calls omitted]`",
        )
    }
}

/// The stripped message `i` and the detail, or `None` when it keeps its calls.
fn stripped(work: &Working<'_>, i: usize) -> Option<(Message, String)> {
    let m = work.messages[i].message.as_ref();
    if !m.is_assistant() {
        return None;
    }
    let content = m.content_array().filter(|c| !c.is_empty())?;
    let has_call = m
        .blocks()
        .any(|b| b.kind().is_canonical_tool_call() && b.tool_call_id().is_some_and(|id| !id.is_empty()));
    if !has_call {
        return None;
    }
    let is_call = |b: &Value| BlockKind::of(b).is_canonical_tool_call();
    let (any, trusted) = span_results(work, i);
    let mut next = m.clone();
    if content.iter().any(|b| BlockKind::of(b).is_thinking_like()) {
        let unresolved: Vec<String> = content
            .iter()
            .filter(|b| is_call(b))
            .filter_map(|b| unresolved_in_signed_turn(b, &any, &trusted))
            .collect();
        if unresolved.is_empty() {
            return None;
        }
        let (blocks, what) = omitted(m);
        next.set_content(blocks);
        let detail = format!(
            "replaced the content of a turn with thinking blocks by {what}: {}",
            unresolved.join("; ")
        );
        return Some((next, detail));
    }
    let mut removed = Vec::new();
    let mut empties = 0usize;
    let kept: Vec<Value> = content
        .iter()
        .filter(|b| {
            if !js_truthy(b) {
                empties += 1;
                return false;
            }
            if !is_call(b) || trimmed(b.get("id")).is_some_and(|id| any.contains(id)) {
                return true;
            }
            removed.push(describe(b));
            false
        })
        .cloned()
        .collect();
    if kept.len() == content.len() {
        return None;
    }
    let mut detail = if removed.is_empty() {
        String::from("removed")
    } else {
        format!(
            "removed tool call {} without a result before the next assistant turn",
            crate::text::join_folded(&removed)
        )
    };
    if empties > 0 {
        let sep = if removed.is_empty() { " " } else { " and " };
        detail.push_str(&format!(
            "{sep}{empties} null/empty content entr{}",
            if empties == 1 { "y" } else { "ies" }
        ));
    }
    if kept.is_empty() {
        let (blocks, what) = omitted(m);
        next.set_content(blocks);
        detail.push_str(&format!("; nothing left, content is now {what}"));
    } else {
        next.set_content(kept);
    }
    Some((next, detail))
}
