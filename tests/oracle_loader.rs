//! Loader differential: what `replaylens show --format json` reads from a session file (the
//! stored messages, message by message, and the session's own target) must equal what OpenClaw
//! 2026.9.6's own session codec reads from the same file (`oracle/openclaw_session.mjs`:
//! `parseSessionEntries` → `migrateSessionEntries` → `buildSessionContext`), on every bundled
//! sample, every shared OpenClaw and pi sample, and generated sessions; and the same for every
//! session of an agent database (`openclaw-agent.sqlite`), which the oracle reads with the
//! release's own `ReadOnlySqliteTranscriptReader`: the bundled database and generated ones,
//! written in the release's own schema (`tests/common/agent_db.rs`) from generated sessions.
//!
//! Environment:
//! - `REPLAYLENS_NODE`: Node ≥ 24.16 (as for `tests/oracle_differential.rs`);
//! - `REPLAYLENS_REQUIRE_ORACLE=1`: fail instead of skipping when the oracle cannot run;
//! - `REPLAYLENS_LOADER_SEED`, `REPLAYLENS_LOADER_CASES`: seed (default: fresh each run, printed)
//!   and number of generated sessions (default 240);
//! - `REPLAYLENS_LOADER_DB_SESSIONS`: generated sessions stored in databases (default 200, one
//!   to three per database, some rows zstd-compressed);
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
use std::process::Command;
use std::time::Instant;

use common::agent_db::{self, DbSession};
use oracle::{OracleProcess, OracleSetup};

/// Generated sessions per run unless `REPLAYLENS_LOADER_CASES` says otherwise.
const DEFAULT_CASES: u64 = 240;
/// Generated database sessions per run unless `REPLAYLENS_LOADER_DB_SESSIONS` says otherwise.
const DEFAULT_DB_SESSIONS: u64 = 200;
/// Generator indices of database sessions start here, apart from the files' indices.
const DB_INDEX_BASE: u64 = 1_000_000;

/// One input of the differential: a file, or a session of a database.
struct Input {
    path: PathBuf,
    session: Option<String>,
    label: String,
}

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
    let inputs: Vec<Input> = inputs
        .into_iter()
        .map(|(path, label)| Input {
            path,
            session: None,
            label,
        })
        .collect();
    let failures = differ(&setup, &inputs);
    report(
        "loader differential",
        &format!("{samples} samples and {cases} generated sessions"),
        seed,
        started,
        &inputs,
        &failures,
    );
}

#[test]
fn replaylens_reads_agent_databases_as_openclaw_does() {
    let Some(setup) = setup() else { return };
    let started = Instant::now();
    let seed = seed();
    let wanted: u64 = std::env::var("REPLAYLENS_LOADER_DB_SESSIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_DB_SESSIONS);
    eprintln!(
        "loader differential (databases): seed {seed} (rerun with REPLAYLENS_LOADER_SEED={seed}), {wanted} generated sessions"
    );
    let schema = release_schema(&setup);
    let scratch = tempfile::tempdir().unwrap();
    let mut inputs = Vec::new();
    let bundled = common::bundled_samples().join("openclaw-agent.sqlite");
    let mut process = OracleProcess::spawn(&setup).expect("start the session oracle");
    let listed = process
        .call(&loader::sessions_request(&bundled))
        .expect("the session oracle lists the bundled database");
    let sessions: Vec<String> = listed["sessions"]
        .as_array()
        .unwrap_or_else(|| panic!("no session list for {}: {listed}", bundled.display()))
        .iter()
        .filter_map(|s| s.as_str().map(str::to_owned))
        .collect();
    assert!(
        sessions.len() >= 3,
        "OpenClaw lists {} sessions in the bundled database",
        sessions.len()
    );
    for id in sessions {
        inputs.push(Input {
            path: bundled.clone(),
            label: format!("sample {} session {id}", bundled.display()),
            session: Some(id),
        });
    }
    let samples = inputs.len();
    let mut generated = 0u64;
    let mut db_index = 0u64;
    while generated < wanted {
        let mut rng = rng::Rng::for_case(seed, DB_INDEX_BASE + db_index);
        let path = scratch.path().join(format!("{db_index:04}-openclaw-agent.sqlite"));
        let mut stored = Vec::new();
        for k in 0..rng.range(1, 4) {
            let i = DB_INDEX_BASE + generated;
            let g = loader_gen::generate(seed, i);
            let lines = agent_db::lines_of(&g.text);
            let session_id = agent_db::header_session_id(&lines)
                .filter(|id| !stored.iter().any(|s: &DbSession| &s.session_id == id))
                .unwrap_or_else(|| format!("gen-{db_index}-{k}"));
            let compress_some = rng.chance(40);
            let compressed = lines.iter().map(|_| compress_some && rng.chance(50)).collect();
            let window_model = rng
                .chance(50)
                .then(|| ("anthropic".to_owned(), "claude-opus-4-6".to_owned()));
            let mut features = g.features.clone();
            if compress_some {
                features.push("zstd-rows");
            }
            inputs.push(Input {
                path: path.clone(),
                session: Some(session_id.clone()),
                label: format!(
                    "generated database #{db_index} session {session_id} [{}]",
                    features.join(", ")
                ),
            });
            stored.push(DbSession {
                session_key: format!("agent:main:gen-{k}"),
                session_id,
                lines,
                compressed,
                window_model,
            });
            generated += 1;
        }
        agent_db::write(&path, &schema, &stored).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        db_index += 1;
    }
    drop(process);
    let failures = differ(&setup, &inputs);
    report(
        "loader differential (databases)",
        &format!("{samples} bundled database sessions and {generated} generated sessions in {db_index} databases"),
        seed,
        started,
        &inputs,
        &failures,
    );
}

/// The release's agent database DDL (`oracle/openclaw_session.mjs --schema`).
fn release_schema(setup: &OracleSetup) -> String {
    let mut command = Command::new(&setup.node);
    if let Some(dir) = &setup.openclaw_dir {
        command.env("OPENCLAW_DIR", dir);
    }
    let out = command
        .arg(&setup.script)
        .arg("--schema")
        .output()
        .expect("run the session oracle");
    assert!(
        out.status.success(),
        "the session oracle prints no schema: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sql = String::from_utf8(out.stdout).expect("the schema is UTF-8");
    assert!(
        sql.contains("CREATE TABLE IF NOT EXISTS transcript_events"),
        "not the agent schema"
    );
    sql
}

/// Every input both sides read differently, with its differences.
fn differ<'a>(setup: &OracleSetup, inputs: &'a [Input]) -> Vec<(&'a Input, Vec<String>)> {
    let requests: Vec<String> = inputs
        .iter()
        .enumerate()
        .map(|(i, input)| match &input.session {
            Some(id) => loader::database_request(i, &input.path, id),
            None => loader::request(i, &input.path),
        })
        .collect();
    let mut process = OracleProcess::spawn(setup).expect("start the session oracle");
    let replies = process.run(&requests).expect("the session oracle answers");
    let mut failures = Vec::new();
    for (input, reply) in inputs.iter().zip(&replies) {
        let differences = match loader::show_session(common::bin(), &input.path, input.session.as_deref()) {
            Ok(shown) => loader::compare(&shown, &serde_json::to_value(reply).unwrap()),
            Err(e) => vec![e],
        };
        if !differences.is_empty() {
            failures.push((input, differences));
        }
    }
    failures
}

/// Print the run's figures and fail with the first differences, inputs saved.
fn report(
    what: &str,
    compared: &str,
    seed: u64,
    started: Instant,
    inputs: &[Input],
    failures: &[(&Input, Vec<String>)],
) {
    let saved = save_failures(failures);
    eprintln!(
        "{what}: {compared} compared, {} differ, {:.1} s",
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    if failures.is_empty() {
        return;
    }
    let listing: Vec<String> = failures
        .iter()
        .take(20)
        .map(|(input, d)| format!("{}:\n    {}", input.label, d.join("\n    ")))
        .collect();
    panic!(
        "replaylens reads {} of {} sessions differently from OpenClaw (seed {seed}; inputs saved in {}):\n{}",
        failures.len(),
        inputs.len(),
        saved.display(),
        listing.join("\n")
    );
}

/// Copy each failing input and its differences to `target/oracle-failures/loader/`.
fn save_failures(failures: &[(&Input, Vec<String>)]) -> PathBuf {
    let dir = manifest_dir().join("target/oracle-failures/loader");
    if failures.is_empty() {
        return dir;
    }
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (input, differences)) in failures.iter().enumerate() {
        let (path, label) = (&input.path, &input.label);
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
