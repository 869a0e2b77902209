//! The default locations of each agent's sessions (`docs/internals.md`, "What is read, and how"), each
//! root overridable by an environment variable (set to an empty string = unset):
//!
//! - OpenClaw: `$OPENCLAW_STATE_DIR`, else `~/.openclaw`: `agents/*/agent/openclaw-agent.sqlite`
//!   and `agents/*/sessions/*.jsonl`;
//! - Claude Code: `$CLAUDE_CONFIG_DIR`, else `~/.claude`: `projects/<encoded-cwd>/*.jsonl` and
//!   the sub-agent transcripts `projects/<encoded-cwd>/<sessionId>/subagents/agent-*.jsonl`;
//! - Codex: `$CODEX_HOME`, else `~/.codex`: `sessions/YYYY/MM/DD/rollout-*.jsonl[.zst]` and
//!   `archived_sessions/rollout-*.jsonl[.zst]` (a plain `.jsonl` wins over its `.zst`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::listing::{is_rollout_name, parent_name};
use crate::model::Agent;

/// The agents whose default locations are searched, in this order.
const SEARCHED: [Agent; 3] = [Agent::OpenClaw, Agent::ClaudeCode, Agent::Codex];

/// The environment variable that overrides an agent's root folder (pi has none searched).
pub fn root_env_var(agent: Agent) -> Option<&'static str> {
    match agent {
        Agent::OpenClaw => Some("OPENCLAW_STATE_DIR"),
        Agent::ClaudeCode => Some("CLAUDE_CONFIG_DIR"),
        Agent::Codex => Some("CODEX_HOME"),
        Agent::Pi => None,
    }
}

/// The folder under the home folder an agent's root defaults to (`~/.openclaw`, …).
fn home_folder_name(agent: Agent) -> Option<&'static str> {
    match agent {
        Agent::OpenClaw => Some(".openclaw"),
        Agent::ClaudeCode => Some(".claude"),
        Agent::Codex => Some(".codex"),
        Agent::Pi => None,
    }
}

/// The OpenClaw state folder: `$OPENCLAW_STATE_DIR`, else `~/.openclaw`.
pub fn state_dir() -> Option<PathBuf> {
    root_for(Agent::OpenClaw, &env_var, std::env::home_dir().as_deref())
}

/// The root folder of every agent searched by default (OpenClaw, Claude Code, Codex), from
/// its environment variable or the home folder; an agent is left out only when neither is
/// known.
pub fn default_roots() -> Vec<(Agent, PathBuf)> {
    roots_from(&env_var, std::env::home_dir().as_deref())
}

/// The session sources in every agent's default location, grouped by agent.
pub fn default_sources() -> Vec<PathBuf> {
    agent_sources().into_iter().map(|(_, p)| p).collect()
}

/// The session sources in the default locations, each with the agent whose root it is under.
pub(super) fn agent_sources() -> Vec<(Agent, PathBuf)> {
    sources_in(&default_roots())
}

/// A non-empty environment variable.
fn env_var(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

/// One agent's root, from `env` (unset or empty: from `home`).
fn root_for(agent: Agent, env: &dyn Fn(&str) -> Option<OsString>, home: Option<&Path>) -> Option<PathBuf> {
    if let Some(dir) = root_env_var(agent).and_then(env).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    Some(home?.join(home_folder_name(agent)?))
}

/// Every searched agent's root.
fn roots_from(env: &dyn Fn(&str) -> Option<OsString>, home: Option<&Path>) -> Vec<(Agent, PathBuf)> {
    SEARCHED
        .into_iter()
        .filter_map(|agent| root_for(agent, env, home).map(|root| (agent, root)))
        .collect()
}

/// The session sources under each root.
fn sources_in(roots: &[(Agent, PathBuf)]) -> Vec<(Agent, PathBuf)> {
    roots
        .iter()
        .flat_map(|(agent, root)| {
            let files = match agent {
                Agent::OpenClaw => openclaw_sources(root),
                Agent::ClaudeCode => claude_code_sources(root),
                Agent::Codex => codex_sources(root),
                Agent::Pi => Vec::new(),
            };
            files.into_iter().map(|f| (*agent, f))
        })
        .collect()
}

/// The entries of a folder, sorted; none when it cannot be read.
fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    out.sort();
    out
}

/// Whether a folder entry is named `*.jsonl` and is not a folder. Symlinks, FIFOs and devices
/// are kept: loading them reports what they are, rather than skipping them in silence.
fn is_jsonl_file(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "jsonl") && !path.is_dir()
}

/// OpenClaw: `agents/*/agent/openclaw-agent.sqlite` and `agents/*/sessions/*.jsonl`.
fn openclaw_sources(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for agent in sorted_entries(&root.join("agents")) {
        let db = agent.join("agent").join("openclaw-agent.sqlite");
        if db.is_file() {
            out.push(db);
        }
        out.extend(
            sorted_entries(&agent.join("sessions"))
                .into_iter()
                .filter(|p| is_jsonl_file(p)),
        );
    }
    out
}

/// Claude Code: `projects/*/*.jsonl` and `projects/*/<sessionId>/subagents/agent-*.jsonl`;
/// `journal.jsonl`, `*.meta.json` and `tool-results/` are not sessions.
fn claude_code_sources(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for project in sorted_entries(&root.join("projects")) {
        if !project.is_dir() {
            continue;
        }
        for entry in sorted_entries(&project) {
            if entry.is_dir() {
                out.extend(
                    sorted_entries(&entry.join("subagents"))
                        .into_iter()
                        .filter(|p| is_jsonl_file(p) && is_subagent_name(p)),
                );
            } else if is_jsonl_file(&entry) && !is_excluded(&entry) {
                out.push(entry);
            }
        }
    }
    out
}

/// Whether a file in `subagents/` is a sub-agent transcript (`agent-*.jsonl`).
fn is_subagent_name(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("agent-"))
}

/// Codex: `sessions/**/rollout-*.jsonl[.zst]` (dated folders, and the older flat layout) and
/// `archived_sessions/rollout-*.jsonl[.zst]`.
fn codex_sources(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (folder, depth) in [("sessions", 4), ("archived_sessions", 1)] {
        let mut files: Vec<PathBuf> = WalkDir::new(root.join(folder))
            .max_depth(depth)
            .follow_links(false)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| !e.file_type().is_dir() && e.file_name().to_str().is_some_and(is_rollout_name))
            .map(walkdir::DirEntry::into_path)
            .collect();
        files.sort();
        out.extend(files);
    }
    prefer_plain(out)
}

/// Drop a Codex `rollout-….jsonl.zst` when the plain `rollout-….jsonl` beside it is listed too.
pub(super) fn prefer_plain(files: Vec<PathBuf>) -> Vec<PathBuf> {
    let listed: std::collections::HashSet<PathBuf> = files.iter().cloned().collect();
    files
        .into_iter()
        .filter(|f| {
            let Some(name) = f.file_name().and_then(|n| n.to_str()) else {
                return true;
            };
            match name.strip_suffix(".zst") {
                Some(plain) if is_rollout_name(name) => !listed.contains(&f.with_file_name(plain)),
                _ => true,
            }
        })
        .collect()
}

/// Files a folder scan skips: Claude Code's sub-agent `journal.jsonl` (lifecycle, not a
/// conversation) and anything under `tool-results/` (large tool outputs).
pub(super) fn is_excluded(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str());
    (name == Some("journal.jsonl") && parent_name(path) == Some("subagents"))
        || path.components().any(|c| c.as_os_str() == "tool-results")
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn touch(root: &Path, rel: &str) {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "{}\n").unwrap();
    }

    #[test]
    fn roots_honour_env_vars_and_treat_empty_as_unset() {
        let home = Path::new("/h");
        let env = |name: &str| match name {
            "CODEX_HOME" => Some(OsString::from("/elsewhere/codex")),
            "CLAUDE_CONFIG_DIR" => Some(OsString::new()),
            _ => None,
        };
        let roots = roots_from(&env, Some(home));
        assert_eq!(
            roots,
            vec![
                (Agent::OpenClaw, PathBuf::from("/h/.openclaw")),
                (Agent::ClaudeCode, PathBuf::from("/h/.claude")),
                (Agent::Codex, PathBuf::from("/elsewhere/codex")),
            ]
        );
        let roots = roots_from(&env, None);
        assert_eq!(roots, vec![(Agent::Codex, PathBuf::from("/elsewhere/codex"))]);
    }

    #[test]
    fn sources_follow_each_layout() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for rel in [
            "oc/agents/main/sessions/s1.jsonl",
            "oc/agents/main/sessions/sessions.json",
            "cc/projects/-home-u-app/u1.jsonl",
            "cc/projects/-home-u-app/u1/subagents/agent-x.jsonl",
            "cc/projects/-home-u-app/u1/subagents/agent-x.meta.json",
            "cc/projects/-home-u-app/u1/subagents/journal.jsonl",
            "cc/projects/-home-u-app/u1/tool-results/t1.txt",
            "cx/sessions/2026/01/02/rollout-a.jsonl",
            "cx/sessions/2026/01/02/rollout-a.jsonl.zst",
            "cx/sessions/2026/01/03/rollout-b.jsonl.zst",
            "cx/sessions/2026/01/03/notes.jsonl",
            "cx/archived_sessions/rollout-c.jsonl",
        ] {
            touch(root, rel);
        }
        let roots = [
            (Agent::OpenClaw, root.join("oc")),
            (Agent::ClaudeCode, root.join("cc")),
            (Agent::Codex, root.join("cx")),
        ];
        let found: Vec<(Agent, String)> = sources_in(&roots)
            .into_iter()
            .map(|(a, p)| (a, p.strip_prefix(root).unwrap().to_string_lossy().into_owned()))
            .collect();
        let expect = |a, p: &str| (a, p.to_owned());
        assert_eq!(
            found,
            vec![
                expect(Agent::OpenClaw, "oc/agents/main/sessions/s1.jsonl"),
                expect(Agent::ClaudeCode, "cc/projects/-home-u-app/u1/subagents/agent-x.jsonl"),
                expect(Agent::ClaudeCode, "cc/projects/-home-u-app/u1.jsonl"),
                expect(Agent::Codex, "cx/sessions/2026/01/02/rollout-a.jsonl"),
                expect(Agent::Codex, "cx/sessions/2026/01/03/rollout-b.jsonl.zst"),
                expect(Agent::Codex, "cx/archived_sessions/rollout-c.jsonl"),
            ]
        );
    }

    #[test]
    fn exclusions() {
        assert!(is_excluded(Path::new("p/u1/subagents/journal.jsonl")));
        assert!(is_excluded(Path::new("p/u1/tool-results/t.json")));
        assert!(!is_excluded(Path::new("p/u1/subagents/agent-x.jsonl")));
        assert!(!is_excluded(Path::new("notes/journal.jsonl")));
    }
}
