//! Plain-text, one-line-per-block descriptions of messages for the text outputs.

use std::io::Write;

use replaylens::model::json::Value;
use replaylens::model::{BlockKind, Message, Role};
use replaylens::text::{escape_controls_single_line as esc, truncate_chars};

/// The role of a shell command the user ran (`!cmd` in pi / OpenClaw), stored with its output.
const BASH_EXECUTION: &str = "bashExecution";
/// Lines of a shell command's output shown.
const BASH_OUTPUT_LINES: usize = 3;

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
    if msg.role() == Role::Other(BASH_EXECUTION) {
        write_bash_execution(out, msg)?;
    }
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

/// A `bashExecution` message: `$ command` with how it ended, then the first lines of its output.
fn write_bash_execution(out: &mut impl Write, msg: &Message) -> std::io::Result<()> {
    let command = msg.str_field("command").unwrap_or("?");
    let mut line = format!("$ {}", truncate_chars(command, 160));
    let status = bash_status(msg);
    if !status.is_empty() {
        line.push_str(&format!("  ({})", status.join(", ")));
    }
    writeln!(out, "      {}", esc(&line))?;
    let output = msg.str_field("output").unwrap_or("");
    if output.is_empty() {
        return writeln!(out, "        (no output)");
    }
    let lines: Vec<&str> = output.strip_suffix('\n').unwrap_or(output).split('\n').collect();
    for l in lines.iter().take(BASH_OUTPUT_LINES) {
        writeln!(out, "        {}", esc(&truncate_chars(l, 160)))?;
    }
    if lines.len() > BASH_OUTPUT_LINES {
        writeln!(out, "        … {} more lines", lines.len() - BASH_OUTPUT_LINES)?;
    }
    Ok(())
}

/// How a shell command ended, when worth saying: a non-zero exit code, cancelled, output cut
/// short, kept out of the model's context.
fn bash_status(msg: &Message) -> Vec<String> {
    let flag = |k: &str| msg.get(k).and_then(Value::as_bool) == Some(true);
    let mut status = Vec::new();
    match msg.get("exitCode") {
        None | Some(Value::Null) => {}
        Some(Value::Number(n)) if n.as_f64() == Some(0.0) => {}
        Some(code) => status.push(format!("exit code {}", truncate_chars(&code.to_string(), 20))),
    }
    if flag("cancelled") {
        status.push("cancelled".to_owned());
    }
    if flag("truncated") {
        status.push(match msg.str_field("fullOutputPath") {
            Some(p) => format!("output truncated, full output in {}", truncate_chars(p, 120)),
            None => "output truncated".to_owned(),
        });
    }
    if flag("excludeFromContext") {
        status.push("not sent to the model".to_owned());
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use replaylens::json;

    fn written(v: Value) -> String {
        let m = Message::from_value(v).unwrap();
        let mut out = Vec::new();
        write_message(&mut out, "#3  ", "e3", &m).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_shell_command_shows_its_command_and_first_output_lines() {
        let text = written(
            json!({"role": "bashExecution", "command": "ls", "output": "a\nb\nc\nd\ne\n",
            "exitCode": 0, "cancelled": false, "truncated": false, "timestamp": 1}),
        );
        assert_eq!(
            text,
            "#3   bashExecution     e3\n      $ ls\n        a\n        b\n        c\n        … 2 more lines\n"
        );
    }

    #[test]
    fn a_failed_shell_command_shows_its_exit_code_and_escapes_its_text() {
        let text = written(json!({"role": "bashExecution", "command": "make\u{1b}[2J test",
            "output": "boom\u{7}", "exitCode": 2, "truncated": true, "fullOutputPath": "/tmp/out.log"}));
        assert_eq!(
            text,
            "#3   bashExecution     e3\n      $ make\\e[2J test  (exit code 2, output truncated, full output in \
             /tmp/out.log)\n        boom\\x07\n"
        );
    }

    #[test]
    fn a_shell_command_without_output() {
        let text = written(
            json!({"role": "bashExecution", "command": "true", "output": "", "exitCode": null,
            "cancelled": true, "excludeFromContext": true}),
        );
        assert!(
            text.ends_with("      $ true  (cancelled, not sent to the model)\n        (no output)\n"),
            "{text}"
        );
    }
}
