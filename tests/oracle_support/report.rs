//! Findings, the grouped listing of differing cases and the one-line summary.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use std::collections::BTreeSet;

use super::compare::Difference;
use super::lens;
use super::lens::RuleSetName;
use super::targets::TargetSpec;

/// The run label of a difference found under both rule sets.
pub const BOTH_RUNS: &str = "2026.9.6+newest";

/// One differing case under one rule set (or one differing policy).
#[derive(Debug, Clone)]
pub struct Finding {
    /// The case id (`policy@<target>` for a policy).
    pub case_id: String,
    /// The target.
    pub target: TargetSpec,
    /// `2026.9.6`, `newest`, `2026.9.6+newest` (the same difference in both runs) or `policy`.
    pub run: &'static str,
    /// The first difference.
    pub difference: Difference,
}

impl Finding {
    /// The findings of one case's two message comparisons (one finding when both runs differ
    /// the same way).
    pub fn messages(
        case_id: &str,
        target: &TargetSpec,
        strict: RuleSetName,
        pinned: Option<Difference>,
        newest: Option<Difference>,
    ) -> Vec<Self> {
        let finding = |run, difference| Finding {
            case_id: case_id.to_owned(),
            target: target.clone(),
            run,
            difference,
        };
        match (pinned, newest) {
            (Some(p), Some(n)) if p == n => vec![finding(BOTH_RUNS, p)],
            (p, n) => p
                .map(|d| finding(strict.as_str(), d))
                .into_iter()
                .chain(n.map(|d| finding(RuleSetName::Newest.as_str(), d)))
                .collect(),
        }
    }
}

/// The counts of the summary line.
#[derive(Debug, Clone, Default)]
pub struct Totals {
    /// OpenClaw version the oracle reported.
    pub version: String,
    /// The run's seed.
    pub seed: u64,
    /// Sample sessions (each run against every target).
    pub samples: usize,
    /// Number of targets.
    pub targets: usize,
    /// Random cases.
    pub random: usize,
    /// Request-file cases (`tests/oracle_cases`, `REPLAYLENS_ORACLE_REPLAY`).
    pub files: usize,
    /// Policy targets compared.
    pub policy_targets: usize,
    /// Differences under `2026.9.6` (messages).
    pub pinned: usize,
    /// Policy differences.
    pub policy: usize,
    /// Differences under `newest` beyond the documented deltas.
    pub newest: usize,
    /// Documented deltas tolerated.
    pub deltas: usize,
    /// Providers only ClawHub hosts (not installable here): they run on the unowned fallback.
    pub excluded: Vec<String>,
    /// Wall time in seconds.
    pub secs: f64,
}

impl Totals {
    /// The one summary line.
    pub fn line(&self) -> String {
        let cases = self.samples * self.targets + self.random + self.files + self.policy_targets;
        let files = if self.files > 0 {
            format!(", {} saved", self.files)
        } else {
            String::new()
        };
        let policy = if self.policy > 0 {
            format!(" (+{} policy)", self.policy)
        } else {
            String::new()
        };
        let excluded = format!("{} ClawHub-only providers on the unowned fallback", self.excluded.len());
        format!(
            "oracle differential: openclaw {} | seed {} | {cases} cases ({} sample × {} targets, {} random{files}, {} policy targets) \
             | 2026.9.6: {} differences{policy} | newest: {} differences beyond the documented deltas | {} documented deltas \
             | {excluded} | {:.1} s",
            self.version,
            self.seed,
            self.samples,
            self.targets,
            self.random,
            self.policy_targets,
            self.pinned,
            self.newest,
            self.deltas,
            self.secs
        )
    }
}

/// Differing cases grouped by (target, path kind), largest groups first: one line per group
/// (at most `limit_groups`), then up to `limit_cases` example cases taken round-robin from the
/// groups so that the biggest groups each show one first.
pub fn grouped_listing(findings: &[Finding], limit_groups: usize, limit_cases: usize) -> String {
    let mut groups: BTreeMap<(String, String), Vec<&Finding>> = BTreeMap::new();
    for f in findings {
        groups
            .entry((f.target.label(), f.difference.path_kind()))
            .or_default()
            .push(f);
    }
    let mut ordered: Vec<_> = groups.into_iter().collect();
    ordered.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    let mut out = String::from("differing cases by target and first path (cases, runs):\n");
    for ((target, kind), items) in ordered.iter().take(limit_groups) {
        let mut runs: Vec<&str> = items.iter().map(|f| f.run).collect();
        runs.sort_unstable();
        runs.dedup();
        let _ = writeln!(out, "  {:>4}  {target}  {kind}  ({})", items.len(), runs.join(", "));
    }
    if ordered.len() > limit_groups {
        let _ = writeln!(out, "  … {} more groups", ordered.len() - limit_groups);
    }
    let _ = writeln!(out, "examples:");
    let mut shown = 0;
    let deepest = ordered.iter().map(|(_, items)| items.len()).max().unwrap_or(0);
    'rounds: for round in 0..deepest {
        for (_, items) in &ordered {
            let Some(f) = items.get(round) else { continue };
            if shown >= limit_cases {
                break 'rounds;
            }
            shown += 1;
            let d = &f.difference;
            let _ = writeln!(out, "  {} [{}] at {}", f.case_id, f.run, d.path);
            let _ = writeln!(out, "      replaylens: {}", d.ours);
            let _ = writeln!(out, "      openclaw:   {}", d.theirs);
        }
    }
    if shown < findings.len() {
        let _ = writeln!(out, "  … {} more differing cases not listed", findings.len() - shown);
    }
    out
}

/// Which hygiene rules rewrote something in at least one replay of this run.
pub fn rule_coverage(fired: &BTreeSet<&str>) -> String {
    let all = lens::all_rules();
    let never: Vec<&str> = all.iter().copied().filter(|id| !fired.contains(id)).collect();
    let listed = if never.is_empty() {
        "none".to_owned()
    } else {
        never.join(", ")
    };
    format!(
        "rule coverage: {} of {} rules rewrote something in this run; never: {listed}\n",
        all.len() - never.len(),
        all.len()
    )
}
