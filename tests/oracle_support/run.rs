//! Running the message cases in chunks: the oracle processes work on a chunk while replaylens
//! replays the same chunk in this thread; then the chunk is judged and dropped, so memory stays
//! bounded by the chunk size (at most `CHUNK_CASES` cases and about `CHUNK_BYTES` of requests).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use replaylens::json;
use replaylens::model::json::Value;

use super::cases::Case;
use super::check::{LensRuns, lens_runs, verdict};
use super::compare::Difference;
use super::lens::RuleSetName;
use super::oracle::OraclePool;
use super::report::{Finding, Totals};

/// Most cases sent to the oracle at once.
const CHUNK_CASES: usize = 256;
/// Request bytes after which a chunk is closed (a large sample session makes a chunk of its own).
const CHUNK_BYTES: usize = 8 << 20;

/// What the message comparisons found.
#[derive(Debug, Default)]
pub struct Tally {
    /// Every differing case (one finding per run, or one for both runs).
    pub findings: Vec<Finding>,
    /// Index into the cases and first difference of every case differing under `2026.9.6`.
    pub pinned_failures: Vec<(usize, Difference)>,
    /// Rules that rewrote something in at least one replay.
    pub rules_fired: BTreeSet<&'static str>,
    /// Time replaylens took (both rule sets), while the oracle processes ran beside it.
    pub lens_time: Duration,
}

/// The oracle's replies, replaylens' runs, and the time replaylens took.
type ChunkResult = (Result<Vec<Value>, String>, Vec<LensRuns>, Duration);

fn run_chunk(pool: &mut OraclePool, cases: &[Case], requests: &[String], strict: RuleSetName) -> ChunkResult {
    std::thread::scope(|scope| {
        let oracle = scope.spawn(|| pool.run(requests));
        let started = Instant::now();
        // replaylens is the slower side (debug build): two threads share its cases, the
        // halves joined in order.
        let half = cases.len().div_ceil(2);
        let (front, back) = cases.split_at(half);
        let second = scope.spawn(move || back.iter().map(|c| lens_runs(c, strict)).collect::<Vec<LensRuns>>());
        let mut lens: Vec<LensRuns> = front.iter().map(|c| lens_runs(c, strict)).collect();
        lens.extend(second.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        let lens_time = started.elapsed();
        let replies = oracle
            .join()
            .unwrap_or_else(|_| Err("the oracle thread panicked".into()));
        (replies, lens, lens_time)
    })
}

/// Run and judge every case, counting into `totals`; `strict` is the rule set that must equal
/// the oracle exactly.
pub fn run_all(
    pool: &mut OraclePool,
    cases: &[Case],
    totals: &mut Totals,
    strict: RuleSetName,
) -> Result<Tally, String> {
    let mut tally = Tally::default();
    let mut first = 0;
    while first < cases.len() {
        let mut requests = Vec::new();
        let mut bytes = 0;
        while first + requests.len() < cases.len() && requests.len() < CHUNK_CASES && bytes < CHUNK_BYTES {
            let i = first + requests.len();
            let line = cases[i].request_line(&json!(i));
            bytes += line.len();
            requests.push(line);
        }
        let chunk = &cases[first..first + requests.len()];
        let (replies, lens, lens_time) = run_chunk(pool, chunk, &requests, strict);
        drop(requests);
        tally.lens_time += lens_time;
        let replies = replies?;
        for (k, ((case, runs), reply)) in chunk.iter().zip(&lens).zip(&replies).enumerate() {
            let i = first + k;
            if reply.get("id") != Some(&json!(i)) {
                return Err(format!("reply {i} carries id {:?}", reply.get("id")));
            }
            if totals.version.is_empty()
                && let Some(v) = reply.get("version").and_then(Value::as_str)
            {
                totals.version = v.to_owned();
            }
            let v = verdict(runs, reply, strict);
            totals.deltas += v.deltas;
            totals.pinned += usize::from(v.pinned.is_some());
            totals.newest += usize::from(v.newest.is_some());
            if let Some(d) = &v.pinned {
                tally.pinned_failures.push((i, d.clone()));
            }
            tally
                .findings
                .extend(Finding::messages(&case.id, &case.target, strict, v.pinned, v.newest));
            for r in std::iter::once(&runs.pinned).chain(runs.newest.as_ref()).flatten() {
                tally.rules_fired.extend(r.rules_fired.iter().copied());
            }
        }
        first += chunk.len();
    }
    Ok(tally)
}
