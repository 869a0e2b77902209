//! Anthropic Messages API constraints (https://docs.claude.com/en/api/messages), also enforced for Claude on
//! Bedrock's InvokeModel and Vertex.

mod empty_content;
mod empty_text;
mod final_block_thinking;
mod thinking_first;
mod thinking_signature_blank;
mod thinking_signature_missing;
mod thinking_text_missing;
mod tool_result_orphan;
mod tool_use_adjacency;
mod tool_use_id_pattern;
mod tool_use_id_unique;
mod whitespace_text;

use crate::model::json::Value;

use super::shape::{blocks, hit, kind, messages_of, str_at};
use super::{Constraint, Hit};
use crate::wire::Payload;

/// Every hand-written Anthropic constraint, in report order (the limits table's rows follow).
pub static CONSTRAINTS: &[&Constraint] = &[
    &tool_use_adjacency::CONSTRAINT,
    &tool_result_orphan::CONSTRAINT,
    &tool_use_id_unique::CONSTRAINT,
    &tool_use_id_pattern::CONSTRAINT,
    &empty_text::CONSTRAINT,
    &whitespace_text::CONSTRAINT,
    &empty_content::CONSTRAINT,
    &thinking_first::CONSTRAINT,
    &final_block_thinking::CONSTRAINT,
    &thinking_signature_missing::CONSTRAINT,
    &thinking_signature_blank::CONSTRAINT,
    &thinking_text_missing::CONSTRAINT,
];

/// A text of the payload: a `text` block (top level or in `tool_result` content) or non-empty
/// string message content.
struct Text<'a> {
    /// The message.
    item: usize,
    /// Where in the message: `None` for string content, else the block and, inside a
    /// `tool_result`, the inner block.
    at: Option<(usize, Option<usize>)>,
    /// The text.
    text: &'a str,
}

impl Text<'_> {
    /// `messages.N.content`, `messages.N.content.M` or
    /// `messages.N.content.M.tool_result.content.K` (formatted only for a finding).
    fn path(&self) -> String {
        let i = self.item;
        match self.at {
            None => format!("messages.{i}.content"),
            Some((j, None)) => format!("messages.{i}.content.{j}"),
            Some((j, Some(k))) => format!("messages.{i}.content.{j}.tool_result.content.{k}"),
        }
    }
}

/// Every text of the payload, in order, found as the checks ask for them.
fn text_blocks(payload: &Payload) -> impl Iterator<Item = Text<'_>> {
    payload
        .items
        .iter()
        .enumerate()
        .flat_map(|(i, item)| texts_of(i, &item.value))
}

/// The texts of message `i`, in order.
fn texts_of(i: usize, message: &Value) -> Vec<Text<'_>> {
    let mut out = Vec::new();
    if let Some(Value::String(s)) = message.get("content")
        && !s.is_empty()
    {
        out.push(Text {
            item: i,
            at: None,
            text: s,
        });
    }
    for (j, b) in blocks(message).iter().enumerate() {
        if kind(b) == Some("text")
            && let Some(text) = str_at(b, "text")
        {
            out.push(Text {
                item: i,
                at: Some((j, None)),
                text,
            });
        }
        if kind(b) == Some("tool_result") {
            for (k, inner) in blocks(b).iter().enumerate() {
                if kind(inner) == Some("text")
                    && let Some(text) = str_at(inner, "text")
                {
                    out.push(Text {
                        item: i,
                        at: Some((j, Some(k))),
                        text,
                    });
                }
            }
        }
    }
    out
}

/// `(message, block, block)` of every `thinking` block of an assistant message.
fn thinking_blocks(payload: &Payload) -> impl Iterator<Item = (usize, usize, &Value)> {
    messages_of(payload, "assistant").flat_map(|(i, message)| {
        blocks(message)
            .iter()
            .enumerate()
            .filter(|(_, b)| kind(b) == Some("thinking"))
            .map(move |(j, b)| (i, j, b))
    })
}

/// A `Field required` hit at every `thinking` block lacking `field` (or holding `null` there).
fn thinking_field_missing(payload: &Payload, field: &str) -> Vec<Hit> {
    thinking_blocks(payload)
        .filter(|(_, _, b)| matches!(b.get(field), None | Some(Value::Null)))
        .map(|(i, j, _)| {
            let path = format!("messages.{i}.content.{j}.thinking.{field}");
            hit(i, path.clone(), format!("{path}: Field required"))
        })
        .collect()
}

/// For tests: an assistant turn calling `ids`.
#[cfg(test)]
fn calls(ids: &[&str]) -> Value {
    let blocks: Vec<Value> = ids
        .iter()
        .map(|id| crate::json!({"type": "tool_use", "id": id, "name": "read", "input": {}}))
        .collect();
    crate::json!({"role": "assistant", "content": blocks})
}

/// For tests: a conversation of a user's "hi" and an assistant reply of `content`.
#[cfg(test)]
fn reply(content: Value) -> Value {
    crate::json!([{"role": "user", "content": "hi"}, {"role": "assistant", "content": content}])
}
