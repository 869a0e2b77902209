//! A session file as text in its own format, as `reduce` edits it and `export --format session`
//! redacts it: OpenClaw JSONL (its header line, then entries linked by
//! `id`/`parentId`), Claude Code JSONL (lines linked by `uuid`/`parentUuid`), a Codex rollout
//! (its `session_meta` line, then items in order) or a bare JSON message array. Removing an
//! entry re-links its children to its nearest kept ancestor, so every candidate is a valid
//! session of the input's own format.

use std::collections::HashMap;

use serde_json::Value;

/// The formats `reduce` writes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// OpenClaw JSONL: a `session` header line, then one entry per line.
    OpenClawJsonl,
    /// Claude Code JSONL: one line per entry, linked by `uuid` / `parentUuid`.
    ClaudeCodeJsonl,
    /// A Codex rollout: a `session_meta` line, then one item per line, in order.
    CodexRollout,
    /// A `.json` file holding an array of messages.
    MessageArray,
}

impl Shape {
    /// The key under which an entry holds its message, for the line formats.
    pub fn message_key(self) -> Option<&'static str> {
        match self {
            Self::OpenClawJsonl | Self::ClaudeCodeJsonl => Some("message"),
            Self::CodexRollout => Some("payload"),
            Self::MessageArray => None,
        }
    }

    /// The keys of an entry's id and its parent's, for the formats whose entries are linked.
    fn links(self) -> Option<(&'static str, &'static str)> {
        match self {
            Self::OpenClawJsonl => Some(("id", "parentId")),
            Self::ClaudeCodeJsonl => Some(("uuid", "parentUuid")),
            Self::CodexRollout | Self::MessageArray => None,
        }
    }
}

/// The parsed session: the header (JSONL) and the units `reduce` removes (entries or
/// messages), in file order.
#[derive(Debug, Clone)]
pub struct SessionText {
    /// Which format it is written as.
    pub shape: Shape,
    /// The JSONL header line, kept as it is.
    pub header: Option<Value>,
    /// Entries (JSONL) or messages (array), in file order.
    pub units: Vec<Value>,
}

/// The input cannot be reduced (format, or a line that is not JSON).
#[derive(Debug, thiserror::Error)]
pub enum ShapeError {
    /// Another format than those `reduce` writes.
    #[error(
        "reduce writes OpenClaw, Claude Code and Codex JSONL sessions and .json message arrays (not compressed); this session is {0}"
    )]
    Format(String),
    /// A line or the document is not JSON.
    #[error("line {line} is not JSON: {error}")]
    Json {
        /// 1-based line number.
        line: usize,
        /// What serde_json said.
        error: String,
    },
}

impl SessionText {
    /// Parse `text` written in the loader's format `format` (`openclaw-jsonl`, `message-array`).
    pub fn parse(text: &str, format: &str) -> Result<Self, ShapeError> {
        let shape = match format {
            "openclaw-jsonl" => Shape::OpenClawJsonl,
            "claude-code-jsonl" => Shape::ClaudeCodeJsonl,
            "codex-rollout" => Shape::CodexRollout,
            "message-array" => Shape::MessageArray,
            other => return Err(ShapeError::Format(other.to_owned())),
        };
        match shape {
            Shape::OpenClawJsonl | Shape::ClaudeCodeJsonl | Shape::CodexRollout => {
                let header_type = match shape {
                    Shape::OpenClawJsonl => Some("session"),
                    Shape::CodexRollout => Some("session_meta"),
                    _ => None,
                };
                let mut header = None;
                let mut units = Vec::new();
                for (i, line) in text.lines().enumerate() {
                    if line.trim().is_empty() {
                        continue;
                    }
                    let value: Value = serde_json::from_str(line).map_err(|e| ShapeError::Json {
                        line: i + 1,
                        error: e.to_string(),
                    })?;
                    if header.is_none() && units.is_empty() && header_type.is_some_and(|t| value["type"] == t) {
                        header = Some(value);
                    } else {
                        units.push(value);
                    }
                }
                Ok(Self { shape, header, units })
            }
            Shape::MessageArray => {
                let value: Value = serde_json::from_str(text).map_err(|e| ShapeError::Json {
                    line: e.line(),
                    error: e.to_string(),
                })?;
                let units = value.as_array().cloned().unwrap_or_default();
                Ok(Self {
                    shape: Shape::MessageArray,
                    header: None,
                    units,
                })
            }
        }
    }

    /// The file text of the units at `keep` (indices into `units`, ascending): JSONL entries
    /// re-linked to their nearest kept ancestor.
    pub fn render(&self, keep: &[usize]) -> String {
        match self.shape {
            Shape::MessageArray => {
                let list: Vec<&Value> = keep.iter().map(|&i| &self.units[i]).collect();
                serde_json::to_string_pretty(&list).unwrap_or_default() + "\n"
            }
            Shape::OpenClawJsonl | Shape::ClaudeCodeJsonl | Shape::CodexRollout => {
                let (id_key, parent_key) = self.shape.links().unwrap_or(("", ""));
                let parents = self.parent_map();
                let kept_ids: std::collections::HashSet<&str> =
                    keep.iter().filter_map(|&i| self.units[i][id_key].as_str()).collect();
                let mut out = String::new();
                if let Some(header) = &self.header {
                    out.push_str(&header.to_string());
                    out.push('\n');
                }
                for &i in keep {
                    let unit = &self.units[i];
                    let relinked = match unit[parent_key].as_str().filter(|_| !parent_key.is_empty()) {
                        Some(parent) if !kept_ids.contains(parent) => {
                            let mut at = parents.get(parent).copied().flatten();
                            while let Some(p) = at {
                                if kept_ids.contains(p) {
                                    break;
                                }
                                at = parents.get(p).copied().flatten();
                            }
                            let mut copy = unit.clone();
                            copy[parent_key] = at.map_or(Value::Null, |p| Value::String(p.to_owned()));
                            Some(copy)
                        }
                        _ => None,
                    };
                    out.push_str(&relinked.as_ref().unwrap_or(unit).to_string());
                    out.push('\n');
                }
                out
            }
        }
    }

    /// Every entry's parent, by id.
    fn parent_map(&self) -> HashMap<&str, Option<&str>> {
        let Some((id_key, parent_key)) = self.shape.links() else {
            return HashMap::new();
        };
        self.units
            .iter()
            .filter_map(|u| Some((u[id_key].as_str()?, u[parent_key].as_str())))
            .collect()
    }

    /// The message a unit holds (a JSONL `message` entry's `message`, or the array element).
    pub fn message_mut(&mut self, i: usize) -> Option<&mut Value> {
        if i >= self.units.len() || !self.is_message(i) {
            return None;
        }
        match self.shape.message_key() {
            None => Some(&mut self.units[i]),
            Some(key) => Some(&mut self.units[i][key]),
        }
    }

    /// Whether a unit is a message (not a model change, compaction or custom entry).
    pub fn is_message(&self, i: usize) -> bool {
        let kind = &self.units[i]["type"];
        match self.shape {
            Shape::MessageArray => true,
            Shape::OpenClawJsonl => kind == "message",
            Shape::ClaudeCodeJsonl => kind == "user" || kind == "assistant",
            Shape::CodexRollout => kind == "response_item",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removed_entries_are_bridged_to_their_nearest_kept_ancestor() {
        let text = concat!(
            r#"{"type":"session","version":3,"id":"s"}"#,
            "\n",
            r#"{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"1"}}"#,
            "\n",
            r#"{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","content":"2"}}"#,
            "\n",
            r#"{"type":"message","id":"c","parentId":"b","message":{"role":"user","content":"3"}}"#,
            "\n"
        );
        let s = SessionText::parse(text, "openclaw-jsonl").unwrap();
        assert_eq!(s.units.len(), 3);
        let out = s.render(&[0, 2]);
        let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines[0]["type"], "session");
        assert_eq!(lines[2]["id"], "c");
        assert_eq!(lines[2]["parentId"], "a", "c hangs from a once b is gone");
        let out = s.render(&[2]);
        let only: Value = serde_json::from_str(out.lines().nth(1).unwrap()).unwrap();
        assert_eq!(only["parentId"], Value::Null);
    }

    #[test]
    fn other_formats_are_refused_in_a_sentence() {
        let e = SessionText::parse("", "openclaw-sqlite").unwrap_err();
        assert_eq!(
            e.to_string(),
            "reduce writes OpenClaw, Claude Code and Codex JSONL sessions and .json message arrays (not compressed); this session is openclaw-sqlite"
        );
    }
}
