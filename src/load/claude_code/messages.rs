//! Claude Code conversation lines → OpenClaw `AgentMessage`s: one assistant message per
//! API response (Claude Code writes one line per content block), one `toolResult` per
//! `tool_result` block, and user turns with the remaining blocks.

use std::collections::HashMap;

use crate::json;
use crate::model::json::{Map, Value};

use super::blocks::{Mapped as MappedBlock, map_block, tool_result_content};
use crate::load::note_tally::NoteTally;
use crate::model::time::iso_to_ms;
use crate::model::{Entry, Location, MappedMessage, Message};

/// What a block with no place in the common model is said to be in the notes.
const KEPT_BLOCK: &str = "OpenClaw's message model has no such block; kept as stored inside the message";

/// Builds the mapped messages of one branch.
pub(super) struct Builder<'a> {
    /// The messages so far.
    pub messages: Vec<MappedMessage>,
    /// Notes on what was kept but not mapped.
    pub notes: NoteTally,
    /// Tool names by tool-call id, from every assistant line of the file.
    tool_names: HashMap<&'a str, &'a str>,
    /// The last assistant message while later lines may still add to it.
    open_response: Option<OpenResponse<'a>>,
    /// Drift layout: top-level `tool_use` lines not yet answered, by tool name.
    open_drift_calls: Vec<(String, String)>,
}

/// The assistant message that lines with the same Anthropic `message.id` merge into: its
/// blocks indexed by a hash that agrees with [`Value`] equality, so merging n lines is linear
/// (a response of 30,000 lines took 16 s when each block was compared with every other).
struct OpenResponse<'a> {
    /// The `message.id`.
    id: &'a str,
    /// Positions in the message's content, by [`block_hash`].
    blocks: HashMap<u64, Vec<usize>>,
    /// Whether the content holds a tool call.
    has_call: bool,
}

impl<'a> OpenResponse<'a> {
    fn new(id: &'a str, content: &[Value]) -> Self {
        let mut open = Self {
            id,
            blocks: HashMap::new(),
            has_call: false,
        };
        for (at, b) in content.iter().enumerate() {
            open.index(b, at);
        }
        open
    }

    fn index(&mut self, b: &Value, at: usize) {
        self.has_call |= is_tool_call(b);
        self.blocks.entry(block_hash(b)).or_default().push(at);
    }

    /// Add `b` to `content` unless an equal block is there.
    fn add(&mut self, content: &mut crate::model::json::Array, b: Value) {
        let hash = block_hash(&b);
        if let Some(same) = self.blocks.get(&hash)
            && same.iter().any(|&at| {
                #[cfg(test)]
                COMPARED.with(|c| c.set(c.get() + 1));
                content[at] == b
            })
        {
            return;
        }
        self.has_call |= is_tool_call(&b);
        self.blocks.entry(hash).or_default().push(content.len());
        content.push(b);
    }
}

#[cfg(test)]
thread_local! {
    /// Blocks compared for equality while merging, on this thread (tests count the work).
    pub(super) static COMPARED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn is_tool_call(b: &Value) -> bool {
    b.get("type").and_then(Value::as_str) == Some("toolCall")
}

/// A hash of a block that equal blocks share: objects hash their entries in any order (as
/// their equality ignores key order). Below 32 levels everything hashes alike, which keeps
/// equal values equal and the walk bounded on hostile nesting.
fn block_hash(v: &Value) -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    fn walk(v: &Value, depth: usize, h: &mut impl Hasher) {
        if depth > 32 {
            return;
        }
        match v {
            Value::Null => 0u8.hash(h),
            Value::Bool(b) => (1u8, b).hash(h),
            Value::Number(n) => (2u8, n).hash(h),
            Value::String(s) => (3u8, s.as_str()).hash(h),
            Value::Array(items) => {
                (4u8, items.len()).hash(h);
                for item in items.iter() {
                    walk(item, depth + 1, h);
                }
            }
            Value::Object(map) => {
                let entries = map.iter().fold(0u64, |acc, (k, v)| {
                    let mut e = foldhash::fast::FixedState::default().build_hasher();
                    k.as_str().hash(&mut e);
                    walk(v, depth + 1, &mut e);
                    acc.wrapping_add(e.finish())
                });
                (5u8, map.len(), entries).hash(h);
            }
        }
    }
    let mut h = foldhash::fast::FixedState::default().build_hasher();
    walk(v, 0, &mut h);
    h.finish()
}

fn ms(e: &Entry) -> Option<Value> {
    e.timestamp().and_then(iso_to_ms).map(|ms| json!(ms as i64))
}

fn api_message(e: &Entry) -> Option<&Map> {
    e.raw.get("message").and_then(Value::as_object)
}

/// `stop_reason` → OpenClaw's `stopReason`.
fn stop_reason(reason: Option<&str>, has_tool_call: bool) -> &'static str {
    match reason {
        Some("tool_use") => "toolUse",
        Some("max_tokens" | "model_context_window_exceeded") => "length",
        Some("refusal") => "error",
        Some(_) => "stop",
        None if has_tool_call => "toolUse",
        None => "stop",
    }
}

/// Anthropic `usage` → OpenClaw's usage object (tokens only; cost is not stored).
fn usage(raw: Option<&Value>) -> Value {
    let n = |k: &str| raw.and_then(|u| u.get(k)).and_then(Value::as_u64).unwrap_or(0);
    let (input, output) = (n("input_tokens"), n("output_tokens"));
    let (read, write) = (n("cache_read_input_tokens"), n("cache_creation_input_tokens"));
    json!({
        "input": input,
        "output": output,
        "cacheRead": read,
        "cacheWrite": write,
        "totalTokens": input + output + read + write,
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
    })
}

impl<'a> Builder<'a> {
    /// A builder that knows every tool call's name in the file.
    pub fn new(entries: &'a [Entry]) -> Self {
        let mut tool_names = HashMap::new();
        for e in entries {
            let blocks = api_message(e).and_then(|m| m.get("content")).and_then(Value::as_array);
            for b in blocks.into_iter().flatten() {
                if b.get("type").and_then(Value::as_str) == Some("tool_use")
                    && let (Some(id), Some(name)) = (
                        b.get("id").and_then(Value::as_str),
                        b.get("name").and_then(Value::as_str),
                    )
                {
                    tool_names.insert(id, name);
                }
            }
        }
        Self {
            messages: Vec::new(),
            notes: NoteTally::default(),
            tool_names,
            open_response: None,
            open_drift_calls: Vec::new(),
        }
    }

    /// Map one conversation line.
    pub fn push(&mut self, e: &'a Entry) {
        match e.type_str() {
            Some("assistant") => self.assistant(e),
            Some("user") => self.user(e),
            Some("tool_use") => self.drift_tool_use(e),
            Some("tool_result") => self.drift_tool_result(e),
            _ => {}
        }
    }

    fn emit(&mut self, e: &Entry, message: Map) {
        self.open_response = None;
        self.messages.push(MappedMessage {
            entry_id: e.str_field("uuid").map(Into::into),
            sources: vec![e.location],
            message: Message::from_map(message),
        });
    }

    fn blocks(&mut self, content: Option<&Value>, location: Location) -> Vec<Value> {
        match content {
            Some(Value::String(text)) => vec![json!({"type": "text", "text": text})],
            Some(Value::Array(items)) => items.iter().map(|b| self.block(b, location)).collect(),
            _ => Vec::new(),
        }
    }

    fn block(&mut self, b: &Value, location: Location) -> Value {
        match map_block(b) {
            MappedBlock::Block(v) => v,
            MappedBlock::Kept(v, kind) => {
                self.notes.note(&kind, KEPT_BLOCK, location);
                v
            }
        }
    }

    fn assistant(&mut self, e: &'a Entry) {
        let Some(api) = api_message(e) else { return };
        let response_id = api.get("id").and_then(Value::as_str);
        let blocks = self.blocks(api.get("content"), e.location);
        if let (Some(id), Some(open)) = (response_id, self.open_response.as_mut())
            && id == open.id
            && let Some(last) = self.messages.last_mut()
        {
            let map = last.message.as_map_mut();
            if let Some(Value::Array(content)) = map.get_mut("content") {
                for b in blocks {
                    open.add(content, b);
                }
            }
            let has_call = open.has_call;
            if let Some(reason) = api.get("stop_reason").and_then(Value::as_str) {
                map.insert("stopReason".into(), json!(stop_reason(Some(reason), has_call)));
            } else if has_call {
                map.insert("stopReason".into(), json!("toolUse"));
            }
            if api.get("usage").is_some() {
                map.insert("usage".into(), usage(api.get("usage")));
            }
            last.sources.push(e.location);
            return;
        }
        let has_call = blocks
            .iter()
            .any(|b| b.get("type").and_then(Value::as_str) == Some("toolCall"));
        let model = api.get("model").and_then(Value::as_str);
        let failed = e.raw.get("isApiErrorMessage").and_then(Value::as_bool) == Some(true);
        let mut m = Map::new();
        m.insert("role".into(), json!("assistant"));
        let error_text: String = blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n");
        m.insert("content".into(), Value::Array(blocks.into()));
        m.insert("api".into(), json!("anthropic-messages"));
        m.insert("provider".into(), json!("anthropic"));
        m.insert("model".into(), json!(model.unwrap_or("unknown")));
        if let Some(id) = response_id {
            m.insert("responseId".into(), json!(id));
        }
        m.insert("usage".into(), usage(api.get("usage")));
        let reason = if failed {
            "error"
        } else {
            stop_reason(api.get("stop_reason").and_then(Value::as_str), has_call)
        };
        m.insert("stopReason".into(), json!(reason));
        if failed {
            m.insert("errorMessage".into(), json!(error_text));
        }
        if let Some(ts) = ms(e) {
            m.insert("timestamp".into(), ts);
        }
        self.emit(e, m);
        self.open_response = response_id.map(|id| {
            let content = self.messages.last().and_then(|m| m.message.as_map().get("content"));
            OpenResponse::new(id, content.and_then(Value::as_array).map_or(&[], |c| c.as_slice()))
        });
    }

    fn user(&mut self, e: &'a Entry) {
        let Some(api) = api_message(e) else { return };
        let content = match api.get("content") {
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.emit(e, user_message(other.clone(), e));
                return;
            }
            None => {
                self.emit(e, user_message(json!(""), e));
                return;
            }
        };
        let mut pending: Vec<Value> = Vec::new();
        for b in content {
            if b.get("type").and_then(Value::as_str) != Some("tool_result") {
                let mapped = self.block(b, e.location);
                pending.push(mapped);
                continue;
            }
            if !pending.is_empty() {
                self.emit(e, user_message(Value::Array(std::mem::take(&mut pending).into()), e));
            }
            let id = b.get("tool_use_id").and_then(Value::as_str).unwrap_or_default();
            let (blocks, kept) = tool_result_content(b.get("content"));
            for k in kept {
                self.notes.note(&k, KEPT_BLOCK, e.location);
            }
            let name = self.tool_names.get(id).copied().unwrap_or_default();
            let is_error = b.get("is_error").and_then(Value::as_bool).unwrap_or(false);
            self.emit(e, tool_result(id, name, blocks, is_error, e));
        }
        if !pending.is_empty() {
            self.emit(e, user_message(Value::Array(pending.into()), e));
        }
    }

    /// An `attachment` line Claude Code sends to the model, as a user message with `content`.
    pub fn attachment(&mut self, e: &'a Entry, content: Vec<Value>) {
        self.emit(e, user_message(Value::Array(content.into()), e));
    }

    /// Drift layout: a top-level `{type:"tool_use", name, input}` line.
    fn drift_tool_use(&mut self, e: &'a Entry) {
        let name = e.str_field("name").unwrap_or_default().to_owned();
        let id = e
            .str_field("id")
            .or_else(|| e.str_field("uuid"))
            .map_or_else(|| format!("toolu_{}", e.location).replace(' ', "_"), str::to_owned);
        self.open_drift_calls.push((name.clone(), id.clone()));
        let mut m = Map::new();
        m.insert("role".into(), json!("assistant"));
        m.insert(
            "content".into(),
            json!([{"type": "toolCall", "id": id, "name": name, "arguments": e.raw.get("input").cloned().unwrap_or_else(|| json!({}))}]),
        );
        m.insert("api".into(), json!("anthropic-messages"));
        m.insert("provider".into(), json!("anthropic"));
        m.insert("model".into(), json!("unknown"));
        m.insert("usage".into(), usage(None));
        m.insert("stopReason".into(), json!("toolUse"));
        if let Some(ts) = ms(e) {
            m.insert("timestamp".into(), ts);
        }
        self.emit(e, m);
    }

    /// Drift layout: a top-level `{type:"tool_result", name, output}` line, paired with the
    /// latest unanswered call of the same name.
    fn drift_tool_result(&mut self, e: &'a Entry) {
        let name = e.str_field("name").unwrap_or_default().to_owned();
        let id = match self.open_drift_calls.iter().rposition(|(n, _)| *n == name) {
            Some(i) => self.open_drift_calls.remove(i).1,
            None => e.str_field("tool_use_id").unwrap_or_default().to_owned(),
        };
        let output = e.raw.get("output").or_else(|| e.raw.get("content"));
        let (blocks, _) = tool_result_content(output);
        let is_error = e.raw.get("is_error").and_then(Value::as_bool).unwrap_or(false);
        self.emit(e, tool_result(&id, &name, blocks, is_error, e));
    }
}

fn user_message(content: Value, e: &Entry) -> Map {
    let mut m = Map::new();
    m.insert("role".into(), json!("user"));
    m.insert("content".into(), content);
    if let Some(ts) = ms(e) {
        m.insert("timestamp".into(), ts);
    }
    m
}

fn tool_result(id: &str, name: &str, content: Vec<Value>, is_error: bool, e: &Entry) -> Map {
    let mut m = Map::new();
    m.insert("role".into(), json!("toolResult"));
    m.insert("toolCallId".into(), json!(id));
    m.insert("toolName".into(), json!(name));
    m.insert("content".into(), Value::Array(content.into()));
    m.insert("isError".into(), json!(is_error));
    if let Some(ts) = ms(e) {
        m.insert("timestamp".into(), ts);
    }
    m
}
