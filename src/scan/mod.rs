//! Fleet scan: every session in folders, files and databases, replayed and linted for one
//! or more targets, one small row per session.
//!
//! Sources are processed in batches across cores (rayon); each batch's rows are handed
//! to the caller in source order before the next batch starts, so output streams, order is
//! deterministic, and memory is bounded by the sessions of one batch, not by the fleet.

pub mod parquet;
pub mod releases;
mod row;
mod summary;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

pub use row::{SessionScan, TargetScan, Verdict, target_scan};
pub use summary::{Summary, WorstSession};

use crate::hygiene::ReplayOptions;
use crate::load::{LoadOptions, is_database, load_path, sqlite};
use crate::policy::Target;

/// What to scan for.
#[derive(Debug, Clone, Default)]
pub struct ScanOptions {
    /// The targets; empty means each session's own target.
    pub targets: Vec<Target>,
    /// Replay options (rule set, tools, image size).
    pub replay: ReplayOptions,
    /// Load options (limits).
    pub load: LoadOptions,
}

impl ScanOptions {
    /// The targets to scan each session for: the given ones, or the session's own.
    pub fn effective_targets(&self) -> Vec<Target> {
        if self.targets.is_empty() {
            vec![Target::default()]
        } else {
            self.targets.clone()
        }
    }
}

/// How many sources are processed at once per core: a batch's sessions are the only ones in
/// memory at a time.
const BATCH_PER_THREAD: usize = 4;

/// Scan every source, calling `on_row` with each session's row in source order and
/// `on_progress(bytes)` as each source is done (from worker threads).
pub fn scan(
    sources: &[PathBuf],
    options: &ScanOptions,
    on_progress: &(dyn Fn(u64) + Sync),
    on_row: &mut dyn FnMut(SessionScan),
) {
    let batch = rayon::current_num_threads().max(1) * BATCH_PER_THREAD;
    for chunk in sources.chunks(batch) {
        let rows: Vec<Vec<SessionScan>> = chunk
            .par_iter()
            .map(|path| {
                let rows = scan_source(path, options);
                on_progress(std::fs::metadata(path).map_or(0, |m| m.len()));
                rows
            })
            .collect();
        for row in rows.into_iter().flatten() {
            on_row(row);
        }
    }
}

/// Scan one file: one row per session (a database has one per transcript window; a file
/// that can't be read is one row with its error).
pub fn scan_source(path: &Path, options: &ScanOptions) -> Vec<SessionScan> {
    let targets = options.effective_targets();
    if !is_database(path) {
        let bytes = std::fs::metadata(path).ok().map(|m| m.len());
        return vec![match load_path(path, &options.load) {
            Ok(session) => SessionScan::of_session(path, &session, bytes, &targets, &options.replay),
            Err(e) => SessionScan::of_error(path, &e.to_string()),
        }];
    }
    match sqlite::load_all_windows(path) {
        Ok(windows) => windows
            .into_iter()
            .map(|(w, session)| {
                let mut row = match session {
                    Ok(s) => SessionScan::of_session(path, &s, None, &targets, &options.replay),
                    Err(e) => SessionScan::of_error(path, &e.to_string()),
                };
                row.id = w.session_id;
                row.session_key = w.window.session_key;
                row
            })
            .collect(),
        Err(e) => vec![SessionScan::of_error(path, &e.to_string())],
    }
}
