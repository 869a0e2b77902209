//! Response items → OpenClaw turns: user turns, assistant turns gathered from consecutive
//! assistant-side items (reasoning, assistant messages, tool calls), and tool results
//! paired with their calls.

use crate::json;
use crate::model::json::{Map, Value};

use super::calls::Pairing;
use super::items::{
    IMAGE_WITHOUT_DATA, ItemKind, Part, assistant_text, call_parts, classify, environment_cwd, message_parts,
    output_parts, output_value, thinking_block, tool_call_block, tool_call_id, zero_usage,
};
use super::{API, At, Walk};
use crate::model::{Location, MappedMessage, Message};

/// An assistant turn being gathered.
#[derive(Debug)]
pub(super) struct Draft {
    entry_id: Option<String>,
    sources: Vec<Location>,
    blocks: Vec<Value>,
    ms: i64,
    model: String,
    tool_call: bool,
}

/// The id given to a call stored without `call_id`.
fn line_call_id(at: At) -> String {
    let line = match at.loc {
        Location::Line(n) | Location::Index(n) => n.to_string(),
        Location::Seq(n) | Location::Rowid(n) => n.to_string(),
    };
    match at.sub {
        Some(i) => format!("call_line{line}_{i}"),
        None => format!("call_line{line}"),
    }
}

const NO_CALL_ID: &str = "tool call or output without `call_id`";
const NO_CALL_ID_WHAT: &str = "calls get the id `call_line<N>` (N: their line) and outputs are paired with the latest unanswered call of the same name";

impl Walk {
    /// Map one response item; false when it has no place in the common model.
    pub(super) fn item(&mut self, at: At, item: &Map) -> bool {
        let kind = classify(item);
        match kind {
            ItemKind::UserMessage { developer } => {
                if developer {
                    self.tally.note(
                        "`developer`/`system` message mapped to a user turn",
                        "instructions Codex sends to the model as developer input; OpenClaw has no developer role, so they are user turns here",
                        at.loc,
                    );
                }
                let parts = message_parts(item);
                let blocks = self.take_parts(parts, at.loc);
                if self.env_cwd.is_none() {
                    self.env_cwd = blocks
                        .iter()
                        .filter_map(|b| b.get("text").and_then(Value::as_str))
                        .find_map(environment_cwd)
                        .map(str::to_owned);
                }
                let message = json!({"role": "user", "content": blocks, "timestamp": at.ms});
                self.push(at, item, message);
            }
            ItemKind::AssistantMessage => {
                let (text, kept) = assistant_text(item);
                let kept = self.take_parts(kept, at.loc);
                let draft = self.draft(at, item);
                draft.blocks.push(text);
                draft.blocks.extend(kept);
            }
            ItemKind::Reasoning => {
                let block = thinking_block(item);
                self.draft(at, item).blocks.push(block);
            }
            ItemKind::FunctionCall | ItemKind::CustomToolCall | ItemKind::LocalShellCall => self.call(at, kind, item),
            ItemKind::Output => self.output(at, item),
            ItemKind::OtherRole(role) => {
                let kind = if role.is_empty() {
                    "`message` item without a role".to_owned()
                } else {
                    format!("`message` item with role `{role}`")
                };
                self.tally.note(
                    &kind,
                    "OpenClaw's message model has no such role; not mapped; kept as stored",
                    at.loc,
                );
                return false;
            }
            ItemKind::Unmapped(ty) => {
                let (kind, what) = unmapped(ty);
                self.tally.note(&kind, what, at.loc);
                return false;
            }
        }
        true
    }

    fn call(&mut self, at: At, kind: ItemKind<'_>, item: &Map) {
        let parts = call_parts(kind, item);
        let id = match parts.call_id {
            Some(cid) => tool_call_id(cid, parts.item_id),
            None => {
                self.tally.warn(NO_CALL_ID, NO_CALL_ID_WHAT, at.loc);
                line_call_id(at)
            }
        };
        let name = parts.name.unwrap_or_else(|| {
            self.tally
                .warn("tool call without a name", "mapped with the name \"\"", at.loc);
            ""
        });
        if parts.guessed {
            let (kind, what) = match kind {
                ItemKind::CustomToolCall => (
                    "`custom_tool_call` without a string `input`",
                    "mapped with the stored value (or \"\") as `input`",
                ),
                ItemKind::LocalShellCall => (
                    "`local_shell_call` without an `action` object",
                    "mapped with the arguments {}",
                ),
                _ => (
                    "tool call whose `arguments` are not a JSON object",
                    "the arguments are missing, not valid JSON, or not an object; mapped as {}",
                ),
            };
            self.tally.warn(kind, what, at.loc);
        }
        self.calls.add(parts.call_id, id.clone(), name);
        let block = tool_call_block(&id, name, parts.arguments);
        let draft = self.draft(at, item);
        draft.blocks.push(block);
        draft.tool_call = true;
    }

    fn output(&mut self, at: At, item: &Map) {
        let call_id = item.get("call_id").and_then(Value::as_str);
        let stored_name = item.get("name").and_then(Value::as_str);
        let (id, name) = match self.calls.answer(call_id, stored_name) {
            Pairing::ById(id, name) => (id, name),
            Pairing::ByName(id, name) => {
                self.tally.warn(NO_CALL_ID, NO_CALL_ID_WHAT, at.loc);
                (id, name)
            }
            Pairing::Orphan => {
                if call_id.is_none() {
                    self.tally.warn(NO_CALL_ID, NO_CALL_ID_WHAT, at.loc);
                }
                self.tally.warn(
                    "tool output for no earlier call",
                    "no earlier call has its `call_id` (or, without one, its name); kept with its own id",
                    at.loc,
                );
                let id = call_id.map_or_else(|| line_call_id(at), str::to_owned);
                (id, stored_name.unwrap_or_default().to_owned())
            }
        };
        let parts = match output_value(item) {
            Some(output) => output_parts(output),
            None => {
                self.tally
                    .warn("tool output without `output`", "mapped as one empty text block", at.loc);
                vec![Part::Block(json!({"type": "text", "text": ""}))]
            }
        };
        let content = self.take_parts(parts, at.loc);
        let message = json!({
            "role": "toolResult",
            "toolCallId": id,
            "toolName": name,
            "content": content,
            "isError": false,
            "timestamp": at.ms,
        });
        self.push(at, item, message);
    }

    /// The user turn a `compacted` line without `replacement_history` leaves: its summary.
    pub(super) fn summary_turn(&mut self, at: At, summary: &str) {
        let message = json!({"role": "user", "content": [{"type": "text", "text": summary}], "timestamp": at.ms});
        self.push(at, &Map::new(), message);
    }

    /// Blocks for the parts, noting the ones kept as stored.
    fn take_parts(&mut self, parts: Vec<Part>, at: Location) -> Vec<Value> {
        parts
            .into_iter()
            .map(|part| match part {
                Part::Block(block) => block,
                Part::Kept(stored, kind) => {
                    let what = if kind == IMAGE_WITHOUT_DATA {
                        "its `image_url` is an http(s) URL or missing, not inline base64; kept as the stored part, which OpenClaw does not send as an image"
                    } else {
                        "OpenClaw's message model has no such block; kept as stored inside the message"
                    };
                    self.tally.note(&kind, what, at);
                    stored
                }
            })
            .collect()
    }

    /// The open assistant turn, started at this item when there is none.
    fn draft(&mut self, at: At, item: &Map) -> &mut Draft {
        let model = &self.model;
        let draft = self.draft.get_or_insert_with(|| Draft {
            entry_id: None,
            sources: Vec::new(),
            blocks: Vec::new(),
            ms: at.ms,
            model: model.clone().unwrap_or_else(|| "unknown".to_owned()),
            tool_call: false,
        });
        if draft.entry_id.is_none() {
            draft.entry_id = item.get("id").and_then(Value::as_str).map(str::to_owned);
        }
        if draft.sources.last() != Some(&at.loc) {
            draft.sources.push(at.loc);
        }
        draft
    }

    /// Close the open assistant turn into a message.
    pub(super) fn flush(&mut self) {
        let Some(d) = self.draft.take() else { return };
        let provider = self.provider.as_deref().unwrap_or("openai");
        let message = json!({
            "role": "assistant",
            "content": d.blocks,
            "api": API,
            "provider": provider,
            "model": d.model,
            "usage": zero_usage(),
            "stopReason": if d.tool_call { "toolUse" } else { "stop" },
            "timestamp": d.ms,
        });
        self.messages.push(MappedMessage {
            entry_id: d.entry_id.map(Into::into),
            sources: d.sources,
            message: Message::from_value(message).unwrap_or_default(),
        });
    }

    /// Append a user-side message (closing the open assistant turn first).
    fn push(&mut self, at: At, item: &Map, message: Value) {
        self.flush();
        self.messages.push(MappedMessage {
            entry_id: item.get("id").and_then(Value::as_str).map(Into::into),
            sources: vec![at.loc],
            message: Message::from_value(message).unwrap_or_default(),
        });
    }
}

/// The note kind and sentence for an item with no place in the common model.
fn unmapped(ty: &str) -> (String, &'static str) {
    let what = match ty {
        "web_search_call" => {
            "a web search the Responses API ran server-side; OpenClaw's message model has no place for it; kept as stored"
        }
        "image_generation_call" => {
            "an image generation the Responses API ran server-side; OpenClaw's message model has no place for it; kept as stored"
        }
        "tool_search_call" | "tool_search_output" => {
            "a tool-search lookup; OpenClaw's message model has no place for it; kept as stored"
        }
        "ghost_snapshot" => "an undo snapshot Codex never sends to the model; kept as stored",
        "compaction" | "compaction_summary" => {
            "an encrypted compaction summary only the Responses API can read; OpenClaw cannot replay it; kept as stored"
        }
        "context_compaction" => "a context-compaction marker; not mapped; kept as stored",
        "agent_message" => {
            "a message between Codex agents; OpenClaw's message model has no place for it; kept as stored"
        }
        _ => "an item type OpenClaw's message model has no place for; not mapped; kept as stored",
    };
    let kind = if ty.is_empty() {
        "untyped item".to_owned()
    } else {
        format!("`{ty}` item")
    };
    (kind, what)
}
