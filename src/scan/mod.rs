//! Fleet scan: every session in folders, files and databases, replayed and linted for one
//! or more targets, one small row per session.
//!
//! Sources are processed across cores (rayon's threads), each thread taking the next source
//! when it is free; rows are handed to the caller in source order through a small reorder
//! window, so output streams, order is deterministic, and memory is bounded by the window,
//! not by the fleet.

mod budget;
pub mod parquet;
pub mod releases;
mod row;
mod summary;

use std::path::{Path, PathBuf};

pub use budget::{BYTES_PER_SESSION_BYTE, DEFAULT_MEMORY_BUDGET};
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
    /// The memory the workers' sessions in flight may hold together, estimated (see
    /// [`budget::estimate`]); `None`: [`DEFAULT_MEMORY_BUDGET`].
    pub memory_budget: Option<u64>,
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

/// How many sources may be done ahead of the next row to be handed out, per thread: the
/// only sessions' rows held at a time (a session itself is dropped once its row is made).
const AHEAD_PER_THREAD: usize = 16;

/// Scan every source, calling `on_row` with each session's row in source order and
/// `on_progress(bytes)` as each source is done (from worker threads).
///
/// Each worker thread takes the next source as soon as it is free (a large session never
/// holds the other threads back), and rows wait in a small reorder window until their turn;
/// a worker that would run further ahead than the window waits. Output streams, its order is
/// deterministic, and memory is bounded by the window, not by the fleet.
pub fn scan(
    sources: &[PathBuf],
    options: &ScanOptions,
    on_progress: &(dyn Fn(u64) + Sync),
    on_row: &mut dyn FnMut(SessionScan),
) {
    let threads = rayon::current_num_threads().max(1);
    if threads == 1 || sources.len() < 2 {
        for path in sources {
            let rows = scan_source(path, options);
            on_progress(std::fs::metadata(path).map_or(0, |m| m.len()));
            rows.into_iter().for_each(&mut *on_row);
        }
        return;
    }
    let window = Window::new(threads * AHEAD_PER_THREAD);
    let budget = budget::Budget::new(options.memory_budget.unwrap_or(DEFAULT_MEMORY_BUDGET));
    let (done_tx, done_rx) = std::sync::mpsc::channel::<(usize, Vec<SessionScan>)>();
    // Plain threads, not rayon tasks: a worker blocked on the window inside a rayon task could
    // hold, further down its stack, a task stolen while it waited in a nested parallel loop.
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let done_tx = done_tx.clone();
            let window = &window;
            let budget = &budget;
            scope.spawn(move || {
                while let Some(i) = window.claim(sources.len()) {
                    // Held until the session is dropped with its rows made.
                    let grant = budget.take(budget::estimate(&sources[i], &options.load.limits));
                    // A panic would leave its place in the window empty and the other workers
                    // waiting for it: it becomes the source's error row instead.
                    // One session per thread already fills the cores: its images are decoded
                    // in line, not spread over rayon's threads as well.
                    let rows = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        crate::openclaw::image::cache::in_line(|| scan_source(&sources[i], options))
                    }))
                    .unwrap_or_else(|_| {
                        vec![SessionScan::of_error(
                            &sources[i],
                            "internal error while scanning this source",
                        )]
                    });
                    drop(grant);
                    on_progress(std::fs::metadata(&sources[i]).map_or(0, |m| m.len()));
                    if done_tx.send((i, rows)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        let mut waiting: std::collections::BTreeMap<usize, Vec<SessionScan>> = Default::default();
        let mut next = 0;
        for (i, rows) in done_rx {
            waiting.insert(i, rows);
            while let Some(rows) = waiting.remove(&next) {
                rows.into_iter().for_each(&mut *on_row);
                next += 1;
                window.handed_out(next);
            }
        }
    });
}

/// The sources claimed so far and how far rows were handed out, shared by the workers.
struct Window {
    size: usize,
    state: std::sync::Mutex<(usize, usize)>,
    moved: std::sync::Condvar,
}

impl Window {
    fn new(size: usize) -> Self {
        Self {
            size,
            state: std::sync::Mutex::new((0, 0)),
            moved: std::sync::Condvar::new(),
        }
    }

    /// The next source to scan, once it is within the window of the rows handed out; none
    /// when every source is claimed.
    fn claim(&self, total: usize) -> Option<usize> {
        let mut state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        loop {
            let (claimed, handed) = *state;
            if claimed >= total {
                return None;
            }
            if claimed < handed + self.size {
                state.0 += 1;
                return Some(claimed);
            }
            state = self
                .moved
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// Rows up to `handed` (exclusive) were handed out.
    fn handed_out(&self, handed: usize) {
        let mut state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        state.1 = handed;
        self.moved.notify_all();
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
