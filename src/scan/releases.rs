//! The release matrix: one session replayed and linted under every OpenClaw rule set, oldest
//! first, and the releases at which the verdict changes ("rejected up to 2026.9.1, accepted
//! since 2026.9.2"), so a bug report can say which release introduced or fixed a rejection.

use serde::Serialize;

use super::row::{TargetScan, Verdict, target_scan};
use crate::hygiene::ReplayOptions;
use crate::model::Session;
use crate::policy::Target;
use crate::rule_set::{RULE_SETS, Release, RuleSet};

/// One rule set's replay and lint of the session.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReleaseRow {
    /// The rule set's name (`2026.9.2`, `newest`).
    pub rule_set: &'static str,
    /// The releases it reproduces, in words.
    pub releases: &'static str,
    /// The first and last release it covers, as printed in the summary.
    pub first: String,
    /// See `first`.
    pub last: String,
    /// Replay, rewrites by rule, findings by constraint and verdict.
    #[serde(flatten)]
    pub scan: TargetScan,
}

/// Two neighbouring rule sets whose verdicts differ.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Boundary {
    /// The older rule set's name.
    pub before: &'static str,
    /// Its last release.
    pub last_before: String,
    /// The newer rule set's name.
    pub after: &'static str,
    /// Its first release.
    pub first_after: String,
    /// The verdict up to the boundary.
    pub from: Verdict,
    /// The verdict from the boundary on.
    pub to: Verdict,
}

/// The session under every rule set.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Matrix {
    /// One row per rule set, oldest first.
    pub rows: Vec<ReleaseRow>,
    /// Where the verdict changes, oldest first.
    pub boundaries: Vec<Boundary>,
    /// One sentence: the verdict per release range.
    pub summary: String,
}

/// The rule sets, oldest first.
pub fn oldest_first() -> Vec<&'static RuleSet> {
    let mut sets: Vec<&'static RuleSet> = RULE_SETS.to_vec();
    sets.sort_by_key(|s| s.first);
    sets
}

/// Replay and lint `session` for `target` under every rule set, one after the other (so a
/// large session holds one replay at a time), with the other replay options as given.
pub fn matrix(session: &Session, target: &Target, options: &ReplayOptions) -> Matrix {
    let rows: Vec<ReleaseRow> = oldest_first()
        .into_iter()
        .map(|set| {
            let options = ReplayOptions {
                rule_set: set,
                rule_set_from_session: false,
                ..options.clone()
            };
            ReleaseRow {
                rule_set: set.name,
                releases: set.releases,
                first: first_label(set),
                last: last_label(set),
                scan: target_scan(session, target, &options),
            }
        })
        .collect();
    let boundaries: Vec<Boundary> = rows
        .windows(2)
        .filter(|w| w[0].scan.verdict != w[1].scan.verdict)
        .map(|w| Boundary {
            before: w[0].rule_set,
            last_before: w[0].last.clone(),
            after: w[1].rule_set,
            first_after: w[1].first.clone(),
            from: w[0].scan.verdict,
            to: w[1].scan.verdict,
        })
        .collect();
    let summary = summary(&rows);
    Matrix {
        rows,
        boundaries,
        summary,
    }
}

/// The verdict as a word in the summary.
fn word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Accepted => "accepted",
        Verdict::WouldBeRejected => "rejected",
        Verdict::Refused => "refused by OpenClaw",
        Verdict::NoRoute => "no route in OpenClaw",
        Verdict::NoPayload => "not checked (no payload converter)",
    }
}

/// A release as the summary prints it: `2026.8` for the start of a month's range.
fn release_label(r: Release) -> String {
    if r.patch == 0 {
        format!("{}.{}", r.year, r.month)
    } else {
        r.to_string()
    }
}

fn first_label(set: &RuleSet) -> String {
    if std::ptr::eq(set, RuleSet::newest()) {
        "main after the newest release".to_owned()
    } else {
        release_label(set.first)
    }
}

fn last_label(set: &RuleSet) -> String {
    if set.last.patch == u16::MAX {
        if set.last.year == u16::MAX {
            "main".to_owned()
        } else {
            format!("{}.{}.x", set.last.year, set.last.month)
        }
    } else {
        release_label(set.last)
    }
}

/// "rejected up to 2026.9.1, accepted since 2026.9.2": one phrase per run of rule sets with
/// the same verdict.
fn summary(rows: &[ReleaseRow]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        match runs.last_mut() {
            Some((_, end)) if rows[*end].scan.verdict == row.scan.verdict => *end = i,
            _ => runs.push((i, i)),
        }
    }
    if runs.len() == 1 {
        let (first, last) = (&rows[0], &rows[rows.len() - 1]);
        return format!(
            "{} under every rule set (OpenClaw {} to {})",
            word(first.scan.verdict),
            first.first,
            last.last
        );
    }
    let n = runs.len();
    runs.iter()
        .enumerate()
        .map(|(k, &(start, end))| {
            let verdict = word(rows[start].scan.verdict);
            if k == 0 {
                format!("{verdict} up to {}", rows[end].last)
            } else if k == n - 1 {
                format!("{verdict} since {}", rows[start].first)
            } else {
                format!("{verdict} from {} to {}", rows[start].first, rows[end].last)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
#[path = "reused_id_tests.rs"]
mod reused_id_tests;
