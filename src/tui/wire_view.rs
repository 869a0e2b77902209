//! How the app takes the wire stage: the payload and its lint are computed off the UI thread
//! for the projection on screen, and `x` / `X` move between the rows they flag.

use super::app::{App, Effect};
use super::inspection::Inspection;
use super::rows::Row;
use super::wire_state::{WireJob, WireState};
use replaylens::wire::WireStage;

impl App {
    /// Ask for the wire payload of the current projection (once it is computed).
    pub fn request_wire(&mut self) {
        if let Some(insp) = &self.insp
            && !insp.pending
        {
            self.effects.push(Effect::Wire(insp.wire_job()));
        }
    }

    /// A wire state arrived: keep it when it was computed for the projection on screen.
    pub fn wire_ready(&mut self, job: &WireJob, state: WireState) {
        if let Some(insp) = &mut self.insp
            && job.is_for(&insp.replay)
        {
            insp.wire = state;
        }
    }

    /// Compute requested wire states here and now (tests run no event loop).
    #[cfg(test)]
    pub fn compute_wire_now(&mut self) {
        let effects = std::mem::take(&mut self.effects);
        let (reprojections, effects): (Vec<_>, Vec<_>) =
            effects.into_iter().partition(|e| matches!(e, Effect::Reproject(_)));
        for effect in reprojections {
            if let Effect::Reproject(job) = effect {
                self.reprojected(job.run());
            }
        }
        let effects: Vec<Effect> = effects.into_iter().chain(std::mem::take(&mut self.effects)).collect();
        for effect in effects {
            match effect {
                Effect::Wire(job) => {
                    let state = WireState::compute(&job);
                    self.wire_ready(&job, state);
                }
                other => self.effects.push(other),
            }
        }
    }

    pub(super) fn jump_finding(&mut self, forward: bool) {
        let stage = self.findings_stage;
        let hit = |insp: &Inspection, row: &Row| !insp.wire.findings_on(stage, row.replay, &row.stored).is_empty();
        if let Some(p) = self.find_row(forward, hit) {
            self.select(p);
            return;
        }
        let none = self.insp.as_ref().is_none_or(|i| i.wire.of_stage(stage).is_empty());
        if none {
            self.status = Some(match stage {
                WireStage::Replay => "no provider lint finding for this target".into(),
                WireStage::Stored => "no provider lint finding on the stored payload".into(),
            });
            return;
        }
        // Past the last (first) finding: wrap around, as search does.
        let wrapped = self.insp.as_ref().and_then(|insp| {
            let at = |p: &usize| hit(insp, &self.rows[self.view[*p]]);
            if forward {
                (0..self.selected).find(at)
            } else {
                (self.selected + 1..self.view.len()).rev().find(at)
            }
        });
        match wrapped {
            Some(p) => {
                self.select(p);
                self.status = Some(
                    if forward {
                        "wrapped to the first lint finding"
                    } else {
                        "wrapped to the last lint finding"
                    }
                    .into(),
                );
            }
            None => self.status = Some("no other lint finding".into()),
        }
    }

    /// Switch the findings shown between the replay and the stored payload, saying which.
    pub(super) fn toggle_stage(&mut self) {
        self.findings_stage = match self.findings_stage {
            WireStage::Replay => WireStage::Stored,
            WireStage::Stored => WireStage::Replay,
        };
        let n = self
            .insp
            .as_ref()
            .map_or(0, |i| i.wire.of_stage(self.findings_stage).len());
        self.status = Some(match self.findings_stage {
            WireStage::Stored => format!(
                "findings on the stored payload, before hygiene ({n}): what the provider rejected in the first place; b: back to the replay"
            ),
            WireStage::Replay => format!("findings on the replay payload, what OpenClaw sends ({n})"),
        });
    }
}
