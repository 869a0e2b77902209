//! Finding sessions: in a file, a folder (recursively), a database, or the default
//! locations of every agent replaylens reads (OpenClaw, Claude Code, Codex; see
//! [`defaults`]).

mod defaults;
pub mod glob;
mod listing;

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use walkdir::WalkDir;

pub use defaults::{default_roots, default_sources, root_env_var, state_dir};
pub use listing::{AGENTS, Listing, newest_first};

use super::{LoadError, LoadOptions, is_database, load_path, sqlite};
use crate::model::SessionFormat;

/// Whether a file name looks like a session source worth trying in a folder scan.
fn is_candidate(path: &Path) -> bool {
    // A name that is not valid UTF-8 is judged by its bytes, never skipped for it.
    let Some(name) = path.file_name().map(|n| n.to_string_lossy()) else {
        return false;
    };
    let named = name.ends_with(".jsonl")
        || name.contains(".jsonl.")
        || name.ends_with(".sqlite")
        || name.ends_with(".db")
        || (name.ends_with(".json") && name != "sessions.json" && !name.ends_with(".meta.json"));
    named && !is_scratch(&name) && !defaults::is_excluded(path)
}

/// Names that are never sessions although they may contain `.jsonl.`: OpenClaw's session write
/// lock (`<file>.lock`) and replaylens's own temporaries, repair backups and undo links
/// (`.<name>.<random>.replaylens-tmp`, `-bak`, `-old`), which a killed process may leave.
pub fn is_scratch(name: &str) -> bool {
    name.ends_with(".lock")
        || [".replaylens-tmp", ".replaylens-bak", ".replaylens-old"]
            .iter()
            .any(|s| name.ends_with(s))
}

/// List the sessions in a file, folder or database. A folder is searched recursively, in
/// path order, for every format (Claude Code `subagents/` transcripts and Codex
/// `.jsonl.zst` rollouts included; `*.meta.json`, `journal.jsonl` and `tool-results/` are
/// not sessions).
pub fn list_path(path: &Path) -> Result<Vec<Listing>, LoadError> {
    if path.is_dir() {
        let files = sources_under(path);
        return Ok(files.par_iter().flat_map_iter(|f| list_file(f)).collect());
    }
    if !path.exists() {
        return Err(LoadError::io(
            path,
            std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or folder"),
        ));
    }
    if is_database(path) {
        return Ok(list_database(path, sqlite::load_all_windows(path)?));
    }
    let session = load_path(path, &LoadOptions::default())?;
    Ok(vec![Listing::from_session(path, &session)])
}

/// The session sources in a folder, searched recursively, in path order: every file named
/// like a session of any format (a plain `.jsonl` wins over its `.jsonl.zst`; side files
/// such as `*.meta.json`, `journal.jsonl` and `tool-results/` are left out).
pub fn sources_under(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = WalkDir::new(folder)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| !(e.file_type().is_dir() && e.file_name() == "tool-results"))
        .filter_map(|entry| match entry {
            // Symlinks, FIFOs and devices with a session name are listed too: loading them
            // reports what they are (an error row), rather than skipping them in silence.
            Ok(e) => (!e.file_type().is_dir() && is_candidate(e.path())).then(|| e.into_path()),
            // A subfolder that cannot be read is listed too: loading it names the reason.
            Err(e) => e.path().filter(|p| *p != folder).map(Path::to_path_buf),
        })
        .collect();
    files.sort();
    glob::one_per_file(defaults::prefer_plain(files))
}

/// List one file: one row per session (a database has one per transcript window).
fn list_file(path: &Path) -> Vec<Listing> {
    if !is_database(path) {
        return vec![match load_path(path, &LoadOptions::default()) {
            Ok(s) => Listing::from_session(path, &s),
            Err(e) => Listing::from_error(path, &e),
        }];
    }
    match sqlite::load_all_windows(path) {
        Ok(windows) => list_database(path, windows),
        Err(e) => vec![Listing::from_error(path, &e)],
    }
}

/// One row per database window, from sessions loaded over one connection.
fn list_database(path: &Path, windows: Vec<sqlite::LoadedWindow>) -> Vec<Listing> {
    windows
        .into_iter()
        .map(|(w, session)| {
            let mut l = match session {
                Ok(s) => Listing::from_session(path, &s),
                Err(e) => Listing::from_error(path, &e),
            };
            l.id = w.session_id;
            l.session_key = w.window.session_key;
            if !w.window.current {
                l.archive = Some(match &w.window.reason {
                    Some(reason) => format!("previous window, started by {reason}"),
                    None => "previous window".into(),
                });
            }
            if l.format.is_none() {
                l.format = Some(SessionFormat::OpenClawSqlite.as_str());
                l.agent = Some(SessionFormat::OpenClawSqlite.agent().name());
            }
            l
        })
        .collect()
}

/// List the sessions in every agent's default location, newest first (unknown last; ties
/// in path order). A file that could not be read is named by the agent whose folder holds it.
pub fn list_default() -> Vec<Listing> {
    let mut out: Vec<Listing> = defaults::agent_sources()
        .par_iter()
        .flat_map_iter(|(agent, path)| {
            list_file(path).into_iter().map(|mut l| {
                l.agent.get_or_insert(agent.name());
                l
            })
        })
        .collect();
    out.sort_by(newest_first);
    out
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn folder_scan_takes_every_layout_and_skips_side_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for rel in [
            "p/u1.jsonl",
            "p/u1/subagents/agent-x.jsonl",
            "p/u1/subagents/agent-x.meta.json",
            "p/u1/subagents/journal.jsonl",
            "p/u1.jsonl.lock",
            "p/.u1.jsonl.00ff00ff00ff00ff.replaylens-bak",
            "p/.u1.jsonl.00ff00ff00ff00ff.replaylens-tmp",
            "p/u1/tool-results/t1.txt",
            "p/u1/tool-results/t2.json",
            "c/rollout-a.jsonl",
            "c/rollout-a.jsonl.zst",
            "c/rollout-b.jsonl.zst",
            "s/sessions.json",
        ] {
            let path = root.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "not json\n").unwrap();
        }
        let listed = list_path(root).unwrap();
        let names: Vec<String> = listed
            .iter()
            .map(|l| l.path.strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "c/rollout-a.jsonl",
                "c/rollout-b.jsonl.zst",
                "p/u1/subagents/agent-x.jsonl",
                "p/u1.jsonl"
            ]
        );
        assert_eq!(listed[2].parent.as_deref(), Some("u1"));
        assert!(listed.iter().all(|l| l.error.is_some()));
    }
}
