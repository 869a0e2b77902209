//! A session file as `reduce` edits it: OpenClaw JSONL (its header line, then entries linked by
//! `parentId`) or a bare JSON message array. Removing an entry re-links its children to its
//! nearest kept ancestor, so every candidate is a valid session of the input's own format.

use std::collections::HashMap;

use serde_json::Value;

/// The formats `reduce` writes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// OpenClaw JSONL: a `session` header line, then one entry per line.
    OpenClawJsonl,
    /// A `.json` file holding an array of messages.
    MessageArray,
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
    /// Another format than the two `reduce` writes.
    #[error("reduce writes OpenClaw JSONL sessions and .json message arrays; this is a {0} session")]
    Format(&'static str),
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
    pub fn parse(text: &str, format: &'static str) -> Result<Self, ShapeError> {
        match format {
            "openclaw-jsonl" => {
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
                    if header.is_none() && units.is_empty() && value["type"] == "session" {
                        header = Some(value);
                    } else {
                        units.push(value);
                    }
                }
                Ok(Self {
                    shape: Shape::OpenClawJsonl,
                    header,
                    units,
                })
            }
            "message-array" => {
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
            other => Err(ShapeError::Format(other)),
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
            Shape::OpenClawJsonl => {
                let parents = self.parent_map();
                let kept_ids: std::collections::HashSet<&str> =
                    keep.iter().filter_map(|&i| self.units[i]["id"].as_str()).collect();
                let mut out = String::new();
                if let Some(header) = &self.header {
                    out.push_str(&header.to_string());
                    out.push('\n');
                }
                for &i in keep {
                    let unit = &self.units[i];
                    let relinked = match unit["parentId"].as_str() {
                        Some(parent) if !kept_ids.contains(parent) => {
                            let mut at = parents.get(parent).copied().flatten();
                            while let Some(p) = at {
                                if kept_ids.contains(p) {
                                    break;
                                }
                                at = parents.get(p).copied().flatten();
                            }
                            let mut copy = unit.clone();
                            copy["parentId"] = at.map_or(Value::Null, |p| Value::String(p.to_owned()));
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
        self.units
            .iter()
            .filter_map(|u| Some((u["id"].as_str()?, u["parentId"].as_str())))
            .collect()
    }

    /// The message a unit holds (a JSONL `message` entry's `message`, or the array element).
    pub fn message_mut(&mut self, i: usize) -> Option<&mut Value> {
        let unit = self.units.get_mut(i)?;
        match self.shape {
            Shape::MessageArray => Some(unit),
            Shape::OpenClawJsonl => (unit["type"] == "message").then(|| &mut unit["message"]),
        }
    }

    /// Whether a unit is a message (not a model change, compaction or custom entry).
    pub fn is_message(&self, i: usize) -> bool {
        match self.shape {
            Shape::MessageArray => true,
            Shape::OpenClawJsonl => self.units[i]["type"] == "message",
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
        let e = SessionText::parse("", "codex-rollout").unwrap_err();
        assert_eq!(
            e.to_string(),
            "reduce writes OpenClaw JSONL sessions and .json message arrays; this is a codex-rollout session"
        );
    }
}
