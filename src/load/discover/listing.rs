//! One listing row: a session summarised from what loaded (or why it did not), plus what
//! its path says about it (archive sibling, archived rollout, sub-agent transcript).

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use crate::model::json::Value;
use serde::Serialize;

use crate::load::LoadError;
use crate::model::{Agent, Session, time};

/// One session found on disk, summarised for a listing.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    /// The file or database.
    #[serde(serialize_with = "crate::text::serialize_path_lossy")]
    pub path: PathBuf,
    /// The session id (`--session` value for databases).
    pub id: String,
    /// Format name, when it loaded.
    pub format: Option<&'static str>,
    /// The agent that wrote it ("OpenClaw", "pi", "Claude Code", "Codex"), when known: from
    /// the format, or for an unreadable file in a default location, from that location.
    pub agent: Option<&'static str>,
    /// The working directory the agent ran in, when recorded.
    pub cwd: Option<String>,
    /// Last update (ISO), when known.
    pub updated: Option<String>,
    /// Messages in the stored transcript (active branch, compaction applied).
    pub messages: usize,
    /// The session's latest model as `provider/model`.
    pub model: Option<String>,
    /// Lines or rows skipped while loading.
    pub skipped: usize,
    /// For a database window: its session key and whether it is current.
    pub session_key: Option<String>,
    /// `checkpoint`, `reset`, `deleted`, `archived` (a Codex rollout in `archived_sessions/`)
    /// or a database window reason, when not a live session.
    pub archive: Option<String>,
    /// For a Claude Code sub-agent transcript (`<sessionId>/subagents/agent-*.jsonl`): the id
    /// of the session that started it.
    pub parent: Option<String>,
    /// Why it could not be loaded, when it could not.
    pub error: Option<String>,
}

impl Listing {
    /// The row for a loaded session.
    pub(super) fn from_session(path: &Path, s: &Session) -> Self {
        let t = s.transcript();
        let model = match (&t.model.provider, &t.model.model) {
            (Some(p), Some(m)) => Some(format!("{p}/{m}")),
            (None, Some(m)) => Some(m.clone()),
            (Some(p), None) => Some(p.clone()),
            (None, None) => None,
        };
        let header_cwd = || {
            s.header
                .as_ref()
                .and_then(|h| h.get("cwd"))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let cwd = s.mapped.as_ref().and_then(|m| m.cwd.clone()).or_else(header_cwd);
        Self {
            path: path.to_owned(),
            id: s.id.clone(),
            format: Some(s.format.as_str()),
            agent: Some(s.format.agent().name()),
            cwd,
            updated: s.last_update(),
            messages: t.messages.len(),
            model,
            skipped: s.skipped_count(),
            session_key: s.db_window.as_ref().and_then(|w| w.session_key.clone()),
            archive: archive_kind(path),
            parent: subagent_parent(path),
            error: None,
        }
    }

    /// The row for a file that could not be loaded.
    pub(super) fn from_error(path: &Path, e: &LoadError) -> Self {
        Self {
            path: path.to_owned(),
            id: path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned(),
            format: None,
            agent: None,
            cwd: None,
            updated: None,
            messages: 0,
            model: None,
            skipped: 0,
            session_key: None,
            archive: archive_kind(path),
            parent: subagent_parent(path),
            error: Some(e.to_string()),
        }
    }

    /// The agent this row belongs to, when known.
    pub fn agent_kind(&self) -> Option<Agent> {
        let name = self.agent?;
        AGENTS.into_iter().find(|a| a.name() == name)
    }
}

/// Every agent, in the order listings group them.
pub const AGENTS: [Agent; 4] = [Agent::OpenClaw, Agent::Pi, Agent::ClaudeCode, Agent::Codex];

/// Newest first (by `updated`; unknown last), then by path and id so that ties keep one order.
pub fn newest_first(a: &Listing, b: &Listing) -> Ordering {
    let key = |l: &Listing| l.updated.as_deref().map(|u| (time::iso_to_ms(u), u.to_owned()));
    match (key(a), key(b)) {
        (Some((ams, au)), Some((bms, bu))) => {
            let by_ms = match (ams, bms) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            };
            by_ms.then_with(|| bu.cmp(&au))
        }
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
    .then_with(|| a.path.cmp(&b.path))
    .then_with(|| a.id.cmp(&b.id))
}

/// What a path says about an archived session: legacy OpenClaw siblings
/// (`<id>.checkpoint.<uuid>.jsonl`, `<id>.jsonl.reset.<ts>`, …) and Codex rollouts in
/// `archived_sessions/`.
pub(super) fn archive_kind(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    if let Some(kind) = ["checkpoint", "reset", "deleted"]
        .iter()
        .find(|k| name.contains(&format!(".{k}.")))
    {
        return Some((*kind).to_owned());
    }
    let in_archive = parent_name(path) == Some("archived_sessions");
    (in_archive && is_rollout_name(name)).then(|| "archived".to_owned())
}

/// The parent session id of a Claude Code sub-agent transcript,
/// `<sessionId>/subagents/agent-<agentId>.jsonl`.
pub(super) fn subagent_parent(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    if !(name.starts_with("agent-") && name.ends_with(".jsonl")) || parent_name(path) != Some("subagents") {
        return None;
    }
    let session = path.parent()?.parent()?.file_name()?.to_str()?;
    (!session.is_empty()).then(|| session.to_owned())
}

/// A Codex rollout file name: `rollout-….jsonl` or `rollout-….jsonl.zst`.
pub(super) fn is_rollout_name(name: &str) -> bool {
    name.starts_with("rollout-") && (name.ends_with(".jsonl") || name.ends_with(".jsonl.zst"))
}

/// The name of the folder holding `path`.
pub(super) fn parent_name(path: &Path) -> Option<&str> {
    path.parent()?.file_name()?.to_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(path: &str, updated: Option<&str>) -> Listing {
        Listing {
            path: path.into(),
            id: String::new(),
            format: None,
            agent: None,
            cwd: None,
            updated: updated.map(str::to_owned),
            messages: 0,
            model: None,
            skipped: 0,
            session_key: None,
            archive: None,
            parent: None,
            error: None,
        }
    }

    #[test]
    fn path_marks() {
        let p = Path::new;
        assert_eq!(archive_kind(p("s/a.checkpoint.u.jsonl")).as_deref(), Some("checkpoint"));
        assert_eq!(archive_kind(p("s/a.jsonl.reset.2026")).as_deref(), Some("reset"));
        assert_eq!(
            archive_kind(p("c/archived_sessions/rollout-x.jsonl.zst")).as_deref(),
            Some("archived")
        );
        assert_eq!(archive_kind(p("c/sessions/2026/01/02/rollout-x.jsonl")), None);
        assert_eq!(archive_kind(p("c/archived_sessions/notes.jsonl")), None);
        assert_eq!(
            subagent_parent(p("projects/-a/0a1b/subagents/agent-x.jsonl")).as_deref(),
            Some("0a1b")
        );
        assert_eq!(subagent_parent(p("projects/-a/0a1b/subagents/journal.jsonl")), None);
        assert_eq!(subagent_parent(p("projects/-a/agent-x.jsonl")), None);
    }

    #[test]
    fn newest_first_puts_unknown_last_and_breaks_ties_by_path() {
        let mut rows = [
            row("d", None),
            row("c", Some("2026-01-02T03:04:05Z")),
            row("b", Some("2026-01-02T04:04:05+01:00")),
            row("a", Some("2026-01-02T03:04:06.000Z")),
            row("e", Some("garbled")),
        ];
        rows.sort_by(newest_first);
        let order: Vec<_> = rows.iter().map(|r| r.path.to_string_lossy().into_owned()).collect();
        assert_eq!(order, ["a", "b", "c", "e", "d"]);
    }

    #[test]
    fn agent_kind_reads_the_name_back() {
        let mut l = row("x", None);
        assert_eq!(l.agent_kind(), None);
        l.agent = Some(Agent::ClaudeCode.name());
        assert_eq!(l.agent_kind(), Some(Agent::ClaudeCode));
    }
}
