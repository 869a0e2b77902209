//! The report's provider-lint section: the findings of the stored and the replay payload,
//! computed one payload at a time, their texts redacted with the rest of the report.

use super::redact::Redactor;
use crate::lint::{Finding, lint};
use crate::replay::{PreparedReplay, Replay};
use crate::wire::{WireStage, payload_of, replay_payload_with, stored_payload_with};

/// Provider lint findings of both payloads, messages redacted.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LintView {
    /// The API checked.
    pub api: &'static str,
    /// `accepted` or `would be rejected` (the replay payload).
    pub verdict: &'static str,
    /// Findings on the stored transcript converted as is.
    pub stored: Vec<Finding>,
    /// Findings on the replay payload.
    pub replay: Vec<Finding>,
}

impl LintView {
    /// Every finding, the replay's first (what would still be rejected), then the stored ones.
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.replay.iter().chain(&self.stored)
    }
}

/// The findings of both payloads before their texts are redacted.
#[derive(Debug, Clone)]
pub struct LintFindings {
    api: &'static str,
    stored: Vec<Finding>,
    replay: Vec<Finding>,
}

impl LintFindings {
    /// Lint both payloads of a replay that holds both sides, one payload in memory at a time
    /// (each is as large as the transcript). `None` when the API has no converter.
    pub fn of_replay(replay: &Replay<'_>) -> Option<Self> {
        let (api, stored) = {
            let payload = payload_of(replay, WireStage::Stored).ok()?;
            (payload.payload.api.id(), lint(&payload))
        };
        let replay = lint(&payload_of(replay, WireStage::Replay).ok()?);
        Some(Self { api, stored, replay })
    }

    /// Lint both payloads of a prepared replay as `replaylens lint` does: the stored payload
    /// before the rules run, then the replay payload from the projection alone (the rules take
    /// the stored messages over). `None` when the API has no converter.
    pub fn of_prepared(prepared: PreparedReplay) -> Option<Self> {
        let target = prepared.resolved.target.clone();
        let config = prepared.options.config.clone();
        let (api, stored) = {
            let payload = stored_payload_with(&prepared.transcript.messages, &target, config.as_deref()).ok()?;
            (payload.payload.api.id(), lint(&payload))
        };
        let replay = lint(&replay_payload_with(prepared.run().into_messages(), &target, config.as_deref()).ok()?);
        Some(Self { api, stored, replay })
    }

    /// Redact the findings' texts (the replay's first, as the report lists them).
    pub(crate) fn redact(self, r: &mut Redactor) -> LintView {
        let mut redact = |findings: Vec<Finding>| -> Vec<Finding> {
            findings
                .into_iter()
                .map(|f| Finding {
                    message: r.text(&f.message),
                    path: r.text(&f.path),
                    ..f
                })
                .collect()
        };
        let replay = redact(self.replay);
        LintView {
            api: self.api,
            verdict: if replay.is_empty() {
                "accepted"
            } else {
                "would be rejected"
            },
            stored: redact(self.stored),
            replay,
        }
    }
}
