//! A pasted provider error explained against the loaded replay with the library's
//! [`replaylens::lint::explain::explain`], as `replaylens lint --explain` does: both payloads
//! are built from the inspection (no copy of the messages) and linted.

use std::borrow::Cow;

use replaylens::hygiene::{Projection, ReplayMessage};
use replaylens::lint::explain::{Explanation, explain};
use replaylens::lint::lint;
use replaylens::replay::Replay;
use replaylens::wire::{WireStage, payload_of};

use super::inspection::{Inspection, borrowed_view};

/// Explain `text` (a provider's error, as pasted) against an inspection; an error is one
/// sentence (no payload for this target, the projection not computed yet).
pub fn explain_error(insp: &Inspection, text: &str) -> Result<Explanation, String> {
    if insp.pending {
        return Err("the replay projection is still being computed; try again once it is shown".into());
    }
    let messages = insp
        .replay
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            Some(ReplayMessage {
                source: p.source.clone(),
                message: Cow::Borrowed(insp.replayed(i)?),
            })
        })
        .collect();
    let r = Replay {
        transcript: borrowed_view(&insp.transcript),
        resolved: insp.resolved.clone(),
        options: insp.options.clone(),
        projection: Projection {
            messages,
            rewrites: insp.rewrites.clone(),
            rules_run: insp.rules_run.clone(),
            ..Projection::default()
        },
    };
    let payload = |stage| payload_of(&r, stage).map_err(|e| format!("cannot build the payload: {e}"));
    let stored = payload(WireStage::Stored)?;
    let replayed = payload(WireStage::Replay)?;
    Ok(explain(text, &r, &stored, &lint(&stored), &lint(&replayed)))
}
