//! Messages: the raw stored JSON object of each message, with typed accessors.
//!
//! A [`Message`] owns the message object exactly as it was stored (key order kept), so
//! that every unknown field, block type and custom role survives load → replay → export.
//! Rules read it through the typed accessors below and change it only through the
//! mutation helpers, which touch nothing but the field they name.

use crate::model::json::{Array, Map, Value};
use ref_cast::RefCast;
use serde::{Deserialize, Serialize};

use super::block::{Block, BlockKind};

/// The role of a message. Custom roles are passed through by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role<'a> {
    /// `user`
    User,
    /// `assistant`
    Assistant,
    /// `toolResult`
    ToolResult,
    /// `compactionSummary` (built from a `compaction` entry)
    CompactionSummary,
    /// Any other role string (`custom`, `bashExecution`, `branchSummary`, `system`, …).
    Other(&'a str),
    /// The message has no string `role`.
    Missing,
}

impl<'a> Role<'a> {
    /// Parse a role string.
    pub fn parse(role: &'a str) -> Self {
        match role {
            "user" => Self::User,
            "assistant" => Self::Assistant,
            "toolResult" => Self::ToolResult,
            "compactionSummary" => Self::CompactionSummary,
            other => Self::Other(other),
        }
    }

    /// The role as written in the transcript.
    pub fn as_str(&self) -> &'a str {
        match self {
            Self::User => "user",
            Self::Assistant => "assistant",
            Self::ToolResult => "toolResult",
            Self::CompactionSummary => "compactionSummary",
            Self::Other(s) => s,
            Self::Missing => "",
        }
    }
}

/// The stop reason of an assistant turn (`stop|length|toolUse|error|aborted`, others kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason<'a> {
    /// `stop`
    Stop,
    /// `length`: cut off by the output limit.
    Length,
    /// `toolUse`
    ToolUse,
    /// `error`
    Error,
    /// `aborted`
    Aborted,
    /// Any other string (e.g. `endTurn` in some fixtures).
    Other(&'a str),
}

impl<'a> StopReason<'a> {
    /// Parse a stop reason string.
    pub fn parse(s: &'a str) -> Self {
        match s {
            "stop" => Self::Stop,
            "length" => Self::Length,
            "toolUse" => Self::ToolUse,
            "error" => Self::Error,
            "aborted" => Self::Aborted,
            other => Self::Other(other),
        }
    }

    /// True for `error` and `aborted` (a failed turn).
    pub fn is_failure(self) -> bool {
        matches!(self, Self::Error | Self::Aborted)
    }
}

/// One message, kept as the JSON object it was stored as.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, RefCast)]
#[serde(transparent)]
#[repr(transparent)]
pub struct Message(Map);

impl Message {
    /// View a borrowed raw object as a message without copying it.
    pub fn from_map_ref(map: &Map) -> &Self {
        Self::ref_cast(map)
    }

    /// View a borrowed raw value as a message; `None` when it is not an object.
    pub fn from_value_ref(value: &Value) -> Option<&Self> {
        value.as_object().map(Self::ref_cast)
    }

    /// Wrap a raw message object.
    pub fn from_map(map: Map) -> Self {
        Self(map)
    }

    /// Wrap a raw JSON value; `None` when it is not an object.
    pub fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Object(map) => Some(Self(map)),
            _ => None,
        }
    }

    /// The raw object, exactly as stored (plus whatever rules changed).
    pub fn as_map(&self) -> &Map {
        &self.0
    }

    /// Mutable access to the raw object.
    pub fn as_map_mut(&mut self) -> &mut Map {
        &mut self.0
    }

    /// Consume into the raw object.
    pub fn into_map(self) -> Map {
        self.0
    }

    /// A field of the message.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    /// A string field of the message.
    pub fn str_field(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(Value::as_str)
    }

    /// The message role.
    pub fn role(&self) -> Role<'_> {
        match self.str_field("role") {
            Some(r) => Role::parse(r),
            None => Role::Missing,
        }
    }

    /// Whether this is an assistant message.
    pub fn is_assistant(&self) -> bool {
        self.role() == Role::Assistant
    }

    /// Whether this is a user message.
    pub fn is_user(&self) -> bool {
        self.role() == Role::User
    }

    /// Whether this is a tool-result message.
    pub fn is_tool_result(&self) -> bool {
        self.role() == Role::ToolResult
    }

    /// The raw `content` value (string, array of blocks, or anything else that was stored).
    pub fn content(&self) -> Option<&Value> {
        self.0.get("content")
    }

    /// The content as a string, when it is stored as a plain string.
    pub fn content_str(&self) -> Option<&str> {
        self.content().and_then(Value::as_str)
    }

    /// The content blocks, when content is an array (empty otherwise).
    pub fn blocks(&self) -> impl Iterator<Item = Block<'_>> {
        self.content()
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(Block::new)
    }

    /// Number of content blocks (0 when content is a string or missing).
    pub fn block_count(&self) -> usize {
        self.content().and_then(Value::as_array).map_or(0, |a| a.len())
    }

    /// The tool-call blocks in any spelling.
    pub fn tool_calls(&self) -> impl Iterator<Item = Block<'_>> {
        self.blocks().filter(|b| matches!(b.kind(), BlockKind::ToolCall(_)))
    }

    /// The concatenated text of all `text` blocks (or the string content).
    pub fn text(&self) -> String {
        if let Some(s) = self.content_str() {
            return s.to_owned();
        }
        let mut out = String::new();
        for b in self.blocks() {
            if let (BlockKind::Text, Some(t)) = (b.kind(), b.text()) {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(t);
            }
        }
        out
    }

    /// The assistant stop reason.
    pub fn stop_reason(&self) -> Option<StopReason<'_>> {
        self.str_field("stopReason").map(StopReason::parse)
    }

    /// The assistant `provider`.
    pub fn provider(&self) -> Option<&str> {
        self.str_field("provider")
    }

    /// The assistant `api` (modelApi).
    pub fn api(&self) -> Option<&str> {
        self.str_field("api")
    }

    /// The assistant `model`.
    pub fn model(&self) -> Option<&str> {
        self.str_field("model")
    }

    /// The `usage` object.
    pub fn usage(&self) -> Option<&Map> {
        self.0.get("usage").and_then(Value::as_object)
    }

    /// The `errorMessage` of a failed assistant turn.
    pub fn error_message(&self) -> Option<&str> {
        self.str_field("errorMessage")
    }

    /// The tool-result `toolCallId`.
    pub fn tool_call_id(&self) -> Option<&str> {
        self.str_field("toolCallId")
    }

    /// The tool-result `toolName`.
    pub fn tool_name(&self) -> Option<&str> {
        self.str_field("toolName")
    }

    /// The tool-result `isError` flag (truthy per JavaScript rules for booleans only).
    pub fn is_error(&self) -> bool {
        self.0.get("isError").and_then(Value::as_bool) == Some(true)
    }

    /// The message `timestamp` in Unix milliseconds, when it is a number.
    pub fn timestamp_ms(&self) -> Option<f64> {
        self.0.get("timestamp").and_then(Value::as_f64)
    }

    /// The user-turn `provenance` object (inter-session messages).
    pub fn provenance(&self) -> Option<&Value> {
        self.0.get("provenance")
    }

    /// Set a field, keeping the position of an existing key.
    pub fn set(&mut self, key: &str, value: Value) {
        self.0.insert(key.to_owned().into(), value);
    }

    /// Remove a field, keeping the order of the others.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.0.shift_remove(key)
    }

    /// The content blocks as raw values, when content is an array.
    pub fn content_array(&self) -> Option<&Array> {
        self.content().and_then(Value::as_array)
    }

    /// Replace the content with an array of blocks, keeping the field's position.
    pub fn set_content(&mut self, blocks: impl Into<Array>) {
        self.set("content", Value::Array(blocks.into()));
    }

    /// The mutable `content` value, when present.
    pub fn content_mut(&mut self) -> Option<&mut Value> {
        self.0.get_mut("content")
    }

    /// Mutable content blocks, when content is an array.
    pub fn blocks_mut(&mut self) -> Option<&mut Array> {
        self.0.get_mut("content").and_then(Value::as_array_mut)
    }
}

impl From<Map> for Message {
    fn from(map: Map) -> Self {
        Self(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn msg(v: Value) -> Message {
        Message::from_value(v).expect("object")
    }

    #[test]
    fn typed_view_over_raw_fields() {
        let m = msg(json!({
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "plan", "thinkingSignature": "sig"},
                {"type": "text", "text": "hello"},
                {"type": "toolCall", "id": "call_1", "name": "read", "arguments": {}},
                {"type": "future_block", "x": 1}
            ],
            "stopReason": "toolUse",
            "provider": "anthropic",
            "api": "anthropic-messages",
            "model": "claude-sonnet-4-6",
            "usage": {"input": 1, "output": 2},
            "someFutureField": {"nested": true}
        }));
        assert_eq!(m.role(), Role::Assistant);
        assert_eq!(m.stop_reason(), Some(StopReason::ToolUse));
        assert_eq!(m.block_count(), 4);
        assert_eq!(m.tool_calls().count(), 1);
        assert_eq!(m.text(), "hello");
        assert_eq!(m.blocks().nth(3).unwrap().kind(), BlockKind::Other("future_block"));
        assert_eq!(m.usage().unwrap()["output"], json!(2));
    }

    #[test]
    fn custom_roles_and_unknown_fields_round_trip_in_order() {
        let text = r#"{"zeta":1,"role":"bashExecution","command":"ls","alpha":[1,2.5,"x"],"exitCode":0}"#;
        let m: Message = serde_json::from_str(text).unwrap();
        assert_eq!(m.role(), Role::Other("bashExecution"));
        assert_eq!(serde_json::to_string(&m).unwrap(), text);
    }

    #[test]
    fn remove_keeps_order() {
        let mut m: Message = serde_json::from_str(r#"{"a":1,"b":2,"c":3}"#).unwrap();
        m.remove("b");
        assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"a":1,"c":3}"#);
    }

    #[test]
    fn string_content_reads_as_text() {
        let m = msg(json!({"role": "user", "content": "hi"}));
        assert_eq!(m.text(), "hi");
        assert_eq!(m.block_count(), 0);
        assert_eq!(msg(json!({"content": 1})).role(), Role::Missing);
    }
}
