//! `replaylens show SESSION`: the stored active-branch messages.

use std::io::Write;
use std::path::Path;

use replaylens::load::{LoadOptions, load_path};
use replaylens::model::{BlockKind, Message, Role, StoredMessage};
use replaylens::text::{escape_controls_single_line as esc, truncate_chars};
use serde_json::{Value, json};

/// Print the stored transcript of one session.
pub fn run(path: &Path, session: Option<String>, json_out: bool) -> anyhow::Result<()> {
    let s = load_path(path, &LoadOptions { session })?;
    let t = s.transcript();
    super::report(&s.diagnostics);
    super::report(&t.diagnostics);
    let mut out = std::io::stdout().lock();
    if json_out {
        let stored: Vec<Value> = t.messages.iter().enumerate().map(|(i, m)| stored_json(i, m)).collect();
        serde_json::to_writer_pretty(&mut out, &stored)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(
        out,
        "session {} ({}), {} stored messages",
        esc(&s.id),
        s.format.as_str(),
        t.messages.len()
    )?;
    if let Some(c) = &t.compaction {
        writeln!(
            out,
            "{} {} applied: {} earlier branch entries replaced",
            c.kind,
            c.entry_id.as_deref().unwrap_or("?"),
            c.entries_cut
        )?;
    }
    for (i, m) in t.messages.iter().enumerate() {
        write_message(&mut out, i, m)?;
    }
    Ok(())
}

/// One element of the `stored` array of the JSON contract (README §3.1).
pub fn stored_json(index: usize, m: &StoredMessage<'_>) -> Value {
    let mut v = json!({"index": index});
    if let Some(id) = &m.entry_id {
        v["entryId"] = json!(id);
    }
    v["message"] = serde_json::to_value(m.message.as_ref()).unwrap_or(Value::Null);
    v
}

fn write_message(out: &mut impl Write, index: usize, m: &StoredMessage<'_>) -> std::io::Result<()> {
    let msg: &Message = &m.message;
    let role = match msg.role() {
        Role::Missing => "(no role)".to_owned(),
        r => r.as_str().to_owned(),
    };
    let id = m.entry_id.as_deref().unwrap_or("-");
    let mut head = format!("#{index:<4} {role:<17} {}", esc(id));
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
