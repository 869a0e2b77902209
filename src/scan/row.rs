//! One session's scan row: what it is, and per target what the replay rewrote and what the
//! provider lint found on the stored and replay payloads.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::hygiene::ReplayOptions;
use crate::lint::lint;
use crate::model::{Session, Severity};
use crate::policy::Target;
use crate::replay::replay;
use crate::wire::{WireStage, payload_of};

/// Whether the provider would take the replay payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No lint finding on the replay payload.
    Accepted,
    /// At least one lint finding on the replay payload.
    WouldBeRejected,
    /// OpenClaw refuses the replay itself (`invalid_replay_transcript`) and sends nothing.
    Refused,
    /// OpenClaw has no route for the target's API or provider and throws before sending.
    NoRoute,
    /// The target's API has no converter (or no API is known), so nothing was checked.
    NoPayload,
}

impl Verdict {
    /// The verdict as serialized (`accepted`, `would-be-rejected`, `no-payload`).
    pub fn id(self) -> &'static str {
        match self {
            Self::Accepted => "accepted",
            Self::WouldBeRejected => "would-be-rejected",
            Self::Refused => "refused",
            Self::NoRoute => "no-route",
            Self::NoPayload => "no-payload",
        }
    }

    /// The verdict as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Accepted => "accepted",
            Self::WouldBeRejected => "would be rejected",
            Self::Refused => "refused by OpenClaw",
            Self::NoRoute => "no route in OpenClaw",
            Self::NoPayload => "no payload",
        }
    }
}

/// Serialized as [`Verdict::id`], the one spelling JSON, NDJSON and Parquet share.
impl Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// One target's results for one session.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetScan {
    /// The target after filling missing parts from the session.
    pub target: Target,
    /// The policy family it resolved to.
    pub family: &'static str,
    /// Messages in the replay projection.
    pub replay_messages: usize,
    /// Every rewrite the replay made.
    pub rewrites: usize,
    /// Rewrites per rule id.
    pub rewrites_by_rule: BTreeMap<&'static str, usize>,
    /// Lint findings on the stored payload (what a naive client would send).
    pub stored_findings: usize,
    /// Lint findings on the replay payload (what OpenClaw sends).
    pub replay_findings: usize,
    /// Replay-payload findings per constraint id.
    pub findings_by_constraint: BTreeMap<&'static str, usize>,
    /// The stored message of the first replay-payload finding, for opening the session there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_finding_stored: Option<usize>,
    /// Whether the provider would take the replay payload.
    pub verdict: Verdict,
}

/// One session's row.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionScan {
    /// The file or database.
    #[serde(serialize_with = "crate::text::serialize_path_lossy")]
    pub path: PathBuf,
    /// The agent that wrote it, when it loaded.
    pub agent: Option<&'static str>,
    /// The session id (a database window's id).
    pub id: String,
    /// For a database window: its session key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_key: Option<String>,
    /// Format name, when it loaded.
    pub format: Option<&'static str>,
    /// File size in bytes (none for a database window).
    pub bytes: Option<u64>,
    /// Messages in the stored transcript.
    pub messages: usize,
    /// Lines or rows skipped while loading.
    pub skipped: usize,
    /// Load warnings (dangling links, odd shapes).
    pub warnings: usize,
    /// Load notes (another agent's lines kept but not sent).
    pub notes: usize,
    /// Why it could not be loaded, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The rule set its replays used (the one of the release the session records, unless
    /// `--openclaw` chose one); none when it could not be loaded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_set: Option<&'static str>,
    /// One entry per scanned target, in the order given.
    pub targets: Vec<TargetScan>,
}

impl SessionScan {
    /// Replay and lint a loaded session for every target.
    pub fn of_session(
        path: &Path,
        session: &Session,
        bytes: Option<u64>,
        targets: &[Target],
        options: &ReplayOptions,
    ) -> Self {
        let transcript = session.transcript();
        let all = session.diagnostics.iter().chain(&transcript.diagnostics);
        let count = |sev: Severity| all.clone().filter(|d| d.severity == sev).count();
        Self {
            path: path.to_owned(),
            agent: Some(session.format.agent().name()),
            id: session.id.clone(),
            session_key: session.db_window.as_ref().and_then(|w| w.session_key.clone()),
            format: Some(session.format.as_str()),
            bytes,
            messages: transcript.messages.len(),
            skipped: count(Severity::Skipped),
            warnings: count(Severity::Warning),
            notes: count(Severity::Note),
            error: None,
            rule_set: Some(crate::replay::options_for_session(session, options).rule_set.name),
            targets: targets.iter().map(|t| target_scan(session, t, options)).collect(),
        }
    }

    /// A row for a source that could not be loaded.
    pub fn of_error(path: &Path, error: &str) -> Self {
        Self {
            path: path.to_owned(),
            agent: None,
            id: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            session_key: None,
            format: None,
            bytes: std::fs::metadata(path).ok().map(|m| m.len()),
            messages: 0,
            skipped: 0,
            warnings: 0,
            notes: 0,
            error: Some(error.to_owned()),
            rule_set: None,
            targets: Vec::new(),
        }
    }

    /// Replay-payload findings over every target.
    pub fn replay_findings(&self) -> usize {
        self.targets.iter().map(|t| t.replay_findings).sum()
    }

    /// Rewrites over every target.
    pub fn rewrites(&self) -> usize {
        self.targets.iter().map(|t| t.rewrites).sum()
    }
}

/// Replay and lint one loaded session for one target.
pub fn target_scan(session: &Session, requested: &Target, options: &ReplayOptions) -> TargetScan {
    let r = replay(session, requested, options);
    let mut rewrites_by_rule = BTreeMap::new();
    for rw in &r.projection.rewrites {
        *rewrites_by_rule.entry(rw.rule).or_insert(0) += 1;
    }
    let findings = |stage| payload_of(&r, stage).ok().map(|w| lint(&w));
    let stored = findings(WireStage::Stored);
    let replayed = findings(WireStage::Replay);
    let mut findings_by_constraint = BTreeMap::new();
    for f in replayed.iter().flatten() {
        *findings_by_constraint.entry(f.constraint).or_insert(0) += 1;
    }
    let verdict = match &replayed {
        _ if r.resolved.no_route.is_some() => Verdict::NoRoute,
        _ if r.projection.refusal.is_some() => Verdict::Refused,
        None => Verdict::NoPayload,
        Some(f) if f.is_empty() => Verdict::Accepted,
        Some(_) => Verdict::WouldBeRejected,
    };
    TargetScan {
        target: r.resolved.target.clone(),
        family: r.resolved.family.id(),
        replay_messages: r.projection.messages.len(),
        rewrites: r.projection.rewrites.len(),
        rewrites_by_rule,
        stored_findings: stored.as_ref().map_or(0, Vec::len),
        replay_findings: replayed.as_ref().map_or(0, Vec::len),
        findings_by_constraint,
        first_finding_stored: replayed.iter().flatten().find_map(|f| f.stored.iter().min().copied()),
        verdict,
    }
}
