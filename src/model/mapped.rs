//! Sessions of other agents (Claude Code, Codex) mapped into the common message model.
//!
//! Their entries stay in [`Session::entries`](super::Session) exactly as stored; the loader
//! adds a [`Mapped`] transcript: the messages the rules read, each naming the stored lines
//! it was built from, and notes for everything that was kept but not mapped.

use std::borrow::Cow;

use serde::Serialize;

use super::coverage::{Hidden, ModelSource};
use super::diagnostic::{Diagnostic, Location};
use super::json::Str;
use super::message::Message;
use super::transcript::{AppliedCompaction, ModelRef, Origin, StoredMessage, Transcript};

/// The agent that wrote a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Agent {
    /// OpenClaw (JSONL or its per-agent SQLite database).
    OpenClaw,
    /// pi, the coding agent OpenClaw's session format comes from.
    Pi,
    /// Anthropic's Claude Code (`~/.claude/projects`).
    ClaudeCode,
    /// OpenAI's Codex CLI (`~/.codex/sessions`).
    Codex,
}

impl Agent {
    /// The agent's name as people write it.
    pub fn name(self) -> &'static str {
        match self {
            Self::OpenClaw => "OpenClaw",
            Self::Pi => "pi",
            Self::ClaudeCode => "Claude Code",
            Self::Codex => "Codex",
        }
    }
}

/// One message built from another agent's stored lines.
#[derive(Debug, Clone, PartialEq)]
pub struct MappedMessage {
    /// The id of the first stored line it came from (`uuid`, item `id`), when it has one.
    pub entry_id: Option<Str>,
    /// Every stored line it was built from, in order (an assistant reply Claude Code wrote
    /// as several lines is one message).
    pub sources: Vec<Location>,
    /// The message in the common model (OpenClaw's `AgentMessage` shapes).
    pub message: Message,
}

/// The transcript of another agent's session, as the loader mapped it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mapped {
    /// The messages of the active branch, in order.
    pub messages: Vec<MappedMessage>,
    /// The target the session itself was sent to (provider, API, model).
    pub model: ModelRef,
    /// The working directory the agent ran in, when recorded.
    pub cwd: Option<String>,
    /// The leaf the branch was walked from, for tree-shaped sessions.
    pub leaf_id: Option<String>,
    /// Number of stored lines on the active branch.
    pub branch_len: usize,
    /// The compaction the branch starts after, if any.
    pub compaction: Option<AppliedCompaction>,
    /// What was kept but not mapped, and anything that looked off while mapping.
    pub diagnostics: Vec<Diagnostic>,
}

impl Mapped {
    /// The stored transcript these messages make, borrowing them.
    pub fn transcript(&self) -> Transcript<'_> {
        Transcript {
            messages: self
                .messages
                .iter()
                .map(|m| StoredMessage {
                    entry_id: m.entry_id.clone(),
                    location: m.sources.first().copied(),
                    origin: Origin::Mapped,
                    message: Cow::Borrowed(&m.message),
                })
                .collect(),
            leaf_id: self.leaf_id.clone(),
            branch_len: self.branch_len,
            compaction: self.compaction.clone(),
            model: self.model.clone(),
            model_source: (!self.model.is_empty()).then_some(ModelSource::Mapped),
            hidden: Hidden::default(),
            model_events: Vec::new(),
            thinking_level: None,
            diagnostics: self.diagnostics.clone(),
        }
    }
}
