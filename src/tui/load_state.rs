//! How the app takes a load: the request, the stored side shown first, the finished
//! projection swapped in with the selection kept.

use std::time::Instant;

use super::app::{App, Effect, LoadRequest, Loading, Mode};
use super::inspection::Inspection;

impl App {
    /// Ask the event loop to load a session.
    pub fn request_load(&mut self, request: LoadRequest) {
        self.loading = Some(Loading {
            label: request.path.display().to_string(),
            stage: "reading".into(),
            started: Instant::now(),
            read: 0,
            total: 0,
        });
        self.effects.push(Effect::Load(request));
    }

    /// The stored side of a load is ready: show it while the projection is computed.
    pub fn show_stored(&mut self, insp: Inspection) {
        if let Some(l) = &mut self.loading {
            l.stage = "computing the projection of".into();
        }
        // Moving from the preview of the first messages: keep what the user opened over it
        // (help, a picker) and stay on the stored message they selected.
        let from_preview = self.insp.as_ref().is_some_and(|i| i.preview);
        if !from_preview {
            self.mode = Mode::Normal;
        }
        let anchor = self
            .insp
            .as_ref()
            .filter(|i| i.preview)
            .and_then(|_| self.selected_row())
            .and_then(|r| r.stored.first().copied());
        self.set_inspection(insp);
        if let Some(pos) = anchor.and_then(|s| self.view.iter().position(|&r| self.rows[r].stored.contains(&s))) {
            self.select(pos);
        }
    }

    /// The first messages of a large file, read so far: shown (marked provisional) while the
    /// rest is read. Ignored once the real stored side is on screen.
    pub fn show_preview(&mut self, insp: Inspection) {
        if self.insp.as_ref().is_some_and(|i| i.pending && !i.preview) {
            return;
        }
        self.mode = Mode::Normal;
        self.set_inspection(insp);
    }

    /// A background load finished. When its stored side was already shown, the selection
    /// stays on the same stored message and an overlay opened meanwhile stays open.
    pub fn loaded(&mut self, result: Result<Inspection, String>) {
        self.loading = None;
        match result {
            Ok(insp) => {
                self.rule_set = insp.options.rule_set;
                let shown_first = self.insp.as_ref().is_some_and(|i| i.pending);
                // Whatever the user opened over the stored side (help, a picker) stays open.
                if !shown_first {
                    self.mode = Mode::Normal;
                }
                if shown_first {
                    let anchor = self.selected_row().and_then(|r| r.stored.first().copied());
                    self.insp = Some(insp);
                    self.realign(None);
                    // The row holding the same stored message, whatever happened to it.
                    if let Some(pos) =
                        anchor.and_then(|s| self.view.iter().position(|&r| self.rows[r].stored.contains(&s)))
                    {
                        self.select(pos);
                    }
                    self.request_wire();
                } else {
                    self.set_inspection(insp);
                }
            }
            Err(e) => self.status = Some(e),
        }
    }
}
