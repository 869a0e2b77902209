//! What one run covers: sample sessions × targets, request files and random cases, or only the
//! request files named by `REPLAYLENS_ORACLE_REPLAY`.

use std::path::Path;

use super::cases::{self, Case, Origin};
use super::report::Totals;
use super::samples::load_samples;
use super::targets::TargetSet;

/// Random cases per provider when `REPLAYLENS_ORACLE_CASES` (the total) is unset: every CI run
/// takes 200 a provider (about five minutes on two cores).
pub const DEFAULT_RANDOM_PER_PROVIDER: usize = 200;

/// The seed: `REPLAYLENS_ORACLE_SEED`, else a fresh one.
pub fn seed() -> u64 {
    super::oracle::seed_from("REPLAYLENS_ORACLE_SEED")
}

/// [`DEFAULT_RANDOM_PER_PROVIDER`] for every provider of `set`: a full-size run.
pub fn default_random_case_count(set: &TargetSet) -> usize {
    DEFAULT_RANDOM_PER_PROVIDER * set.providers.len()
}

/// `REPLAYLENS_ORACLE_CASES`, else [`default_random_case_count`].
pub fn random_case_count(set: &TargetSet) -> usize {
    std::env::var("REPLAYLENS_ORACLE_CASES")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| default_random_case_count(set))
}

/// The cases of this run and how they break down.
pub struct Plan {
    /// Every message case.
    pub cases: Vec<Case>,
    /// The counts so far (seed, samples, random, files, policy targets).
    pub totals: Totals,
    /// Whether the policy of every target is compared too.
    pub with_policy: bool,
    /// Sample files that did not load, with the reason.
    pub skipped_samples: Vec<String>,
}

/// The cases of the request files at `path` (labelled relative to `base`).
pub fn file_cases(path: &Path, base: &Path) -> Vec<Case> {
    cases::request_files(path)
        .iter()
        .map(|f| {
            let label = f.strip_prefix(base).unwrap_or(f).display().to_string();
            cases::read_request_file(f, &label).unwrap_or_else(|e| panic!("unreadable request file: {e}"))
        })
        .collect()
}

/// The cases of a run seeded with `seed` over `set`, for the project at `manifest_dir`.
pub fn plan(seed: u64, manifest_dir: &Path, set: &TargetSet) -> Plan {
    plan_with(seed, manifest_dir, random_case_count(set), set)
}

/// Enumerated providers each sample session runs against besides the fixed twelve, rotated by
/// seed and sample so that a run covers every provider with some sample.
pub const SAMPLE_EXTRA_PROVIDERS: usize = 1;

/// [`plan`] with `random` random cases. Every sample session runs against the fixed twelve
/// targets and [`SAMPLE_EXTRA_PROVIDERS`] other providers' first targets (rotating); random
/// cases spread evenly over the targets; the policy is compared for every target.
pub fn plan_with(seed: u64, manifest_dir: &Path, random: usize, set: &TargetSet) -> Plan {
    let fixed = super::targets::fixed_targets();
    let extra: Vec<_> = set
        .one_per_provider()
        .into_iter()
        .filter(|t| !fixed.contains(t))
        .collect();
    let per_sample = SAMPLE_EXTRA_PROVIDERS.min(extra.len());
    let mut totals = Totals {
        seed,
        targets: fixed.len() + per_sample,
        excluded: set.clawhub_only.clone(),
        ..Totals::default()
    };
    if let Some(replay) = std::env::var_os("REPLAYLENS_ORACLE_REPLAY") {
        let cases = file_cases(Path::new(&replay), manifest_dir);
        assert!(!cases.is_empty(), "REPLAYLENS_ORACLE_REPLAY names no request files");
        totals.files = cases.len();
        return Plan {
            cases,
            totals,
            with_policy: false,
            skipped_samples: Vec::new(),
        };
    }
    let samples = load_samples(manifest_dir);
    totals.samples = samples.sessions.len();
    for note in &samples.notes {
        eprintln!("oracle differential: note: {note}");
    }
    let mut cases = Vec::new();
    for (n, (label, messages)) in samples.sessions.into_iter().enumerate() {
        let messages = std::sync::Arc::new(messages);
        let rotated = (0..per_sample).map(|j| &extra[(seed as usize + n * per_sample + j) % extra.len()]);
        for t in fixed.iter().chain(rotated) {
            cases.push(Case {
                id: format!("sample:{label}@{}", t.label()),
                origin: Origin::Sample,
                target: t.clone(),
                tools: None,
                messages: messages.clone(),
            });
        }
    }

    let regressions = manifest_dir.join("tests/oracle_cases");
    if regressions.is_dir() {
        let files = file_cases(&regressions, manifest_dir);
        totals.files = files.len();
        cases.extend(files);
    }
    let random = cases::random_cases(seed, random, set);
    totals.random = random.len();
    cases.extend(random);
    totals.policy_targets = set.targets.len();
    Plan {
        cases,
        totals,
        with_policy: true,
        skipped_samples: samples.skipped,
    }
}
