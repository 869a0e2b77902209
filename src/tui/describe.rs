//! Messages as compact, readable documents: a header (index, role badge, flags) and body
//! lines (text, collapsed thinking with its signature state, tool calls, tool results,
//! images). All transcript text is escaped here, before it can reach the terminal.

use std::ops::Range;

use replaylens::model::json::Value;
use replaylens::model::{Block, BlockKind, Message, Role as MessageRole};
use replaylens::text::{escape_controls, escape_controls_single_line, truncate_chars, value_has_hidden};

use super::image_info::ImageInfo;
use super::theme::Role;

/// Lines of a collapsed message kept before layout (the row shows fewer).
const COLLAPSED_LINES: usize = 40;
/// Characters of one line kept in a collapsed message.
const COLLAPSED_LINE_CHARS: usize = 2_000;
/// Characters of tool-call arguments shown on one line.
const ARGS_CHARS: usize = 100;
/// Characters of a shell command shown on the first line of a collapsed message.
const COMMAND_CHARS: usize = 200;
/// Characters of one line laid out per body line of an expanded message's budget: a
/// 50 MB single-line blob is cut to what the budget's lines can show.
const EXPANDED_CHARS_PER_LINE: usize = 512;

/// The role of a shell command the user ran (`!cmd` in pi / OpenClaw), stored with its output.
const BASH_EXECUTION: &str = "bashExecution";

/// How much of a message is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    /// A few lines, each cut short.
    Collapsed,
    /// Expanded, but only the first `n` body lines are laid out (more on demand), so a
    /// huge message costs what is on screen, not what it holds.
    Expanded(usize),
}

impl Extent {
    /// Whether the message is expanded.
    pub fn is_expanded(self) -> bool {
        matches!(self, Self::Expanded(_))
    }

    /// Most body lines laid out.
    fn line_limit(self) -> usize {
        match self {
            Self::Collapsed => COLLAPSED_LINES,
            Self::Expanded(n) => n.max(1),
        }
    }

    /// Most characters of one line laid out.
    fn char_limit(self) -> usize {
        match self {
            Self::Collapsed => COLLAPSED_LINE_CHARS,
            Self::Expanded(n) => n.max(1).saturating_mul(EXPANDED_CHARS_PER_LINE),
        }
    }
}

/// A run of text with one style role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seg {
    /// Escaped text (no control characters).
    pub text: String,
    /// Style role.
    pub role: Role,
}

impl Seg {
    /// A segment.
    pub fn new(text: impl Into<String>, role: Role) -> Self {
        Self {
            text: text.into(),
            role,
        }
    }
}

/// One logical line of a message body, with diff emphasis added later.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DocLine {
    /// The runs of the line.
    pub segs: Vec<Seg>,
    /// Byte ranges (over the joined text) with an emphasis role.
    pub emph: Vec<(Range<usize>, Role)>,
    /// An emphasis role for the whole line.
    pub whole: Option<Role>,
}

impl DocLine {
    /// A line of one segment.
    pub fn plain(text: impl Into<String>, role: Role) -> Self {
        Self {
            segs: vec![Seg::new(text, role)],
            ..Self::default()
        }
    }

    /// The joined text.
    pub fn text(&self) -> String {
        self.segs.iter().map(|s| s.text.as_str()).collect()
    }
}

/// A message ready for layout.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Doc {
    /// The header line.
    pub header: Vec<Seg>,
    /// The body lines.
    pub body: Vec<DocLine>,
    /// True when an expanded message holds more than its budget laid out.
    pub more: bool,
}

/// Describe a message. `index` is its position on its side; for a replay message,
/// `counterpart` is the stored message it came from (for "stripped" signatures and image
/// recompression arrows `before → after`).
pub fn describe(message: &Message, index: usize, extent: Extent, counterpart: Option<&Message>) -> Doc {
    let mut doc = Doc {
        header: header(message, index, extent),
        ..Doc::default()
    };
    let limit = extent.line_limit();
    let mut more = false;
    if let Some(s) = message.content_str() {
        more |= push_text(&mut doc.body, s, "", Role::Text, extent);
    }
    if let Some(summary) = message.str_field("summary") {
        more |= push_text(&mut doc.body, summary, "", Role::Text, extent);
    }
    if message.role() == MessageRole::Other(BASH_EXECUTION) {
        more |= bash_execution(&mut doc.body, message, extent);
    }
    let mut image_no = 0;
    for block in message.blocks() {
        if doc.body.len() >= limit {
            more = true;
            break;
        }
        match block.kind() {
            BlockKind::Text => more |= push_text(&mut doc.body, block.text().unwrap_or(""), "", Role::Text, extent),
            BlockKind::Thinking | BlockKind::RedactedThinking => {
                more |= thinking(&mut doc.body, block, extent, counterpart);
            }
            BlockKind::ToolCall(_) => tool_call(&mut doc.body, block, extent),
            BlockKind::Image => {
                let info = ImageInfo::of(block.image_mime_type(), block.image_data());
                let before = counterpart.and_then(|c| nth_image(c, image_no)).filter(|b| *b != info);
                let text = match before {
                    Some(b) => format!("▣ {b} → {info}"),
                    None => format!("▣ {info}"),
                };
                // The MIME type comes from the transcript: shown escaped, never dropped.
                let text = escape_controls_single_line(&text).into_owned();
                doc.body.push(DocLine::plain(text, Role::Image));
                image_no += 1;
            }
            BlockKind::Other(t) => other_block(&mut doc.body, t, block.raw()),
            BlockKind::Untyped => other_block(&mut doc.body, "?", block.raw()),
        }
    }
    if doc.body.is_empty() {
        doc.body.push(DocLine::plain("(no content)", Role::Placeholder));
    }
    doc.more = more && extent.is_expanded();
    doc
}

/// Plain searchable text of a message (header and body).
pub fn plain_text(message: &Message, index: usize) -> String {
    let doc = describe(message, index, Extent::Collapsed, None);
    let mut out: String = doc.header.iter().map(|s| s.text.as_str()).collect();
    for line in &doc.body {
        out.push('\n');
        out.push_str(&line.text());
    }
    out
}

fn header(message: &Message, index: usize, extent: Extent) -> Vec<Seg> {
    let role = message.role();
    let (badge, style) = match role {
        MessageRole::User => ("user", Role::BadgeUser),
        MessageRole::Assistant => ("assistant", Role::BadgeAssistant),
        MessageRole::ToolResult => ("tool", Role::BadgeTool),
        MessageRole::CompactionSummary => ("summary", Role::BadgeOther),
        MessageRole::Other(_) | MessageRole::Missing => ("", Role::BadgeOther),
    };
    let badge = if badge.is_empty() {
        let name = role.as_str();
        format!(
            "[{}]",
            escape_controls_single_line(if name.is_empty() { "no role" } else { name })
        )
    } else {
        format!("[{badge}]")
    };
    let mut segs = vec![Seg::new(format!("#{index} "), Role::Muted), Seg::new(badge, style)];
    if matches!(role, MessageRole::ToolResult) {
        let id = message.tool_call_id().unwrap_or("?");
        let name = message.tool_name().unwrap_or("");
        segs.push(Seg::new(
            format!(" {} id={}", one_line(name, 40), shown_id(id, extent)),
            Role::ToolCall,
        ));
        if message.is_error() {
            segs.push(Seg::new(" ERROR", Role::Error));
        }
    }
    if let Some(stop) = message.str_field("stopReason")
        && stop != "stop"
    {
        let role = if matches!(stop, "error" | "aborted") {
            Role::Error
        } else {
            Role::Muted
        };
        segs.push(Seg::new(format!(" stop={}", one_line(stop, 20)), role));
    }
    if let Some(err) = message.error_message() {
        segs.push(Seg::new(format!(" “{}”", one_line(err, 60)), Role::Error));
    }
    if message
        .as_map()
        .iter()
        .any(|(k, v)| replaylens::text::has_hidden(k.as_str()) || value_has_hidden(v))
    {
        // Somewhere in the message (not only in what is on screen) a character that shows as
        // nothing or reorders text: shown escaped (`\u{200b}`), and the row says so.
        segs.push(Seg::new(HIDDEN_TAG, Role::Error));
    }
    segs
}

/// The header tag of a message holding invisible or bidi-control characters.
pub const HIDDEN_TAG: &str = " ‹hidden characters›";

/// Characters of an id shown in a row header; a longer id is cut in the middle (its start
/// and its end are what tell ids apart) and shown whole in the detail pane.
const ID_CHARS: usize = 24;

/// An id for a row header: whole up to [`ID_CHARS`] columns, else its start, `…` and its end.
fn short_id(id: &str) -> String {
    escape_controls_single_line(&replaylens::text::cut_middle(id, ID_CHARS)).into_owned()
}

/// An id as a message shows it: cut in the middle while collapsed, whole once expanded
/// (Enter), where a long one wraps after its separators.
fn shown_id(id: &str, extent: Extent) -> String {
    if extent.is_expanded() {
        escape_controls_single_line(id).into_owned()
    } else {
        short_id(id)
    }
}

fn one_line(text: &str, max: usize) -> String {
    escape_controls_single_line(&truncate_chars(text, max)).into_owned()
}

/// Escape and split text into lines (tabs become spaces), each after `indent`, up to the
/// extent's limits. Returns true when something was left out.
fn push_text(out: &mut Vec<DocLine>, text: &str, indent: &str, role: Role, extent: Extent) -> bool {
    let (limit, chars) = (extent.line_limit(), extent.char_limit());
    for line in text.split('\n') {
        if out.len() >= limit {
            return true;
        }
        let cut = truncate_chars(line, chars);
        let escaped = escape_controls(&cut).replace('\t', "    ");
        out.push(DocLine::plain(format!("{indent}{escaped}"), role));
        if cut.len() != line.len() && extent.is_expanded() {
            return true;
        }
    }
    false
}

fn thinking(out: &mut Vec<DocLine>, block: Block<'_>, extent: Extent, counterpart: Option<&Message>) -> bool {
    let text = block.thinking().unwrap_or("");
    let state = if block.is_redacted() || block.kind() == BlockKind::RedactedThinking {
        "redacted"
    } else {
        match block.thinking_signature() {
            Some(Value::String(s)) if !s.trim().is_empty() => "signed",
            Some(_) => "blank",
            None if counterpart.is_some_and(|c| has_signed_thinking(c, text)) => "stripped",
            None => "unsigned",
        }
    };
    let chars = text.chars().count();
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut line = DocLine::plain(format!("◆ thinking ({state}) {chars} chars"), Role::Thinking);
    if !extent.is_expanded() && !first.is_empty() {
        line.segs
            .push(Seg::new(format!(": {}", one_line(first, 60)), Role::Thinking));
    }
    out.push(line);
    extent.is_expanded() && push_text(out, text, "  ", Role::Thinking, extent)
}

fn has_signed_thinking(message: &Message, text: &str) -> bool {
    message.blocks().any(|b| {
        b.kind() == BlockKind::Thinking
            && b.thinking() == Some(text)
            && matches!(b.thinking_signature(), Some(Value::String(s)) if !s.trim().is_empty())
    })
}

fn tool_call(out: &mut Vec<DocLine>, block: Block<'_>, extent: Extent) {
    let name = one_line(block.tool_call_name().unwrap_or("?"), 60);
    let id = shown_id(block.tool_call_id().unwrap_or("?"), extent);
    let max = match extent {
        Extent::Collapsed => ARGS_CHARS,
        Extent::Expanded(_) => extent.char_limit(),
    };
    let compact = block
        .tool_call_arguments()
        .map(|a| bounded_json(a, max.saturating_add(2)))
        .unwrap_or_default();
    let inner = compact.strip_prefix('{').unwrap_or(&compact);
    let inner = inner.strip_suffix('}').unwrap_or(inner);
    let shown = truncate_chars(inner, max);
    out.push(DocLine {
        segs: vec![
            Seg::new(
                format!("⚙ {name}({})", escape_controls_single_line(&shown)),
                Role::ToolCall,
            ),
            Seg::new(format!(" id={id}"), Role::Muted),
        ],
        ..DocLine::default()
    });
}

/// A `bashExecution` message: `$ command` with how it ended (exit code when non-zero,
/// cancelled, truncated, kept out of context), then its output as text lines.
fn bash_execution(out: &mut Vec<DocLine>, message: &Message, extent: Extent) -> bool {
    let command = message.str_field("command").unwrap_or("?");
    let max = match extent {
        Extent::Collapsed => COMMAND_CHARS,
        Extent::Expanded(_) => extent.char_limit(),
    };
    let command = truncate_chars(command, max);
    let mut line = DocLine::plain(format!("$ {}", escape_controls_single_line(&command)), Role::ToolCall);
    let flag = |k: &str| message.get(k).and_then(Value::as_bool) == Some(true);
    match message.get("exitCode") {
        None | Some(Value::Null) => {}
        Some(Value::Number(n)) if n.as_f64() == Some(0.0) => {}
        Some(code) => line.segs.push(Seg::new(
            format!("  exit code {}", one_line(&code.to_string(), 20)),
            Role::Error,
        )),
    }
    if flag("cancelled") {
        line.segs.push(Seg::new("  cancelled", Role::Error));
    }
    if flag("truncated") {
        line.segs.push(Seg::new("  output truncated", Role::Muted));
    }
    if flag("excludeFromContext") {
        line.segs.push(Seg::new("  not sent to the model", Role::Muted));
    }
    out.push(line);
    match message.str_field("output") {
        Some(output) if !output.is_empty() => {
            push_text(out, output.strip_suffix('\n').unwrap_or(output), "", Role::Text, extent)
        }
        _ => {
            out.push(DocLine::plain("(no output)", Role::Placeholder));
            false
        }
    }
}

fn other_block(out: &mut Vec<DocLine>, kind: &str, raw: &Value) {
    let compact = bounded_json(raw, ARGS_CHARS + 1);
    out.push(DocLine::plain(
        format!("[{}] {}", one_line(kind, 30), one_line(&compact, ARGS_CHARS)),
        Role::Muted,
    ));
}

/// Compact JSON of a value, cut after about `max_chars` characters without serializing
/// the rest (a 50 MB argument object costs what is shown).
fn bounded_json(value: &Value, max_chars: usize) -> String {
    struct Bounded {
        buf: Vec<u8>,
        cap: usize,
    }
    impl std::io::Write for Bounded {
        fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
            let room = self.cap.saturating_sub(self.buf.len());
            self.buf.extend_from_slice(&data[..data.len().min(room)]);
            if data.len() > room {
                return Err(std::io::Error::other("enough"));
            }
            Ok(data.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    // A character takes at most four bytes; one more makes the cut visible as `…`.
    let mut w = Bounded {
        buf: Vec::new(),
        cap: max_chars.saturating_mul(4).saturating_add(4),
    };
    let complete = serde_json::to_writer(&mut w, value).is_ok();
    let mut text = String::from_utf8_lossy(&w.buf).into_owned();
    if !complete {
        // Cut at a character boundary the writer may have split, then mark the cut.
        while text.ends_with('\u{fffd}') {
            text.pop();
        }
        text.push('…');
    }
    text
}

fn nth_image(message: &Message, n: usize) -> Option<ImageInfo> {
    message
        .blocks()
        .filter(|b| b.kind() == BlockKind::Image)
        .nth(n)
        .map(|b| ImageInfo::of(b.image_mime_type(), b.image_data()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use replaylens::json;

    fn msg(v: Value) -> Message {
        Message::from_value(v).unwrap()
    }

    #[test]
    fn compaction_and_branch_summaries_show_their_text() {
        let m = msg(json!({"role": "compactionSummary", "summary": "User asked for a listing.", "tokensBefore": 10}));
        let doc = describe(&m, 0, Extent::Collapsed, None);
        assert_eq!(doc.body.len(), 1);
        assert_eq!(doc.body[0].text(), "User asked for a listing.");
    }

    #[test]
    fn a_control_character_in_an_image_mime_type_is_shown_escaped() {
        let m = msg(
            json!({"role": "user", "content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/\u{1b}[2Jpng"}]}),
        );
        let doc = describe(&m, 0, Extent::Collapsed, None);
        assert!(doc.body[0].text().contains("image/\\e[2Jpng"), "{}", doc.body[0].text());
    }

    #[test]
    fn escapes_terminal_sequences_in_text() {
        let m = msg(json!({"role": "user", "content": "a\u{1b}]0;pwned\u{7}b\u{1b}[2J"}));
        let doc = describe(&m, 0, Extent::Collapsed, None);
        assert_eq!(doc.body[0].text(), "a\\e]0;pwned\\x07b\\e[2J");
    }

    #[test]
    fn a_message_with_hidden_characters_anywhere_is_tagged() {
        let header = |v| {
            let doc = describe(&msg(v), 0, Extent::Collapsed, None);
            doc.header.iter().map(|s| s.text.clone()).collect::<String>()
        };
        assert!(!header(json!({"role": "user", "content": "plain 👍🏽 text"})).contains(HIDDEN_TAG));
        let far = format!("{}please summarise README\u{e0041}\u{e0042}", "x".repeat(5_000));
        for v in [
            json!({"role": "user", "content": "zero\u{200b}width"}),
            json!({"role": "user", "content": far}),
            json!({"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "re\u{200b}ad", "arguments": {}}]}),
            json!({"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {"deep": [[{"p\u{2066}": 1}]]}}]}),
            json!({"role": "user", "content": "x", "meta\u{feff}": true}),
        ] {
            assert!(header(v.clone()).contains(HIDDEN_TAG), "{v}");
        }
    }

    #[test]
    fn long_ids_are_cut_in_the_middle() {
        assert_eq!(short_id("call_1"), "call_1");
        assert_eq!(short_id("toolu_01FGZSNZjTUQb6oOSZKK7T3f"), "toolu_01FGZS…6oOSZKK7T3f");
        assert_eq!(short_id("toolu_01FGZSNZjTUQb6oOSZKK7T3f").chars().count(), ID_CHARS);
    }

    #[test]
    fn thinking_signature_states() {
        let signed = msg(json!({"role": "assistant", "content": [
            {"type": "thinking", "thinking": "plan", "thinkingSignature": "sig"}]}));
        let stripped = msg(json!({"role": "assistant", "content": [{"type": "thinking", "thinking": "plan"}]}));
        let blank = msg(json!({"role": "assistant", "content": [
            {"type": "thinking", "thinking": "plan", "thinkingSignature": " "}]}));
        let first = |d: Doc| d.body[0].text();
        assert!(first(describe(&signed, 0, Extent::Collapsed, None)).contains("(signed)"));
        assert!(first(describe(&stripped, 0, Extent::Collapsed, Some(&signed))).contains("(stripped)"));
        assert!(first(describe(&stripped, 0, Extent::Collapsed, None)).contains("(unsigned)"));
        assert!(first(describe(&blank, 0, Extent::Collapsed, None)).contains("(blank)"));
    }

    #[test]
    fn a_shell_command_shows_its_command_output_and_exit_code() {
        let m = msg(
            json!({"role": "bashExecution", "command": "make test", "output": "ok 1\nFAIL 2\u{1b}[31m\n",
            "exitCode": 2, "cancelled": false, "truncated": false, "timestamp": 1}),
        );
        let doc = describe(&m, 4, Extent::Collapsed, None);
        let header: String = doc.header.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(header, "#4 [bashExecution]");
        let lines: Vec<String> = doc.body.iter().map(DocLine::text).collect();
        assert_eq!(lines, ["$ make test  exit code 2", "ok 1", "FAIL 2\\e[31m"]);
        assert_eq!(doc.body[0].segs[1].role, Role::Error);
        assert!(!lines.iter().any(|l| l.contains("(no content)")));
    }

    #[test]
    fn a_successful_shell_command_hides_its_exit_code_and_caps_long_output() {
        let output: String = (0..500).map(|i| format!("line {i}\n")).collect();
        let m = msg(
            json!({"role": "bashExecution", "command": "seq 500\necho done", "output": output,
            "exitCode": 0, "excludeFromContext": true}),
        );
        let doc = describe(&m, 0, Extent::Collapsed, None);
        assert_eq!(doc.body[0].text(), "$ seq 500\\necho done  not sent to the model");
        assert_eq!(doc.body[1].text(), "line 0");
        assert_eq!(doc.body.len(), COLLAPSED_LINES, "capped like other text");
        let expanded = describe(&m, 0, Extent::Expanded(10), None);
        assert_eq!(expanded.body.len(), 10);
        assert!(expanded.more);
        let empty = msg(json!({"role": "bashExecution", "command": "true", "output": "", "cancelled": true}));
        let lines: Vec<String> = describe(&empty, 0, Extent::Collapsed, None)
            .body
            .iter()
            .map(DocLine::text)
            .collect();
        assert_eq!(lines, ["$ true  cancelled", "(no output)"]);
    }

    #[test]
    fn tool_calls_and_results() {
        let call = msg(json!({"role": "assistant", "content": [
            {"type": "toolCall", "id": "call_1", "name": "read", "arguments": {"path": "a.ts"}}]}));
        assert_eq!(
            describe(&call, 0, Extent::Collapsed, None).body[0].text(),
            "⚙ read(\"path\":\"a.ts\") id=call_1"
        );
        let result = msg(json!({"role": "toolResult", "toolCallId": "call_1", "toolName": "read",
            "isError": true, "content": [{"type": "text", "text": "boom"}]}));
        let doc = describe(&result, 3, Extent::Collapsed, None);
        let header: String = doc.header.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(header, "#3 [tool] read id=call_1 ERROR");
    }
}
