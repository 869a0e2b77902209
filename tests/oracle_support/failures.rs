//! Failing random cases: choosing a varied few, shrinking them on the oracle processes and
//! saving them as request files that `REPLAYLENS_ORACLE_REPLAY` runs again.

use std::collections::{BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::cases::{self, Case, Origin};
use super::compare::Difference;
use super::oracle::{OraclePool, OracleProcess};
use super::shrink::{Shrunk, shrink};

/// Most failing cases shrunk per run.
pub const MAX_SHRUNK_CASES: usize = 5;
/// Most oracle calls spent shrinking one case.
pub const SHRINK_BUDGET: usize = 200;

/// Shrink up to `MAX_SHRUNK_CASES` failing random cases, as different as possible (a new path
/// kind first, then a new target and signature), one oracle process per worker.
pub fn shrink_failures(pool: &mut OraclePool, cases: &[Case], pinned: &[(usize, Difference)]) -> Vec<Shrunk> {
    let random: Vec<&(usize, Difference)> = pinned
        .iter()
        .filter(|(i, _)| cases[*i].origin == Origin::Random)
        .collect();
    let mut chosen: Vec<(usize, Difference)> = Vec::new();
    let mut kinds = BTreeSet::new();
    let mut signatures = BTreeSet::new();
    for pass in 0..3 {
        for (i, d) in &random {
            let fresh = match pass {
                0 => kinds.insert(d.path_kind()),
                1 => signatures.insert((cases[*i].target.clone(), d.signature())),
                _ => true,
            };
            if fresh && chosen.len() < MAX_SHRUNK_CASES && !chosen.iter().any(|(j, _)| j == i) {
                chosen.push((*i, d.clone()));
            }
        }
    }
    let queue = Mutex::new(chosen.into_iter().collect::<VecDeque<_>>());
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for process in pool.processes.iter_mut() {
            let (queue, results) = (&queue, &results);
            scope.spawn(move || {
                let process: &mut OracleProcess = process;
                while let Some((i, d)) = queue.lock().ok().and_then(|mut q| q.pop_front()) {
                    let shrunk = shrink(&cases[i], &d, process, SHRINK_BUDGET);
                    if let Ok(mut r) = results.lock() {
                        r.push(shrunk);
                    }
                }
            });
        }
    });
    let mut out = results.into_inner().unwrap_or_default();
    out.sort_by(|a, b| a.case.id.cmp(&b.case.id));
    out
}

/// Save shrunk cases to `<manifest_dir>/target/oracle-failures/`; returns what was written.
pub fn save_shrunk<'a>(shrunk: &'a [Shrunk], manifest_dir: &Path) -> Vec<(PathBuf, &'a Shrunk)> {
    let dir = manifest_dir.join("target/oracle-failures");
    if std::fs::create_dir_all(&dir).is_err() {
        return Vec::new();
    }
    shrunk
        .iter()
        .filter_map(|s| {
            let path = dir.join(cases::sanitized_file_name(&s.case.id));
            std::fs::write(&path, s.case.saved_request() + "\n").ok()?;
            Some((path, s))
        })
        .collect()
}

/// `path` relative to the project folder, for messages.
pub fn relative(path: &Path, manifest_dir: &Path) -> String {
    path.strip_prefix(manifest_dir).unwrap_or(path).display().to_string()
}

/// One `rerun:` command line per saved case.
pub fn rerun_hints(saved: &[(PathBuf, &Shrunk)], manifest_dir: &Path) -> String {
    saved
        .iter()
        .map(|(path, _)| {
            format!(
                "  rerun: REPLAYLENS_ORACLE_REPLAY={} cargo test --test oracle_differential -- --nocapture\n",
                relative(path, manifest_dir)
            )
        })
        .collect()
}
