//! Anthropic content blocks as Claude Code stores them → OpenClaw's block shapes.

use crate::json;
use crate::model::json::{Map, Value};

/// A block mapped into the common model, or kept as stored when it has no place there.
pub(super) enum Mapped {
    /// The block in OpenClaw's shape.
    Block(Value),
    /// Kept unchanged; the string names its type for the notes.
    Kept(Value, String),
}

fn kind(block: &Value) -> String {
    match block.get("type").and_then(Value::as_str) {
        Some(t) => format!("`{t}` block"),
        None => "untyped block".to_owned(),
    }
}

/// Map one assistant or user content block (not `tool_result`: see [`tool_result_content`]).
pub(super) fn map_block(block: &Value) -> Mapped {
    let Some(obj) = block.as_object() else {
        return Mapped::Kept(block.clone(), "non-object block".to_owned());
    };
    let field = |k: &str| obj.get(k).cloned();
    match obj.get("type").and_then(Value::as_str) {
        Some("text") => Mapped::Block(block.clone()),
        Some("thinking") => {
            let mut out = Map::new();
            out.insert("type".into(), json!("thinking"));
            out.insert("thinking".into(), field("thinking").unwrap_or(json!("")));
            if let Some(sig) = field("signature") {
                out.insert("thinkingSignature".into(), sig);
            }
            Mapped::Block(Value::Object(out))
        }
        Some("redacted_thinking") => Mapped::Block(json!({
            "type": "thinking",
            "thinking": "[Reasoning redacted]",
            "thinkingSignature": field("data").unwrap_or(Value::Null),
            "redacted": true,
        })),
        Some("tool_use") => {
            let mut out = Map::new();
            out.insert("type".into(), json!("toolCall"));
            out.insert("id".into(), field("id").unwrap_or(json!("")));
            out.insert("name".into(), field("name").unwrap_or(json!("")));
            out.insert("arguments".into(), field("input").unwrap_or_else(|| json!({})));
            Mapped::Block(Value::Object(out))
        }
        Some("image") => match image(obj) {
            Some(b) => Mapped::Block(b),
            None => Mapped::Kept(block.clone(), "`image` block without base64 data".to_owned()),
        },
        _ => Mapped::Kept(block.clone(), kind(block)),
    }
}

/// `{type:"image", source:{type:"base64", media_type, data}}` → `{type:"image", data, mimeType}`.
fn image(obj: &Map) -> Option<Value> {
    let source = obj.get("source")?.as_object()?;
    if source.get("type").and_then(Value::as_str) != Some("base64") {
        return None;
    }
    Some(json!({
        "type": "image",
        "data": source.get("data")?.clone(),
        "mimeType": source.get("media_type").cloned().unwrap_or(Value::Null),
    }))
}

/// The content of a `tool_result` block as OpenClaw's tool-result content blocks; kept
/// blocks are returned with their kinds for the notes.
pub(super) fn tool_result_content(content: Option<&Value>) -> (Vec<Value>, Vec<String>) {
    let mut kept = Vec::new();
    let blocks = match content {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(text)) => vec![json!({"type": "text", "text": text})],
        Some(Value::Array(items)) => items
            .iter()
            .map(|b| match map_block(b) {
                Mapped::Block(v) => v,
                Mapped::Kept(v, k) => {
                    kept.push(k);
                    v
                }
            })
            .collect(),
        Some(other) => vec![json!({"type": "text", "text": other.to_string()})],
    };
    (blocks, kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(v: Value) -> Value {
        match map_block(&v) {
            Mapped::Block(b) => b,
            Mapped::Kept(_, k) => panic!("kept {k}"),
        }
    }

    #[test]
    fn anthropic_blocks_become_openclaw_blocks() {
        assert_eq!(
            block(json!({"type":"thinking","thinking":"t","signature":"EpYB"})),
            json!({"type":"thinking","thinking":"t","thinkingSignature":"EpYB"})
        );
        assert_eq!(
            block(json!({"type":"redacted_thinking","data":"opaque"}))["thinkingSignature"],
            json!("opaque")
        );
        assert_eq!(
            block(json!({"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}})),
            json!({"type":"toolCall","id":"toolu_1","name":"Bash","arguments":{"command":"ls"}})
        );
        assert_eq!(
            block(json!({"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"}})),
            json!({"type":"image","data":"iVBO","mimeType":"image/png"})
        );
        assert!(matches!(map_block(&json!({"type":"fallback"})), Mapped::Kept(_, k) if k == "`fallback` block"));
    }

    #[test]
    fn tool_result_content_of_every_shape() {
        assert_eq!(
            tool_result_content(Some(&json!("ok"))).0,
            vec![json!({"type":"text","text":"ok"})]
        );
        let (blocks, kept) = tool_result_content(Some(&json!([{"type":"text","text":"a"},{"type":"document"}])));
        assert_eq!(blocks.len(), 2);
        assert_eq!(kept, vec!["`document` block".to_owned()]);
        assert!(tool_result_content(None).0.is_empty());
    }
}
