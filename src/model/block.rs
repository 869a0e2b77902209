//! Content blocks: a typed view over the raw JSON object of each block.
//!
//! Blocks are kept as the JSON objects they were stored as, so unknown block types and
//! unknown fields survive every pass untouched. [`BlockKind`] classifies a block by its
//! `type`, including the legacy tool-call spellings OpenClaw's `sanitizeToolCallInputs` accepts.

use crate::model::json::{Map, Value};

/// How a tool-call block spells its `type` (OpenClaw's six spellings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolCallSpelling {
    /// `toolCall`, the canonical pi-ai / OpenClaw spelling.
    ToolCall,
    /// `toolUse` (canonical set).
    ToolUse,
    /// `functionCall` (canonical set).
    FunctionCall,
    /// `tool_call` (extended set: input validation only).
    SnakeToolCall,
    /// `tool_use` (extended set: input validation only).
    SnakeToolUse,
    /// `function_call` (extended set: input validation only).
    SnakeFunctionCall,
}

impl ToolCallSpelling {
    /// Whether pairing repair and id rewriting recognise this spelling (the canonical three).
    pub fn is_canonical(self) -> bool {
        matches!(self, Self::ToolCall | Self::ToolUse | Self::FunctionCall)
    }

    /// The `type` string of this spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ToolCall => "toolCall",
            Self::ToolUse => "toolUse",
            Self::FunctionCall => "functionCall",
            Self::SnakeToolCall => "tool_call",
            Self::SnakeToolUse => "tool_use",
            Self::SnakeFunctionCall => "function_call",
        }
    }
}

/// The kind of a content block, read from its `type` field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockKind<'a> {
    /// `{type:"text", text, textSignature?}`
    Text,
    /// `{type:"thinking", thinking, thinkingSignature?|signature?, redacted?}`
    Thinking,
    /// `{type:"redacted_thinking", data}`
    RedactedThinking,
    /// A tool call in any of the six spellings.
    ToolCall(ToolCallSpelling),
    /// `{type:"image", data, mimeType}`
    Image,
    /// Any other `type` string, passed through unchanged.
    Other(&'a str),
    /// The block has no string `type` (or is not an object).
    Untyped,
}

impl<'a> BlockKind<'a> {
    /// Classify a block value.
    pub fn of(block: &'a Value) -> Self {
        match block.get("type").and_then(Value::as_str) {
            Some(t) => Self::from_type(t),
            None => Self::Untyped,
        }
    }

    /// Classify a `type` string.
    pub fn from_type(t: &'a str) -> Self {
        match t {
            "text" => Self::Text,
            "thinking" => Self::Thinking,
            "redacted_thinking" => Self::RedactedThinking,
            "toolCall" => Self::ToolCall(ToolCallSpelling::ToolCall),
            "toolUse" => Self::ToolCall(ToolCallSpelling::ToolUse),
            "functionCall" => Self::ToolCall(ToolCallSpelling::FunctionCall),
            "tool_call" => Self::ToolCall(ToolCallSpelling::SnakeToolCall),
            "tool_use" => Self::ToolCall(ToolCallSpelling::SnakeToolUse),
            "function_call" => Self::ToolCall(ToolCallSpelling::SnakeFunctionCall),
            "image" => Self::Image,
            other => Self::Other(other),
        }
    }

    /// True for `thinking` and `redacted_thinking` blocks (a "thinking-like" block).
    pub fn is_thinking_like(self) -> bool {
        matches!(self, Self::Thinking | Self::RedactedThinking)
    }

    /// True for a tool call in one of the canonical spellings.
    pub fn is_canonical_tool_call(self) -> bool {
        matches!(self, Self::ToolCall(s) if s.is_canonical())
    }
}

/// A read-only typed view of one content block.
#[derive(Debug, Clone, Copy)]
pub struct Block<'a> {
    raw: &'a Value,
}

impl<'a> Block<'a> {
    /// Wrap a raw block value.
    pub fn new(raw: &'a Value) -> Self {
        Self { raw }
    }

    /// The raw JSON of the block, exactly as stored.
    pub fn raw(&self) -> &'a Value {
        self.raw
    }

    /// The raw object, when the block is an object.
    pub fn object(&self) -> Option<&'a Map> {
        self.raw.as_object()
    }

    /// The block's kind.
    pub fn kind(&self) -> BlockKind<'a> {
        BlockKind::of(self.raw)
    }

    /// A string field of the block.
    pub fn str_field(&self, key: &str) -> Option<&'a str> {
        self.raw.get(key).and_then(Value::as_str)
    }

    /// The text of a `text` block.
    pub fn text(&self) -> Option<&'a str> {
        self.str_field("text")
    }

    /// The reasoning text of a `thinking` block.
    pub fn thinking(&self) -> Option<&'a str> {
        self.str_field("thinking")
    }

    /// The replay signature of a thinking block: `thinkingSignature` (pi-ai) or `signature`
    /// (raw Anthropic shape).
    pub fn thinking_signature(&self) -> Option<&'a Value> {
        self.raw.get("thinkingSignature").or_else(|| self.raw.get("signature"))
    }

    /// Whether a `thinking` block is marked `redacted:true`.
    pub fn is_redacted(&self) -> bool {
        self.raw.get("redacted").and_then(Value::as_bool) == Some(true)
    }

    /// The `id` of a tool call (only `id`; alias fields are read by the rules that need them).
    pub fn tool_call_id(&self) -> Option<&'a str> {
        self.str_field("id")
    }

    /// The `name` of a tool call.
    pub fn tool_call_name(&self) -> Option<&'a str> {
        self.str_field("name")
    }

    /// The tool-call payload: `arguments`, else `input`.
    pub fn tool_call_arguments(&self) -> Option<&'a Value> {
        self.raw.get("arguments").or_else(|| self.raw.get("input"))
    }

    /// The base64 payload of an `image` block.
    pub fn image_data(&self) -> Option<&'a str> {
        self.str_field("data")
    }

    /// The MIME type of an `image` block.
    pub fn image_mime_type(&self) -> Option<&'a str> {
        self.str_field("mimeType")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn classifies_every_spelling() {
        for (t, canonical) in [
            ("toolCall", true),
            ("toolUse", true),
            ("functionCall", true),
            ("tool_call", false),
            ("tool_use", false),
            ("function_call", false),
        ] {
            let v = json!({"type": t});
            match BlockKind::of(&v) {
                BlockKind::ToolCall(s) => {
                    assert_eq!(s.is_canonical(), canonical, "{t}");
                    assert_eq!(s.as_str(), t);
                }
                other => panic!("{t} classified as {other:?}"),
            }
        }
        assert_eq!(
            BlockKind::of(&json!({"type": "server_tool_use"})),
            BlockKind::Other("server_tool_use")
        );
        assert_eq!(BlockKind::of(&json!({"text": "x"})), BlockKind::Untyped);
        assert_eq!(BlockKind::of(&json!("text")), BlockKind::Untyped);
        assert!(BlockKind::of(&json!({"type": "redacted_thinking"})).is_thinking_like());
    }

    #[test]
    fn reads_both_signature_spellings_and_input_payloads() {
        let pi = json!({"type": "thinking", "thinking": "t", "thinkingSignature": "abc"});
        let raw = json!({"type": "thinking", "thinking": "t", "signature": "xyz"});
        assert_eq!(Block::new(&pi).thinking_signature(), Some(&json!("abc")));
        assert_eq!(Block::new(&raw).thinking_signature(), Some(&json!("xyz")));
        let call = json!({"type": "toolUse", "id": "toolu_1", "name": "read", "input": {"p": 1}});
        assert_eq!(Block::new(&call).tool_call_arguments(), Some(&json!({"p": 1})));
        assert_eq!(Block::new(&call).tool_call_id(), Some("toolu_1"));
    }
}
