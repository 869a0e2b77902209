//! Sample sessions as message arrays: every `*.jsonl` and `*.sqlite` window of the bundled
//! `sample-sessions/`, and every file of the shared samples folder that replaylens loads.

use std::path::{Path, PathBuf};

use replaylens::load::sqlite::load_all_windows;
use replaylens::load::{LoadOptions, is_database, load_path};
use replaylens::model::Session;
use replaylens::model::json::Value;

/// The loaded sample sessions and the files that did not load.
#[derive(Debug, Default)]
pub struct Samples {
    /// `(label, stored transcript as a message array)`, label like `sample-sessions/x.jsonl#id`.
    pub sessions: Vec<(String, Vec<Value>)>,
    /// Files (and database windows) that did not load, with the reason.
    pub skipped: Vec<String>,
    /// Remarks (e.g. the shared folder is absent).
    pub notes: Vec<String>,
}

/// The shared samples folder: `$REPLAYLENS_SHARED_SAMPLES` or `../shared/samples`.
pub fn shared_dir(manifest_dir: &Path) -> PathBuf {
    std::env::var_os("REPLAYLENS_SHARED_SAMPLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest_dir.join("../shared/samples"))
}

/// Load every sample session.
pub fn load_samples(manifest_dir: &Path) -> Samples {
    let mut out = Samples::default();
    let bundled = manifest_dir.join("sample-sessions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&bundled)
        .map(|rd| rd.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "jsonl" || x == "sqlite"));
    files.sort();
    for file in files {
        add_file(&mut out, &file, &format!("sample-sessions/{}", file_name(&file)));
    }
    let shared = shared_dir(manifest_dir);
    if !shared.is_dir() {
        out.notes.push(format!("shared samples absent at {}", shared.display()));
        return out;
    }
    let mut shared_files: Vec<PathBuf> = walkdir::WalkDir::new(&shared)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    shared_files.sort();
    for file in shared_files {
        let rel = file
            .strip_prefix(&shared)
            .unwrap_or(&file)
            .to_string_lossy()
            .into_owned();
        add_file(&mut out, &file, &format!("shared/{rel}"));
    }
    out
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn add_file(out: &mut Samples, file: &Path, label: &str) {
    if is_database(file) {
        match load_all_windows(file) {
            Ok(windows) => {
                for (window, session) in windows {
                    let label = format!("{label}#{}", window.session_id);
                    match session {
                        Ok(s) => out.sessions.push((label, messages_of(&s))),
                        Err(e) => out.skipped.push(format!("{label}: {}", reason(file, &e))),
                    }
                }
            }
            Err(e) => out.skipped.push(format!("{label}: {}", reason(file, &e))),
        }
        return;
    }
    match load_path(file, &LoadOptions::default()) {
        Ok(s) => out.sessions.push((label.to_owned(), messages_of(&s))),
        Err(e) => out.skipped.push(format!("{label}: {}", reason(file, &e))),
    }
}

/// The load error's first line without the file path it starts with.
fn reason(file: &Path, error: &impl std::fmt::Display) -> String {
    let text = error.to_string().replace(&*file.to_string_lossy(), "");
    super::oracle::truncate(text.lines().next().unwrap_or("").trim(), 90)
}

/// The stored transcript (active branch, latest compaction applied) as a message array.
fn messages_of(session: &Session) -> Vec<Value> {
    session
        .transcript()
        .messages
        .iter()
        .filter_map(|m| replaylens::model::json::to_value(m.message.as_ref()).ok())
        .collect()
}
