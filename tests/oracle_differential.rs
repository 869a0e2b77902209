//! Differential test against OpenClaw itself: replaylens' history stage must equal what
//! OpenClaw 2026.9.6's hygiene chain (`oracle/openclaw_chain.mjs`) makes of the same messages,
//! for sample sessions, thousands of seeded random transcripts and saved request files, across
//! twelve targets; and replaylens' policy must equal OpenClaw's for every target.
//!
//! Environment:
//! - `REPLAYLENS_NODE`: Node ≥ 24.16 (else `node` on `PATH`, else the `.ci/run` cache path);
//! - `REPLAYLENS_REQUIRE_ORACLE=1`: fail instead of skipping when the oracle cannot run;
//! - `REPLAYLENS_ORACLE_SEED`, `REPLAYLENS_ORACLE_CASES`: seed and number of random cases;
//! - `REPLAYLENS_ORACLE_REPLAY=<file-or-folder>`: run only these saved request files;
//! - `REPLAYLENS_SHARED_SAMPLES`: the shared samples folder (default `../shared/samples`).
//!
//! Failing random cases are shrunk and saved to `target/oracle-failures/`; request files in
//! `tests/oracle_cases/` always run.

#[path = "oracle_support/mod.rs"]
mod oracle_support;

use std::path::Path;
use std::time::Instant;

use oracle_support::check::policy_findings;
use oracle_support::failures::{relative, rerun_hints, save_shrunk, shrink_failures};
use oracle_support::oracle::{self, OraclePool};
use oracle_support::plan::{Plan, plan, seed};
use oracle_support::report::{grouped_listing, rule_coverage};
use oracle_support::run::{Tally, run_all};

const ORACLE_PROCESSES: usize = 2;
const LISTED_CASES: usize = 30;
const LISTED_GROUPS: usize = 40;

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"))
}

#[test]
fn replaylens_history_matches_openclaw() {
    let started = Instant::now();
    let setup = match oracle::locate(manifest_dir()) {
        Ok(setup) => setup,
        Err(why) => {
            assert!(
                !env_flag("REPLAYLENS_REQUIRE_ORACLE"),
                "the OpenClaw oracle cannot run and REPLAYLENS_REQUIRE_ORACLE=1: {why}"
            );
            eprintln!("\n*** SKIPPED oracle differential: {why} ***\n");
            return;
        }
    };
    let seed = seed();
    eprintln!("oracle differential: seed {seed} (rerun with REPLAYLENS_ORACLE_SEED={seed})");
    let Plan {
        cases,
        mut totals,
        with_policy,
        skipped_samples,
    } = plan(seed, manifest_dir());
    let mut pool = OraclePool::start(&setup, ORACLE_PROCESSES).unwrap_or_else(|e| panic!("oracle: {e}"));

    let Tally {
        mut findings,
        pinned_failures,
        rules_fired,
        lens_time,
    } = run_all(&mut pool, &cases, &mut totals).unwrap_or_else(|e| panic!("oracle: {e}"));
    if with_policy {
        let policy = policy_findings(&mut pool).unwrap_or_else(|e| panic!("oracle: {e}"));
        totals.policy = policy.len();
        findings.extend(policy);
    }
    let shrunk = shrink_failures(&mut pool, &cases, &pinned_failures);
    let (oracle_calls, oracle_busy) = pool.stats();
    let per_process = oracle_busy.as_secs_f64() / ORACLE_PROCESSES as f64;
    drop(pool);
    totals.secs = started.elapsed().as_secs_f64();

    let saved = save_shrunk(&shrunk, manifest_dir());
    let line = totals.line();
    let mut report = format!("{line}\n");
    report.push_str(&format!(
        "timing: {:.1} s wall; oracle {oracle_calls} calls on {ORACLE_PROCESSES} processes, each busy {:.1} s on average \
         ({:.0}% of the wall time, start-up included); replaylens {:.1} s in this thread, beside the oracle, for {} \
         cases × 2 rule sets\n",
        totals.secs,
        per_process,
        100.0 * per_process / totals.secs.max(0.001),
        lens_time.as_secs_f64(),
        cases.len()
    ));
    if totals.random > 0 {
        report.push_str(&rule_coverage(&rules_fired));
    }
    if !skipped_samples.is_empty() {
        report.push_str(&format!(
            "skipped sample files ({}, not loadable by replaylens):\n",
            skipped_samples.len()
        ));
        for s in &skipped_samples {
            report.push_str(&format!("  {s}\n"));
        }
    }
    if !findings.is_empty() {
        report.push_str(&grouped_listing(&findings, LISTED_GROUPS, LISTED_CASES));
    }
    for (path, s) in &saved {
        report.push_str(&format!(
            "shrunk {} to {} messages ({} oracle calls), differs at {}: {}\n",
            s.case.id,
            s.case.messages.len(),
            s.calls,
            s.difference.path,
            relative(path, manifest_dir())
        ));
    }
    report.push_str(&rerun_hints(&saved, manifest_dir()));
    eprintln!("{report}");
    let summary_file = manifest_dir().join("target/oracle-differential-summary.txt");
    let _ = std::fs::create_dir_all(manifest_dir().join("target"));
    let _ = std::fs::write(&summary_file, format!("{line}\n"));
    assert!(
        totals.pinned == 0 && totals.newest == 0 && totals.policy == 0,
        "replaylens differs from OpenClaw {} (seed {seed}; listing above; rerun with REPLAYLENS_ORACLE_SEED={seed}):\n{line}\n{}",
        totals.version,
        rerun_hints(&saved, manifest_dir())
    );
}
