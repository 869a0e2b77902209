//! Finding sessions: in a file, a folder (recursively), a database, or the default
//! OpenClaw locations (`$OPENCLAW_STATE_DIR`, else `~/.openclaw`).

use std::path::{Path, PathBuf};

use serde::Serialize;
use walkdir::WalkDir;

use super::{LoadError, LoadOptions, is_database, load_path, sqlite};
use crate::model::{Session, SessionFormat};

/// One session found on disk, summarised for a listing.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    /// The file or database.
    pub path: PathBuf,
    /// The session id (`--session` value for databases).
    pub id: String,
    /// Format name, when it loaded.
    pub format: Option<&'static str>,
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
    /// `checkpoint`, `reset`, `deleted` or a database window reason, when not a live session.
    pub archive: Option<String>,
    /// Why it could not be loaded, when it could not.
    pub error: Option<String>,
}

impl Listing {
    fn from_session(path: &Path, s: &Session) -> Self {
        let t = s.transcript();
        let model = match (&t.model.provider, &t.model.model) {
            (Some(p), Some(m)) => Some(format!("{p}/{m}")),
            (None, Some(m)) => Some(m.clone()),
            (Some(p), None) => Some(p.clone()),
            (None, None) => None,
        };
        Self {
            path: path.to_owned(),
            id: s.id.clone(),
            format: Some(s.format.as_str()),
            updated: s.last_update(),
            messages: t.messages.len(),
            model,
            skipped: s.skipped_count(),
            session_key: s.db_window.as_ref().and_then(|w| w.session_key.clone()),
            archive: archive_kind(path),
            error: None,
        }
    }

    fn from_error(path: &Path, e: &LoadError) -> Self {
        Self {
            path: path.to_owned(),
            id: path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned(),
            format: None,
            updated: None,
            messages: 0,
            model: None,
            skipped: 0,
            session_key: None,
            archive: archive_kind(path),
            error: Some(e.to_string()),
        }
    }
}

/// Legacy archive siblings: `<id>.checkpoint.<uuid>.jsonl`, `<id>.jsonl.reset.<ts>`, ….
fn archive_kind(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    ["checkpoint", "reset", "deleted"]
        .iter()
        .find(|k| name.contains(&format!(".{k}.")))
        .map(|k| (*k).to_owned())
}

/// Whether a file name looks like a session source worth trying in a folder scan.
fn is_candidate(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    name.ends_with(".jsonl")
        || name.contains(".jsonl.")
        || name.ends_with(".sqlite")
        || name.ends_with(".db")
        || (name.ends_with(".json") && name != "sessions.json" && !name.ends_with(".meta.json"))
}

/// List the sessions in a file, folder or database.
pub fn list_path(path: &Path) -> Result<Vec<Listing>, LoadError> {
    if path.is_dir() {
        let mut out = Vec::new();
        let mut files: Vec<PathBuf> = WalkDir::new(path)
            .follow_links(false)
            .into_iter()
            .filter_map(Result::ok)
            // Symlinks, FIFOs and devices with a session name are listed too: loading them
            // reports what they are (an error row), rather than skipping them in silence.
            .filter(|e| !e.file_type().is_dir() && is_candidate(e.path()))
            .map(|e| e.into_path())
            .collect();
        files.sort();
        for f in files {
            out.extend(list_file(&f));
        }
        return Ok(out);
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
            }
            l
        })
        .collect()
}

/// The OpenClaw state folder: `$OPENCLAW_STATE_DIR`, else `~/.openclaw`.
pub fn state_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("OPENCLAW_STATE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    std::env::home_dir().map(|h| h.join(".openclaw"))
}

/// The session sources in the default locations:
/// `agents/*/agent/openclaw-agent.sqlite` and `agents/*/sessions/*.jsonl`.
pub fn default_sources() -> Vec<PathBuf> {
    let Some(root) = state_dir() else { return Vec::new() };
    let mut out = Vec::new();
    let Ok(agents) = std::fs::read_dir(root.join("agents")) else {
        return out;
    };
    let mut agents: Vec<PathBuf> = agents.filter_map(Result::ok).map(|e| e.path()).collect();
    agents.sort();
    for agent in agents {
        let db = agent.join("agent").join("openclaw-agent.sqlite");
        if db.is_file() {
            out.push(db);
        }
        if let Ok(files) = std::fs::read_dir(agent.join("sessions")) {
            let mut files: Vec<PathBuf> = files
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
                .collect();
            files.sort();
            out.extend(files);
        }
    }
    out
}

/// List the sessions in the default locations.
pub fn list_default() -> Vec<Listing> {
    default_sources().iter().flat_map(|p| list_file(p)).collect()
}
