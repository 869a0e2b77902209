//! The totals of a scan, folded row by row as they stream: sessions, errors, verdicts,
//! rewrites by rule and findings by constraint per target, and the worst sessions.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use super::row::{SessionScan, Verdict};

/// How many of the worst sessions a summary keeps.
pub const WORST_KEPT: usize = 10;

/// One of the worst sessions: most replay-payload findings, then most rewrites.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorstSession {
    /// The file or database.
    pub path: PathBuf,
    /// The session id.
    pub id: String,
    /// Replay-payload findings over every target.
    pub replay_findings: usize,
    /// Rewrites over every target.
    pub rewrites: usize,
}

/// Totals for one target (by its position in the scan's target list).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetTotals {
    /// Sessions whose replay payload would be rejected.
    pub would_be_rejected: usize,
    /// Sessions whose replay payload is accepted.
    pub accepted: usize,
    /// Sessions whose replay OpenClaw refuses to send.
    pub refused: usize,
    /// Sessions whose target OpenClaw cannot route.
    #[serde(skip_serializing_if = "is_zero")]
    pub no_route: usize,
    /// Sessions for which no payload could be built.
    pub no_payload: usize,
    /// Rewrites per rule over every session.
    pub rewrites_by_rule: BTreeMap<&'static str, usize>,
    /// Replay-payload findings per constraint over every session.
    pub findings_by_constraint: BTreeMap<&'static str, usize>,
    /// Stored-payload findings over every session.
    pub stored_findings: usize,
    /// Sessions that would be rejected, per constraint they break (a session counts once
    /// per constraint).
    pub rejected_by_constraint: BTreeMap<&'static str, usize>,
    /// Sessions that would be rejected, per rule that rewrote their replay (once per rule).
    pub rejected_by_rule: BTreeMap<&'static str, usize>,
}

/// The totals of a scan.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Rows seen (sessions, and sources that could not be read).
    pub sessions: usize,
    /// Sources that could not be read.
    pub errors: usize,
    /// Sessions read with load problems: skipped lines or rows, or warnings.
    pub with_load_problems: usize,
    /// Messages over every session.
    pub messages: usize,
    /// Bytes of the files scanned.
    pub bytes: u64,
    /// Per target, in the scan's order.
    pub targets: Vec<TargetTotals>,
    /// The worst sessions, worst first.
    pub worst: Vec<WorstSession>,
}

impl Summary {
    /// Fold one row in.
    pub fn add(&mut self, row: &SessionScan) {
        self.sessions += 1;
        self.messages += row.messages;
        self.bytes += row.bytes.unwrap_or(0);
        if row.error.is_some() {
            self.errors += 1;
            return;
        }
        if row.skipped + row.warnings > 0 {
            self.with_load_problems += 1;
        }
        if self.targets.len() < row.targets.len() {
            self.targets.resize_with(row.targets.len(), TargetTotals::default);
        }
        for (totals, t) in self.targets.iter_mut().zip(&row.targets) {
            match t.verdict {
                Verdict::Accepted => totals.accepted += 1,
                Verdict::WouldBeRejected => totals.would_be_rejected += 1,
                Verdict::Refused => totals.refused += 1,
                Verdict::NoRoute => totals.no_route += 1,
                Verdict::NoPayload => totals.no_payload += 1,
            }
            for (rule, n) in &t.rewrites_by_rule {
                *totals.rewrites_by_rule.entry(rule).or_insert(0) += n;
            }
            for (c, n) in &t.findings_by_constraint {
                *totals.findings_by_constraint.entry(c).or_insert(0) += n;
            }
            totals.stored_findings += t.stored_findings;
            if t.verdict == Verdict::WouldBeRejected {
                for c in t.findings_by_constraint.keys() {
                    *totals.rejected_by_constraint.entry(c).or_insert(0) += 1;
                }
                for rule in t.rewrites_by_rule.keys() {
                    *totals.rejected_by_rule.entry(rule).or_insert(0) += 1;
                }
            }
        }
        let (findings, rewrites) = (row.replay_findings(), row.rewrites());
        if findings + rewrites == 0 {
            return;
        }
        self.worst.push(WorstSession {
            path: row.path.clone(),
            id: row.id.clone(),
            replay_findings: findings,
            rewrites,
        });
        self.worst.sort_by(|a, b| {
            (b.replay_findings, b.rewrites)
                .cmp(&(a.replay_findings, a.rewrites))
                .then_with(|| a.path.cmp(&b.path))
        });
        self.worst.truncate(WORST_KEPT);
    }
}

/// Serde's test for counts left out when zero.
fn is_zero(n: &usize) -> bool {
    *n == 0
}
