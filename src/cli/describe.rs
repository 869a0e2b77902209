//! Plain-text, one-line-per-block descriptions of messages for the text outputs.

use std::io::Write;

use replaylens::model::{BlockKind, Message, Role};
use replaylens::text::{escape_controls_single_line as esc, truncate_chars};
use serde_json::Value;

/// Write one message: a head line (`prefix`, role, `tag`, model, stop reason, tool ids)
/// and one indented line per block. All transcript text is escaped.
pub fn write_message(out: &mut impl Write, prefix: &str, tag: &str, msg: &Message) -> std::io::Result<()> {
    let role = match msg.role() {
        Role::Missing => "(no role)".to_owned(),
        r => esc(r.as_str()).into_owned(),
    };
    let mut head = format!("{prefix} {role:<17} {}", esc(tag));
    if let Some(model) = msg.model() {
        head.push_str(&format!("  {}", esc(model)));
    }
    if let Some(stop) = msg.str_field("stopReason") {
        head.push_str(&format!("  stop={}", esc(stop)));
    }
    if msg.is_tool_result() {
        head.push_str(&format!(
            "  {} {}",
            esc(msg.tool_name().unwrap_or("?")),
            esc(msg.tool_call_id().unwrap_or("?"))
        ));
        if msg.is_error() {
            head.push_str("  error");
        }
    }
    writeln!(out, "{head}")?;
    if let Some(text) = msg.content_str() {
        writeln!(out, "      {}", esc(&truncate_chars(text, 160)))?;
    }
    for b in msg.blocks() {
        let line = match b.kind() {
            BlockKind::Text => format!("text: {}", truncate_chars(b.text().unwrap_or(""), 160)),
            BlockKind::Thinking => {
                let sig = match b.thinking_signature() {
                    Some(Value::String(s)) if !s.trim().is_empty() => "signed",
                    Some(_) => "blank signature",
                    None => "unsigned",
                };
                format!("thinking ({sig}): {}", truncate_chars(b.thinking().unwrap_or(""), 120))
            }
            BlockKind::RedactedThinking => "redacted thinking".to_owned(),
            BlockKind::ToolCall(s) => {
                let args = b.tool_call_arguments().map(|a| a.to_string()).unwrap_or_default();
                format!(
                    "{}: {}({}) id={}",
                    s.as_str(),
                    b.tool_call_name().unwrap_or("?"),
                    truncate_chars(&args, 100),
                    b.tool_call_id().unwrap_or("?")
                )
            }
            BlockKind::Image => format!(
                "image {} ({} base64 chars)",
                b.image_mime_type().unwrap_or("?"),
                b.image_data().map_or(0, str::len)
            ),
            BlockKind::Other(t) => format!("{t} block"),
            BlockKind::Untyped => "untyped block".to_owned(),
        };
        writeln!(out, "      {}", esc(&line))?;
    }
    if let Some(summary) = msg.str_field("summary") {
        writeln!(out, "      summary: {}", esc(&truncate_chars(summary, 160)))?;
    }
    Ok(())
}
