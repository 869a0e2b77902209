//! A loaded session: its source, header, entries (or bare messages) and load diagnostics.

use std::path::PathBuf;

use crate::model::json::Value;
use serde::Serialize;

use super::diagnostic::{Diagnostic, Location};
use super::entry::Entry;
use super::mapped::{Agent, Mapped};

/// The on-disk format a session was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SessionFormat {
    /// OpenClaw / pi session JSONL with an entry tree (header version 2, 3 or 4).
    #[serde(rename = "openclaw-jsonl")]
    OpenClawJsonl,
    /// pi session JSONL version 1 (linear, no entry ids), upgraded on read.
    #[serde(rename = "pi-jsonl-v1")]
    PiJsonlV1,
    /// pi-agent-core harness JSONL (`kind:"header"`, version 4).
    #[serde(rename = "pi-core-v4")]
    PiCoreV4,
    /// OpenClaw per-agent SQLite database (`openclaw-agent.sqlite`).
    #[serde(rename = "openclaw-sqlite")]
    OpenClawSqlite,
    /// A `.json` file holding a bare array of messages.
    #[serde(rename = "message-array")]
    MessageArray,
    /// Claude Code session JSONL (`~/.claude/projects/<project>/<session>.jsonl`).
    #[serde(rename = "claude-code-jsonl")]
    ClaudeCodeJsonl,
    /// Claude Code web export: one JSON document `{"loglines": […]}`.
    #[serde(rename = "claude-code-web")]
    ClaudeCodeWeb,
    /// Codex CLI rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl`), any era.
    #[serde(rename = "codex-rollout")]
    CodexRollout,
}

impl SessionFormat {
    /// The format name used in JSON output and listings.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::OpenClawJsonl => "openclaw-jsonl",
            Self::PiJsonlV1 => "pi-jsonl-v1",
            Self::PiCoreV4 => "pi-core-v4",
            Self::OpenClawSqlite => "openclaw-sqlite",
            Self::MessageArray => "message-array",
            Self::ClaudeCodeJsonl => "claude-code-jsonl",
            Self::ClaudeCodeWeb => "claude-code-web",
            Self::CodexRollout => "codex-rollout",
        }
    }

    /// The agent that writes this format.
    pub fn agent(self) -> Agent {
        match self {
            Self::OpenClawJsonl | Self::OpenClawSqlite | Self::MessageArray => Agent::OpenClaw,
            Self::PiJsonlV1 | Self::PiCoreV4 => Agent::Pi,
            Self::ClaudeCodeJsonl | Self::ClaudeCodeWeb => Agent::ClaudeCode,
            Self::CodexRollout => Agent::Codex,
        }
    }

    /// Whether this is another agent's format, read through a mapping (Claude Code, Codex).
    pub fn is_mapped(self) -> bool {
        matches!(self.agent(), Agent::ClaudeCode | Agent::Codex)
    }
}

/// Where a session in an OpenClaw database sits.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DbWindow {
    /// `session_nodes.session_key` (e.g. `agent:main:main`), when known.
    pub session_key: Option<String>,
    /// `session_windows.reason` (`initial`, `reset`, …), when known.
    pub reason: Option<String>,
    /// Whether this window is its session key's current one.
    pub current: bool,
    /// `session_windows.model_provider`.
    pub model_provider: Option<String>,
    /// `session_windows.model`.
    pub model: Option<String>,
    /// Last update in Unix ms.
    pub updated_at_ms: Option<i64>,
}

/// One message of a bare message array, with its index.
#[derive(Debug, Clone, PartialEq)]
pub struct BareMessage {
    /// Index in the array.
    pub index: usize,
    /// The message object as stored.
    pub raw: Value,
}

/// A session as loaded: nothing in it has been rewritten.
#[derive(Debug, Clone)]
pub struct Session {
    /// The file (or database) it came from.
    pub path: PathBuf,
    /// The detected format.
    pub format: SessionFormat,
    /// The session id: header `id`, database window id, or the file stem.
    pub id: String,
    /// Header `version` as stored (1 when absent in a v1 file).
    pub version: Option<u64>,
    /// The header line (`type:"session"` or `kind:"header"`), as stored.
    pub header: Option<Value>,
    /// Where the header was read from.
    pub header_location: Option<Location>,
    /// Every entry after the header, in file order, as stored.
    pub entries: Vec<Entry>,
    /// For a bare message array: its messages, as stored.
    pub bare_messages: Vec<BareMessage>,
    /// An explicit leaf recorded by control lines (`leaf` entries, v4 `lane` records).
    /// `Some(None)` means the leaf was explicitly reset to the root.
    pub explicit_leaf: Option<Option<String>>,
    /// Database window facts, for SQLite sessions.
    pub db_window: Option<DbWindow>,
    /// Everything that was skipped or looked wrong while loading.
    pub diagnostics: Vec<Diagnostic>,
    /// For another agent's session: its messages mapped into the common model.
    pub mapped: Option<Mapped>,
    /// The OpenClaw release that last wrote the file, where it records one (an agent
    /// database's `schema_meta.app_version`, or the `replaylens-reproducer` record of a reduced case).
    pub openclaw_version: Option<String>,
}

impl Session {
    /// A new, empty session of the given format.
    pub fn new(path: impl Into<PathBuf>, format: SessionFormat, id: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            format,
            id: id.into(),
            version: None,
            header: None,
            header_location: None,
            entries: Vec::new(),
            bare_messages: Vec::new(),
            explicit_leaf: None,
            db_window: None,
            diagnostics: Vec::new(),
            mapped: None,
            openclaw_version: None,
        }
    }

    /// The stored JSON values in source order (header first), exactly as read.
    /// Serializing these gives back the input entries.
    pub fn stored_values(&self) -> Vec<&Value> {
        let mut out = Vec::with_capacity(self.entries.len() + self.bare_messages.len() + 1);
        out.extend(self.header.iter());
        out.extend(self.entries.iter().map(|e| &e.raw));
        out.extend(self.bare_messages.iter().map(|m| &m.raw));
        out
    }

    /// Number of lines or rows that were skipped.
    pub fn skipped_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == super::diagnostic::Severity::Skipped)
            .count()
    }

    /// The session's last update time: the latest timestamp seen, as an ISO string.
    pub fn last_update(&self) -> Option<String> {
        if let Some(ms) = self.db_window.as_ref().and_then(|w| w.updated_at_ms) {
            return super::time::ms_to_iso(ms as f64);
        }
        let last_entry = self.entries.iter().rev().find_map(|e| e.timestamp());
        let header = self
            .header
            .as_ref()
            .and_then(|h| h.get("timestamp"))
            .and_then(Value::as_str);
        last_entry.or(header).map(str::to_owned).or_else(|| {
            self.bare_messages
                .iter()
                .rev()
                .find_map(|m| m.raw.get("timestamp").and_then(Value::as_f64))
                .and_then(super::time::ms_to_iso)
        })
    }
}
