//! A pasted provider error explained against the loaded replay with the library's
//! [`replaylens::lint::explain::explain`], as `replaylens lint --explain` does: both payloads
//! are built from the inspection (no copy of the messages) and linted.

use std::borrow::Cow;

use replaylens::hygiene::{Projection, ReplayMessage, ReplayOptions, Rewrite};
use replaylens::lint::explain::{Explanation, explain};
use replaylens::lint::lint;
use replaylens::replay::Replay;
use replaylens::wire::{WireStage, payload_of};

use replaylens::policy::{ResolvedPolicy, Target};

use super::inspection::{Inspection, Projected, borrowed_view, replayed_message};

/// An explanation and the target it was made for.
#[derive(Debug, Clone, PartialEq)]
pub struct Explained {
    /// The library's explanation.
    pub explanation: Explanation,
    /// The target the payloads were built for, e.g. `mistral / mistral-conversations /
    /// devstral-medium-2507 (the session's own)`.
    pub target: String,
}

/// Explain `text` (a provider's error, as pasted) against an inspection; an error is one
/// sentence (no payload for this target, the projection not computed yet). The error a user
/// pastes is the one the session got, so it is explained against the session's own target
/// first, whatever profile is on screen; only when that locates no message and the profile on
/// screen (another target) does, that answer is given. The answer names its target.
pub fn explain_error(insp: &Inspection, text: &str) -> Result<Explained, String> {
    if insp.pending {
        return Err("the replay projection is still being computed; try again once it is shown".into());
    }
    let current = || {
        explain_with(
            insp,
            &insp.resolved,
            &insp.options,
            &insp.replay,
            &insp.rewrites,
            &insp.rules_run,
            text,
        )
    };
    if insp.requested == Target::default() {
        return Ok(Explained {
            explanation: current()?,
            target: target_label(&insp.resolved.target, "the session's own"),
        });
    }
    let own = insp.reproject_job(Target::default(), insp.options.clone(), 0).run();
    let explanation = explain_with(
        insp,
        &own.resolved,
        &own.options,
        &own.replay,
        &own.rewrites,
        &own.rules_run,
        text,
    )?;
    if explanation.stored.is_empty()
        && let Ok(other) = current()
        && !other.stored.is_empty()
    {
        return Ok(Explained {
            explanation: other,
            target: target_label(&insp.resolved.target, "the profile on screen"),
        });
    }
    Ok(Explained {
        explanation,
        target: target_label(&own.resolved.target, "the session's own"),
    })
}

/// `provider / api / model (whose)`.
fn target_label(t: &Target, whose: &str) -> String {
    let part = |p: &Option<String>| p.clone().unwrap_or_else(|| "?".to_owned());
    format!(
        "{} / {} / {} ({whose})",
        part(&t.provider),
        part(&t.api),
        part(&t.model)
    )
}

/// Explain `text` against one projection of the inspection's transcript.
fn explain_with(
    insp: &Inspection,
    resolved: &ResolvedPolicy,
    options: &ReplayOptions,
    replay: &[Projected],
    rewrites: &[Rewrite],
    rules_run: &[&'static str],
    text: &str,
) -> Result<Explanation, String> {
    let messages = replay
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            Some(ReplayMessage {
                source: p.source.clone(),
                message: Cow::Borrowed(replayed_message(&insp.transcript, replay, i)?),
            })
        })
        .collect();
    let r = Replay {
        transcript: borrowed_view(&insp.transcript),
        resolved: resolved.clone(),
        options: options.clone(),
        projection: Projection {
            messages,
            rewrites: rewrites.to_vec(),
            rules_run: rules_run.to_vec(),
            ..Projection::default()
        },
    };
    let payload = |stage| payload_of(&r, stage).map_err(|e| format!("cannot build the payload: {e}"));
    let stored = payload(WireStage::Stored)?;
    let replayed = payload(WireStage::Replay)?;
    Ok(explain(text, &r, &stored, &lint(&stored), &lint(&replayed)))
}
