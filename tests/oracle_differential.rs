//! Differential test against OpenClaw itself: replaylens' history stage must equal what
//! OpenClaw 2026.9.6's hygiene chain (`oracle/openclaw_chain.mjs`) makes of the same messages,
//! for sample sessions, thousands of seeded random transcripts and saved request files, across
//! every target enumerated from the release (`oracle/openclaw_targets.mjs`: every provider plugin
//! and API it ships, plus twelve fixed ones); and replaylens' policy must equal OpenClaw's for
//! every target.
//!
//! Environment:
//! - `REPLAYLENS_NODE`: Node ≥ 24.16 (else `node` on `PATH`, else the `.ci/run` cache path);
//! - `REPLAYLENS_REQUIRE_ORACLE=1`: fail instead of skipping when the oracle cannot run;
//! - `REPLAYLENS_ORACLE_SEED`, `REPLAYLENS_ORACLE_CASES`: seed and number of random cases;
//! - `REPLAYLENS_ORACLE_REPLAY=<file-or-folder>`: run only these saved request files;
//! - `REPLAYLENS_PAYLOAD_CASES_PER_TARGET`, `REPLAYLENS_PAYLOAD_TARGETS=/google-vertex/`: random
//!   payload cases per enumerated target, and which targets (label substrings) get them;
//! - `REPLAYLENS_SHARED_SAMPLES`: the shared samples folder (default `../shared/samples`).
//!
//! Failing random cases are shrunk and saved to `target/oracle-failures/`; request files in
//! `tests/oracle_cases/` always run.

#[path = "oracle_support/mod.rs"]
mod oracle_support;

use std::path::Path;
use std::sync::OnceLock;
use std::time::Instant;

use oracle_support::check::policy_findings;
use oracle_support::failures::{relative, rerun_hints, save_shrunk, shrink_failures};
use oracle_support::lens::RuleSetName;
use oracle_support::oracle::{self, OraclePool, env_flag};
use oracle_support::plan::{Plan, default_random_case_count, plan, plan_with, seed};
use oracle_support::report::{grouped_listing, rule_coverage};
use oracle_support::run::{Tally, run_all};
use oracle_support::targets::{self, TargetSet};
use oracle_support::wide::SAME_MODEL_MIN_PER_TARGET;

const ORACLE_PROCESSES: usize = 2;
const LISTED_CASES: usize = 30;
const LISTED_GROUPS: usize = 40;

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The release's targets, enumerated once per process (both differentials share them).
fn target_set(setup: &oracle::OracleSetup) -> &'static TargetSet {
    static SET: OnceLock<TargetSet> = OnceLock::new();
    SET.get_or_init(|| {
        let set = targets::enumerate(setup).unwrap_or_else(|e| panic!("target enumeration: {e}"));
        eprintln!("oracle differential: {}", set.listing());
        set
    })
}

fn locate_or_skip(what: &str) -> Option<oracle::OracleSetup> {
    oracle::locate_or_skip(manifest_dir(), what)
}

#[test]
fn replaylens_history_matches_openclaw() {
    let started = Instant::now();
    let Some(setup) = locate_or_skip("oracle differential") else {
        return;
    };
    let seed = seed();
    eprintln!("oracle differential: seed {seed} (rerun with REPLAYLENS_ORACLE_SEED={seed})");
    let Plan {
        cases,
        mut totals,
        with_policy,
        skipped_samples,
    } = plan(seed, manifest_dir(), target_set(&setup));
    let mut pool = OraclePool::start(&setup, ORACLE_PROCESSES).unwrap_or_else(|e| panic!("oracle: {e}"));

    let Tally {
        mut findings,
        pinned_failures,
        rules_fired,
        lens_time,
    } = run_all(&mut pool, &cases, &mut totals, RuleSetName::Pinned).unwrap_or_else(|e| panic!("oracle: {e}"));
    if with_policy {
        let policy = policy_findings(&mut pool, target_set(&setup), RuleSetName::Pinned)
            .unwrap_or_else(|e| panic!("oracle: {e}"));
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
         cases (under `newest` too on the fixed targets)\n",
        totals.secs,
        per_process,
        100.0 * per_process / totals.secs.max(0.001),
        lens_time.as_secs_f64(),
        cases.len()
    ));
    let mut short_of_same_model = Vec::new();
    if totals.random > 0 {
        report.push_str(&rule_coverage(&rules_fired));
        let coverage = oracle_support::wide::Coverage::of(&cases);
        report.push_str(&format!("{}\n", coverage.line()));
        report.push_str(&coverage.per_target());
        // Only a full-size run is held to the minimum: a smaller one spreads too few cases.
        if totals.random >= default_random_case_count(target_set(&setup)) {
            short_of_same_model = coverage.short_of(SAME_MODEL_MIN_PER_TARGET);
        }
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
        short_of_same_model.is_empty(),
        "targets with fewer than {SAME_MODEL_MIN_PER_TARGET} same-model assistant turns in {} random cases (seed {seed}): \
         {short_of_same_model:?}",
        totals.random
    );
    assert!(
        totals.pinned == 0 && totals.newest == 0 && totals.policy == 0,
        "replaylens differs from OpenClaw {} (seed {seed}; listing above; rerun with REPLAYLENS_ORACLE_SEED={seed}):\n{line}\n{}",
        totals.version,
        rerun_hints(&saved, manifest_dir())
    );
}

/// One case per image class (`oracle_support::images`): a user turn holding the class's block
/// and the same block in a tool result, run through the oracle like the differential; every
/// class must come out as OpenClaw makes it (kept, relabelled, re-encoded, which placeholder).
#[test]
fn image_classes_match_openclaw() {
    let Some(setup) = locate_or_skip("image classes") else {
        return;
    };
    let cases = oracle_support::images::class_cases();
    let mut pool = OraclePool::start(&setup, ORACLE_PROCESSES).unwrap_or_else(|e| panic!("oracle: {e}"));
    let mut totals = oracle_support::report::Totals::default();
    let tally = run_all(&mut pool, &cases, &mut totals, RuleSetName::Pinned).unwrap_or_else(|e| panic!("oracle: {e}"));
    let differing: Vec<String> = tally
        .pinned_failures
        .iter()
        .map(|(i, d)| format!("{}: {} ours {} theirs {}", cases[*i].id, d.path, d.ours, d.theirs))
        .collect();
    eprintln!("image classes: {} compared, {} differ", cases.len(), differing.len());
    assert!(
        differing.is_empty(),
        "image classes differ from OpenClaw:\n{}",
        differing.join("\n")
    );
}

/// Random cases per target of the payload differential when `REPLAYLENS_PAYLOAD_CASES_PER_TARGET`
/// is unset.
const DEFAULT_PAYLOAD_PER_TARGET: usize = 2;

#[test]
fn replaylens_payload_matches_openclaw() {
    use oracle_support::cases::Origin;
    use oracle_support::cases::random_cases_per_target;
    use oracle_support::payload::run_payloads;

    let started = Instant::now();
    let Some(setup) = locate_or_skip("payload differential") else {
        return;
    };
    let payload_setup = oracle::OracleSetup {
        script: manifest_dir().join("oracle/openclaw_payload.mjs"),
        ..setup.clone()
    };
    let seed = seed();
    let per_target = std::env::var("REPLAYLENS_PAYLOAD_CASES_PER_TARGET")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(DEFAULT_PAYLOAD_PER_TARGET);
    // The samples against the fixed targets and the saved request files, then random cases
    // for every enumerated target.
    let set = target_set(&setup);
    let fixed = targets::fixed_targets();
    let mut cases: Vec<_> = plan_with(seed, manifest_dir(), 0, set)
        .cases
        .into_iter()
        .filter(|c| c.origin != Origin::Sample || fixed.contains(&c.target))
        .collect();
    // `REPLAYLENS_PAYLOAD_TARGETS=a,b`: random cases only for targets whose
    // `provider/api/model` label contains one of the comma-separated parts.
    let only = std::env::var("REPLAYLENS_PAYLOAD_TARGETS").unwrap_or_default();
    let wanted: Vec<_> = set
        .targets
        .iter()
        .filter(|t| only.is_empty() || only.split(',').any(|part| t.label().contains(part.trim())))
        .cloned()
        .collect();
    if std::env::var_os("REPLAYLENS_ORACLE_REPLAY").is_none() {
        cases.extend(random_cases_per_target(seed, per_target, &wanted));
    }
    let mut chain = OraclePool::start(&setup, 1).unwrap_or_else(|e| panic!("oracle: {e}"));
    let mut payload = OraclePool::start(&payload_setup, 1).unwrap_or_else(|e| panic!("payload oracle: {e}"));
    let tally = run_payloads(&mut chain, &mut payload, &cases).unwrap_or_else(|e| panic!("oracle: {e}"));
    let compared: usize = tally.compared.values().sum();
    let per_api: Vec<String> = tally.compared.iter().map(|(api, n)| format!("{api} {n}")).collect();
    let mut report = format!(
        "payload differential (seed {seed}): {compared} payloads compared ({}), {} differ, {:.1} s\n",
        per_api.join(", "),
        tally.findings.len(),
        started.elapsed().as_secs_f64()
    );
    for ((api, why), n) in &tally.oracle_errors {
        report.push_str(&format!("  {api}: {n} payloads OpenClaw cannot build ({why})\n"));
    }
    let mut groups: std::collections::BTreeMap<String, Vec<&str>> = std::collections::BTreeMap::new();
    for f in &tally.findings {
        groups.entry(f.difference.signature()).or_default().push(&f.case);
    }
    for (signature, ids) in groups.iter().take(LISTED_GROUPS) {
        let example = tally
            .findings
            .iter()
            .find(|f| &f.difference.signature() == signature)
            .unwrap();
        report.push_str(&format!(
            "  {} case(s), e.g. {}\n    at {}: ours {} / theirs {}\n",
            ids.len(),
            ids[0],
            example.difference.path,
            example.difference.ours,
            example.difference.theirs
        ));
    }
    // Each differing body's request, for `node oracle/openclaw_payload.mjs FILE` and
    // `replaylens payload`; the first few only.
    let saved_dir = manifest_dir().join("target/oracle-failures/payload");
    for f in tally.findings.iter().take(LISTED_CASES) {
        let file = saved_dir.join(oracle_support::cases::sanitized_file_name(&f.case));
        if std::fs::create_dir_all(&saved_dir).is_ok() && std::fs::write(&file, &f.request).is_ok() {
            report.push_str(&format!("  saved {}\n", relative(&file, manifest_dir())));
        }
    }
    eprintln!("{report}");
    let _ = std::fs::create_dir_all(manifest_dir().join("target"));
    let _ = std::fs::write(manifest_dir().join("target/oracle-payload-summary.txt"), &report);
    assert!(
        tally.findings.is_empty(),
        "replaylens payloads differ from OpenClaw's transports (seed {seed}):\n{report}"
    );
}

/// Random cases per older release when `REPLAYLENS_ORACLE_RELEASE_CASES` is unset.
const DEFAULT_RELEASE_RANDOM: usize = 50;

/// Every older release installed under `oracle/releases/` against the rule set that covers it:
/// the sample sessions, the saved request files, `REPLAYLENS_ORACLE_RELEASE_CASES` random
/// transcripts (default 50) and the policy of every target must equal that release exactly.
/// `REPLAYLENS_ORACLE_RELEASES=2026.9.2,2026.9.1` runs only those;
/// `REPLAYLENS_ORACLE_RELEASES_DIR` reads the releases from another folder
/// (`scripts/oracle-sweep.sh`).
#[test]
fn rule_sets_match_their_releases() {
    let started = Instant::now();
    let root = std::env::var_os("REPLAYLENS_ORACLE_RELEASES_DIR")
        .map_or_else(|| manifest_dir().join("oracle/releases"), std::path::PathBuf::from);
    let (mut releases, mut missing) = oracle::releases(&root);
    if let Ok(only) = std::env::var("REPLAYLENS_ORACLE_RELEASES") {
        let wanted = |v: &str| only.split(',').any(|w| w.trim() == v);
        releases.retain(|r| wanted(&r.version));
        missing.retain(|v| wanted(v));
    }
    let base = match oracle::locate(manifest_dir()) {
        Ok(setup) if missing.is_empty() && !releases.is_empty() => setup,
        other => {
            let why = match other {
                Err(why) => why,
                Ok(_) if releases.is_empty() => "no release is installed under oracle/releases/".to_owned(),
                Ok(_) => format!(
                    "not installed under oracle/releases/ (run npm ci there): {}",
                    missing.join(", ")
                ),
            };
            assert!(
                !env_flag("REPLAYLENS_REQUIRE_ORACLE"),
                "the release oracles cannot run and REPLAYLENS_REQUIRE_ORACLE=1: {why}"
            );
            eprintln!("\n*** SKIPPED release differential: {why} ***\n");
            return;
        }
    };
    let seed = seed();
    let random = std::env::var("REPLAYLENS_ORACLE_RELEASE_CASES")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(DEFAULT_RELEASE_RANDOM);
    // Older releases lack the npm provider plugins the pinned one loads: they run the fixed targets.
    let fixed_set = TargetSet::fixed();
    let mut lines = Vec::new();
    let mut failed = Vec::new();
    for release in &releases {
        let set = match replaylens::rule_set::RuleSet::parse(&release.version) {
            Ok(set) => set,
            Err(e) => {
                let line = format!("openclaw@{}: no rule set ({e})", release.version);
                eprintln!("{line}");
                lines.push(line);
                failed.push(release.version.clone());
                continue;
            }
        };
        let strict = RuleSetName::Release(set.name);
        let Plan {
            mut cases,
            mut totals,
            with_policy,
            ..
        } = plan_with(seed, manifest_dir(), random, &fixed_set);
        // Every image class once, as `image_classes_match_openclaw` checks the pinned release.
        let image_classes = oracle_support::images::class_cases();
        let classes = image_classes.len();
        cases.extend(image_classes);
        let setup = oracle::OracleSetup {
            openclaw_dir: Some(release.openclaw_dir.clone()),
            ..base.clone()
        };
        let mut pool = OraclePool::start(&setup, ORACLE_PROCESSES).unwrap_or_else(|e| panic!("oracle: {e}"));
        let Tally {
            mut findings,
            pinned_failures,
            ..
        } = run_all(&mut pool, &cases, &mut totals, strict).unwrap_or_else(|e| panic!("oracle: {e}"));
        let saved = save_release_failures(&release.version, &cases, &pinned_failures);
        if with_policy {
            let policy = policy_findings(&mut pool, &fixed_set, strict).unwrap_or_else(|e| panic!("oracle: {e}"));
            totals.policy = policy.len();
            findings.extend(policy);
        }
        // A release that resolves no provider plugin would be compared on the core policy alone.
        let plugins =
            oracle_support::check::resolved_plugins(&mut pool, &fixed_set).unwrap_or_else(|e| panic!("oracle: {e}"));
        let unresolved: Vec<&str> = plugins
            .iter()
            .filter(|(label, plugin)| {
                plugin.is_none()
                    && ["anthropic/", "openai/", "google/"]
                        .iter()
                        .any(|p| label.starts_with(p))
            })
            .map(|(label, _)| label.as_str())
            .collect();
        let resolved = plugins.iter().filter(|(_, p)| p.is_some()).count();
        drop(pool);
        let line = format!(
            "openclaw@{} (reported {}) vs rule set {}: {} cases ({} samples × {} targets, {} files, {} random, seed {seed}, \
             {classes} image classes), \
             {} differ, policy {} of {} targets differ, plugins resolved for {resolved} of {} targets",
            release.version,
            totals.version,
            set.name,
            cases.len(),
            totals.samples,
            totals.targets,
            totals.files,
            totals.random,
            totals.pinned,
            totals.policy,
            totals.policy_targets,
            plugins.len()
        );
        eprintln!("{line}");
        if !unresolved.is_empty() {
            eprintln!(
                "openclaw@{}: no provider plugin resolved for {unresolved:?}",
                release.version
            );
            failed.push(release.version.clone());
        }
        if !findings.is_empty() {
            eprintln!("{}", grouped_listing(&findings, LISTED_GROUPS, LISTED_CASES));
            eprintln!(
                "saved {} failing request(s) to {}; rerun one against this release with \
                 OPENCLAW_DIR={} node oracle/openclaw_chain.mjs FILE",
                saved,
                RELEASE_FAILURES,
                relative(&release.openclaw_dir, manifest_dir())
            );
            failed.push(release.version.clone());
        }
        lines.push(line);
    }
    let summary = format!("{}\ntime: {:.1} s\n", lines.join("\n"), started.elapsed().as_secs_f64());
    let _ = std::fs::create_dir_all(manifest_dir().join("target"));
    let _ = std::fs::write(manifest_dir().join("target/oracle-releases-summary.txt"), &summary);
    eprintln!("{summary}");
    assert!(
        failed.is_empty(),
        "rule sets differ from their releases {failed:?} (seed {seed}; rerun with REPLAYLENS_ORACLE_SEED={seed}):\n{summary}"
    );
}

/// Where the release differential saves the requests of failing cases.
const RELEASE_FAILURES: &str = "target/oracle-failures/releases";

/// Save the first few failing cases of a release run as request files; returns how many.
fn save_release_failures(
    version: &str,
    cases: &[oracle_support::cases::Case],
    failures: &[(usize, oracle_support::compare::Difference)],
) -> usize {
    let dir = manifest_dir().join(RELEASE_FAILURES).join(version);
    let _ = std::fs::create_dir_all(&dir);
    failures
        .iter()
        .take(LISTED_CASES)
        .filter(|(i, _)| {
            let case = &cases[*i];
            let file = dir.join(format!("{}.json", oracle_support::cases::sanitized_file_name(&case.id)));
            std::fs::write(file, case.saved_request()).is_ok()
        })
        .count()
}
