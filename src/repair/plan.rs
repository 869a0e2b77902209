//! Planning the on-disk JSONL repair (OpenClaw's `repairSessionFileIfNeeded`): what would change, without writing.

use std::path::Path;

use crate::json;
use crate::model::json::Value;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::load::json_parse::{is_valid_json, parse_value};
use crate::openclaw::assistant_text::{STREAM_ERROR_FALLBACK_TEXT, is_blank, is_blank_text_block};
use crate::openclaw::synthetic::ABORTED_TEXT;

/// The text a blank user turn becomes.
pub const BLANK_USER_FALLBACK_TEXT: &str = "(continue)";

/// Why a file was not repaired at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RepairRefusal {
    /// No entries in the file.
    #[error("{0} is an empty session file; nothing to repair")]
    Empty(String),
    /// The first entry is not a `{type:"session", id}` header.
    #[error(
        "{0} has an invalid session header (the first entry must be a session header with an id); it was not changed"
    )]
    InvalidHeader(String),
    /// Another agent's session (Claude Code, Codex): its writer's format is not OpenClaw's.
    #[error(
        "{0} is a {1} session; repair rewrites OpenClaw session files only, so it was not changed (inspect it with show, replay, lint or payload)"
    )]
    OtherAgent(String, &'static str),
    /// Not line-oriented JSON at all: a database, a compressed file, a JSON document.
    #[error(
        "{0} is {what}; repair rewrites OpenClaw session JSONL files only, so it was not changed{hint}",
        what = .1.description(),
        hint = .1.hint()
    )]
    NotJsonl(String, NotJsonl),
    /// Lines, but not one of them JSON.
    #[error("{0} has no JSON line; it is not a session file, so it was not changed")]
    NoJsonLine(String),
}

/// What a file the repair refuses is instead of session JSONL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotJsonl {
    /// An SQLite database with OpenClaw's `transcript_events` table.
    OpenClawDatabase,
    /// Any other SQLite database.
    SqliteDatabase,
    /// A zstd stream (a compressed rollout or archive).
    Zstd,
    /// A JSON array (a message array).
    JsonArray,
    /// One JSON document spread over several lines.
    JsonDocument,
}

impl NotJsonl {
    /// What the file is, after "is".
    pub fn description(self) -> &'static str {
        match self {
            Self::OpenClawDatabase => "an OpenClaw SQLite database",
            Self::SqliteDatabase => "an SQLite database",
            Self::Zstd => "zstd-compressed",
            Self::JsonArray => "a JSON message array",
            Self::JsonDocument => "a single JSON document, not one JSON entry per line",
        }
    }

    /// Where to look at it instead.
    fn hint(self) -> &'static str {
        match self {
            Self::SqliteDatabase => "",
            _ => " (inspect it with show, replay, lint or payload)",
        }
    }

    /// Formats told apart by their first bytes: never split into "lines" and planned.
    fn of_binary(bytes: &[u8]) -> Option<Self> {
        match crate::load::detect(bytes) {
            crate::load::Detected::Sqlite => Some(if contains(bytes, b"transcript_events") {
                Self::OpenClawDatabase
            } else {
                Self::SqliteDatabase
            }),
            crate::load::Detected::Zstd => Some(Self::Zstd),
            _ => None,
        }
    }

    /// JSON that is not JSONL, judged only for a file the plan refuses anyway (a JSONL file
    /// whose first line is damaged must still be repaired).
    fn of_json(bytes: &[u8], lines: usize) -> Option<Self> {
        if crate::load::detect(bytes) == crate::load::Detected::JsonArray {
            return Some(Self::JsonArray);
        }
        (lines > 1 && is_valid_json(bytes)).then_some(Self::JsonDocument)
    }
}

/// Whether `needle` occurs in `haystack`.
fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// One change the repair makes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum RepairChange {
    /// A line that is not JSON, or a structurally invalid message entry, is dropped.
    DroppedLine {
        /// 1-based line.
        line: usize,
        /// Why.
        reason: String,
    },
    /// An empty `error` assistant turn gets the fallback text.
    RewroteAssistant {
        /// 1-based line.
        line: usize,
    },
    /// A blank user turn gets `(continue)` or loses its blank text blocks.
    RewroteUser {
        /// 1-based line.
        line: usize,
    },
    /// A missing Responses tool result is inserted after its assistant.
    InsertedToolResult {
        /// 1-based line of the assistant entry it follows.
        after_line: usize,
        /// The tool call it answers.
        tool_call_id: String,
    },
}

/// What the repair would do to one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RepairPlan {
    /// Every change, in file order.
    pub changes: Vec<RepairChange>,
    /// The repaired file content (equal to the input when nothing changes).
    #[serde(skip)]
    pub content: Vec<u8>,
}

impl RepairPlan {
    /// True when the file needs no repair.
    pub fn is_clean(&self) -> bool {
        self.changes.is_empty()
    }

    fn count(&self, f: impl Fn(&RepairChange) -> bool) -> usize {
        self.changes.iter().filter(|c| f(c)).count()
    }

    /// The summary line OpenClaw logs (`session file repaired: …`), non-zero parts only.
    pub fn summary(&self, basename: &str) -> String {
        let parts = [
            (
                self.count(|c| matches!(c, RepairChange::DroppedLine { .. })),
                "dropped",
                "malformed line",
            ),
            (
                self.count(|c| matches!(c, RepairChange::RewroteAssistant { .. })),
                "rewrote",
                "assistant message",
            ),
            (
                self.count(|c| matches!(c, RepairChange::RewroteUser { .. })),
                "rewrote",
                "user message",
            ),
            (
                self.count(|c| matches!(c, RepairChange::InsertedToolResult { .. })),
                "inserted",
                "missing tool result",
            ),
        ];
        let text: Vec<String> = parts
            .iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|(n, verb, noun)| format!("{verb} {n} {noun}(s)"))
            .collect();
        if text.is_empty() {
            format!("nothing to repair ({basename})")
        } else {
            format!("session file repaired: {} ({basename})", text.join(", "))
        }
    }
}

struct Line<'a> {
    number: usize,
    raw: &'a str,
    value: Value,
    changed: bool,
}

/// Plan the repair of a session file's bytes.
pub fn plan(path: &Path, bytes: &[u8]) -> Result<RepairPlan, RepairRefusal> {
    let name = path.display().to_string();
    if let Some(kind) = NotJsonl::of_binary(bytes) {
        return Err(RepairRefusal::NotJsonl(name, kind));
    }
    let text = String::from_utf8_lossy(bytes);
    let crlf = text.contains("\r\n");
    let mut changes = Vec::new();
    let mut lines: Vec<Line<'_>> = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if raw.trim().is_empty() {
            continue;
        }
        let number = i + 1;
        match parse_value(raw.as_bytes()) {
            Ok(value) => match structural_problem(&value) {
                Some(reason) => changes.push(RepairChange::DroppedLine { line: number, reason }),
                None => lines.push(Line {
                    number,
                    raw,
                    value,
                    changed: false,
                }),
            },
            // Valid JSON nested deeper than replaylens reads is JSON that OpenClaw's
            // JSON.parse accepts: it is kept byte for byte, never dropped.
            Err(_) if is_valid_json(raw.as_bytes()) => lines.push(Line {
                number,
                raw,
                value: Value::Null,
                changed: false,
            }),
            Err(e) => changes.push(RepairChange::DroppedLine {
                line: number,
                reason: format!("not valid JSON ({e})"),
            }),
        }
    }
    let non_blank = lines.len() + changes.len();
    let Some(first) = lines.first() else {
        return Err(if let Some(kind) = NotJsonl::of_json(bytes, non_blank) {
            RepairRefusal::NotJsonl(name, kind)
        } else if non_blank == 0 {
            RepairRefusal::Empty(name)
        } else {
            RepairRefusal::NoJsonLine(name)
        });
    };
    let header_ok = first.value.get("type").and_then(Value::as_str) == Some("session")
        && first
            .value
            .get("id")
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty());
    if !header_ok {
        if let Some(agent) = lines
            .iter()
            .take(20)
            .find_map(|l| crate::load::foreign::foreign_format(&l.value))
        {
            return Err(RepairRefusal::OtherAgent(name, agent));
        }
        if let Some(kind) = NotJsonl::of_json(bytes, non_blank) {
            return Err(RepairRefusal::NotJsonl(name, kind));
        }
        return Err(RepairRefusal::InvalidHeader(name));
    }
    for line in &mut lines {
        if let Some(change) = rewrite_message(line) {
            changes.push(change);
        }
    }
    let inserted = missing_responses_results(&lines, &mut changes);
    changes.sort_by_key(|c| match c {
        RepairChange::DroppedLine { line, .. }
        | RepairChange::RewroteAssistant { line }
        | RepairChange::RewroteUser { line } => *line,
        RepairChange::InsertedToolResult { after_line, .. } => *after_line,
    });
    if changes.is_empty() {
        return Ok(RepairPlan {
            changes,
            content: bytes.to_vec(),
        });
    }
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut out = String::with_capacity(bytes.len() + 256);
    for line in &lines {
        if line.changed {
            out.push_str(&serde_json::to_string(&line.value).unwrap_or_default());
        } else {
            out.push_str(line.raw);
        }
        out.push_str(eol);
        for entry in inserted.iter().filter(|(after, _)| *after == line.number) {
            out.push_str(&entry.1);
            out.push_str(eol);
        }
    }
    Ok(RepairPlan {
        changes,
        content: out.into_bytes(),
    })
}

/// The entries `repairSessionFileIfNeeded` counts as dropped lines: message entries without a message object or a role.
fn structural_problem(v: &Value) -> Option<String> {
    if !v.is_object() {
        return Some("the line is not a JSON object".into());
    }
    if v.get("type").and_then(Value::as_str) != Some("message") {
        return None;
    }
    let Some(message) = v.get("message").filter(|m| m.is_object()) else {
        return Some("message entry without a message object".into());
    };
    match message.get("role").and_then(Value::as_str) {
        Some(r) if !is_blank(r) => None,
        _ => Some("message without a role".into()),
    }
}

/// Steps 4 and 5: empty error assistant turns and blank user turns.
fn rewrite_message(line: &mut Line<'_>) -> Option<RepairChange> {
    let message = line.value.get_mut("message")?;
    match message.get("role").and_then(Value::as_str) {
        Some("assistant") => {
            let empty = message
                .get("content")
                .and_then(Value::as_array)
                .is_some_and(|a| a.is_empty());
            if empty && message.get("stopReason").and_then(Value::as_str) == Some("error") {
                message["content"] = json!([{"type": "text", "text": STREAM_ERROR_FALLBACK_TEXT}]);
                line.changed = true;
                return Some(RepairChange::RewroteAssistant { line: line.number });
            }
            None
        }
        Some("user") => {
            let next = match message.get("content") {
                Some(Value::String(s)) if is_blank(s) => json!(BLANK_USER_FALLBACK_TEXT),
                Some(Value::Array(blocks)) if blocks.iter().any(is_blank_text_block) => {
                    let kept: Vec<Value> = blocks.iter().filter(|b| !is_blank_text_block(b)).cloned().collect();
                    if kept.is_empty() {
                        json!([{"type": "text", "text": BLANK_USER_FALLBACK_TEXT}])
                    } else {
                        Value::Array(kept.into())
                    }
                }
                _ => return None,
            };
            message["content"] = next;
            line.changed = true;
            Some(RepairChange::RewroteUser { line: line.number })
        }
        _ => None,
    }
}

/// Step 7: missing tool results of completed `openai-chatgpt-responses` turns.
fn missing_responses_results(lines: &[Line<'_>], changes: &mut Vec<RepairChange>) -> Vec<(usize, String)> {
    let persisted: std::collections::HashSet<&str> = lines
        .iter()
        .filter_map(|l| l.value.get("message"))
        .filter(|m| m.get("role").and_then(Value::as_str) == Some("toolResult"))
        .filter_map(|m| m.get("toolCallId").and_then(Value::as_str))
        .collect();
    let session_id = lines[0].value.get("id").and_then(Value::as_str).unwrap_or("");
    let mut out = Vec::new();
    for line in lines {
        let Some(m) = line.value.get("message") else { continue };
        let is_target = m.get("role").and_then(Value::as_str) == Some("assistant")
            && m.get("api").and_then(Value::as_str) == Some("openai-chatgpt-responses")
            && m.get("provider").and_then(Value::as_str) == Some("openai")
            && !matches!(m.get("stopReason").and_then(Value::as_str), Some("error" | "aborted"));
        if !is_target {
            continue;
        }
        let parent = line.value.get("id").cloned().unwrap_or(Value::Null);
        for block in m.get("content").and_then(Value::as_array).into_iter().flatten() {
            if block.get("type").and_then(Value::as_str) != Some("toolCall") {
                continue;
            }
            let Some(call_id) = block.get("id").and_then(Value::as_str) else {
                continue;
            };
            if persisted.contains(call_id) || out.iter().any(|(_, _, c): &(usize, String, String)| c == call_id) {
                continue;
            }
            let digest = Sha256::digest(format!("{session_id}:{parent}:{call_id}").as_bytes());
            let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
            let uuid = format!(
                "{}-{}-{}-{}-{}",
                &hex[0..8],
                &hex[8..12],
                &hex[12..16],
                &hex[16..20],
                &hex[20..32]
            );
            let entry = json!({
                "type": "message",
                "id": format!("repair-{uuid}"),
                "parentId": parent,
                "timestamp": line.value.get("timestamp").cloned().unwrap_or(Value::Null),
                "message": {
                    "role": "toolResult",
                    "toolCallId": call_id,
                    "toolName": block.get("name").and_then(Value::as_str).unwrap_or("unknown"),
                    "isError": true,
                    "content": [{"type": "text", "text": ABORTED_TEXT}],
                },
            });
            out.push((
                line.number,
                serde_json::to_string(&entry).unwrap_or_default(),
                call_id.to_owned(),
            ));
            changes.push(RepairChange::InsertedToolResult {
                after_line: line.number,
                tool_call_id: call_id.to_owned(),
            });
        }
    }
    out.into_iter().map(|(after, text, _)| (after, text)).collect()
}
