//! Shared test helpers: where the public sample sessions live, and a counting allocator.

#![allow(dead_code)]

pub mod agent_db;
pub mod agent_gen;
pub mod counting;
pub mod source;
pub mod tmux;

use std::path::{Path, PathBuf};

/// `../shared/samples` next to the checkout (or `$REPLAYLENS_SHARED_SAMPLES`).
/// Returns `None` only when the folder is absent and `REPLAYLENS_SAMPLES_OPTIONAL=1`
/// (set by `.ci/run` on machines without the shared folder); otherwise a missing folder
/// fails the test.
pub fn shared_samples() -> Option<PathBuf> {
    let dir = std::env::var_os("REPLAYLENS_SHARED_SAMPLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/samples"));
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("REPLAYLENS_SAMPLES_OPTIONAL").as_deref() == Ok("1") {
        eprintln!("SKIPPED: {} is absent (REPLAYLENS_SAMPLES_OPTIONAL=1)", dir.display());
        return None;
    }
    panic!("the shared sample sessions are missing at {}", dir.display());
}

/// Every file under a folder, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    out.sort();
    out
}

/// Whether a file under the shared samples folder is a session (not its notes, SQL source,
/// metadata or session index).
pub fn is_shared_session_file(path: &Path) -> bool {
    let name = path.to_string_lossy();
    ![".md", ".sql", ".meta.json", "sessions.json"]
        .iter()
        .any(|end| name.ends_with(end))
}

/// The bundled sample sessions of this repository.
pub fn bundled_samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions")
}

/// Path of the built binary.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_replaylens")
}

/// The bundled sample sessions (`.jsonl` and `.sqlite`), sorted.
pub fn bundled_session_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(bundled_samples())
        .expect("sample-sessions/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl" || x == "sqlite"))
        .collect();
    files.sort();
    files
}

/// The shared OpenClaw and pi session JSONL files (empty when the shared folder is absent and
/// optional).
pub fn shared_openclaw_jsonl() -> Vec<PathBuf> {
    let Some(shared) = shared_samples() else {
        return Vec::new();
    };
    files_under(&shared.join("openclaw-jsonl"))
        .into_iter()
        .chain(files_under(&shared.join("pi")))
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect()
}

/// Every file in a folder with its content, to prove a read left the folder as it was.
pub fn folder_state(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(Result::unwrap)
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// The private database copies this process left in the temporary directory.
pub fn leftover_db_copies() -> Vec<PathBuf> {
    let prefix = format!("replaylens-db-{}-", std::process::id());
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect()
}

/// The files the shared samples' `SOURCES.md` lists under its `## {folder}/` heading (the
/// first cell of each table row, as written there: long paths are shortened with `…`), so
/// tests derive their sample counts from the catalogue rather than typing them.
pub fn listed_in_sources(root: &Path, folder: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root.join("SOURCES.md")).expect("SOURCES.md of the shared samples");
    let heading = format!("## {folder}/");
    text.lines()
        .skip_while(|l| l.trim() != heading)
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_owned)
        .collect()
}
