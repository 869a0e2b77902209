//! Loader differential: what `replaylens show --format json` reads from a session file (the
//! stored messages, message by message, and the session's own target) must equal what OpenClaw
//! 2026.9.6's own session codec reads from the same file (`oracle/openclaw_session.mjs`:
//! `parseSessionEntries` → `migrateSessionEntries` → `buildSessionContext`), on every bundled
//! sample, every shared OpenClaw and pi sample, and generated sessions.
//!
//! Environment:
//! - `REPLAYLENS_NODE`: Node ≥ 24.16 (as for `tests/oracle_differential.rs`);
//! - `REPLAYLENS_REQUIRE_ORACLE=1`: fail instead of skipping when the oracle cannot run;
//! - `REPLAYLENS_LOADER_SEED`, `REPLAYLENS_LOADER_CASES`: seed (default: fresh each run, printed)
//!   and number of generated sessions (default 240);
//! - `REPLAYLENS_SHARED_SAMPLES`: the shared samples folder (default `../shared/samples`).
//!
//! Every failing input is saved under `target/oracle-failures/loader/` with the differences.

mod common;
#[allow(dead_code)]
#[path = "oracle_support/loader.rs"]
mod loader;
#[path = "oracle_support/loader_gen.rs"]
mod loader_gen;
#[allow(dead_code)]
#[path = "oracle_support/oracle.rs"]
mod oracle;
#[allow(dead_code)]
#[path = "oracle_support/rng.rs"]
mod rng;

use std::path::{Path, PathBuf};
use std::time::Instant;

use oracle::{OracleProcess, OracleSetup};

/// Generated sessions per run unless `REPLAYLENS_LOADER_CASES` says otherwise.
const DEFAULT_CASES: u64 = 240;

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The session oracle, or `None` (skipped with a note) when it cannot run.
fn setup() -> Option<OracleSetup> {
    let mut setup = oracle::locate_or_skip(manifest_dir(), "loader differential")?;
    setup.script = manifest_dir().join("oracle/openclaw_session.mjs");
    Some(setup)
}

fn seed() -> u64 {
    oracle::seed_from("REPLAYLENS_LOADER_SEED")
}

/// The bundled and shared OpenClaw/pi session files OpenClaw's codec reads (JSONL).
fn sample_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = common::bundled_session_files()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.extend(common::shared_openclaw_jsonl());
    files
}

#[test]
fn replaylens_reads_session_files_as_openclaw_does() {
    let Some(setup) = setup() else { return };
    let started = Instant::now();
    let seed = seed();
    let cases: u64 = std::env::var("REPLAYLENS_LOADER_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_CASES);
    eprintln!(
        "loader differential: seed {seed} (rerun with REPLAYLENS_LOADER_SEED={seed}), {cases} generated sessions"
    );
    let scratch = tempfile::tempdir().unwrap();
    let mut inputs: Vec<(PathBuf, String)> = sample_files()
        .into_iter()
        .map(|p| (p.clone(), format!("sample {}", p.display())))
        .collect();
    let samples = inputs.len();
    for i in 0..cases {
        let g = loader_gen::generate(seed, i);
        let dir = scratch.path().join(format!("{i:04}"));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(&g.name);
        std::fs::write(&path, &g.text).unwrap();
        inputs.push((path, format!("generated #{i} [{}]", g.features.join(", "))));
    }
    let requests: Vec<String> = inputs
        .iter()
        .enumerate()
        .map(|(i, (p, _))| loader::request(i, p))
        .collect();
    let mut process = OracleProcess::spawn(&setup).expect("start the session oracle");
    let replies = process.run(&requests).expect("the session oracle answers");
    let mut failures = Vec::new();
    for ((path, label), reply) in inputs.iter().zip(&replies) {
        let differences = match loader::show(common::bin(), path) {
            Ok(shown) => loader::compare(&shown, &serde_json::to_value(reply).unwrap()),
            Err(e) => vec![e],
        };
        if !differences.is_empty() {
            failures.push((path.clone(), label.clone(), differences));
        }
    }
    let saved = save_failures(&failures);
    eprintln!(
        "loader differential: {samples} samples and {cases} generated sessions compared, {} differ, {:.1} s",
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    if failures.is_empty() {
        return;
    }
    let listing: Vec<String> = failures
        .iter()
        .take(20)
        .map(|(_, label, d)| format!("{label}:\n    {}", d.join("\n    ")))
        .collect();
    panic!(
        "replaylens reads {} of {} files differently from OpenClaw (seed {seed}; inputs saved in {}):\n{}",
        failures.len(),
        inputs.len(),
        saved.display(),
        listing.join("\n")
    );
}

/// Copy each failing input and its differences to `target/oracle-failures/loader/`.
fn save_failures(failures: &[(PathBuf, String, Vec<String>)]) -> PathBuf {
    let dir = manifest_dir().join("target/oracle-failures/loader");
    if failures.is_empty() {
        return dir;
    }
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (path, label, differences)) in failures.iter().enumerate() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let target = dir.join(format!("{i:03}-{name}"));
        let _ = std::fs::copy(path, &target);
        let note = format!("{label}\n{}\n", differences.join("\n"));
        let _ = std::fs::write(dir.join(format!("{i:03}-{name}.differences.txt")), note);
    }
    dir
}
