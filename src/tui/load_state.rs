//! How the app takes a load: the request, the stored side shown first, the finished
//! projection swapped in with the selection kept.

use std::time::Instant;

use super::app::{App, Effect, LoadRequest, Loading, Mode};
use super::inspection::Inspection;

impl App {
    /// Ask the event loop to load a session.
    pub fn request_load(&mut self, mut request: LoadRequest) {
        request.config.clone_from(&self.config);
        // A load the user asked for supersedes a live re-read (its result is not taken).
        self.live_reload = None;
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
        // A live re-read keeps the old projection on screen until the new one is whole.
        if self.live_reload.is_some() {
            return;
        }
        if let Some(l) = &mut self.loading {
            l.stage = "computing the projection of".into();
        }
        // Moving from the preview of the first messages: keep what the user opened over it
        // (help, a picker) and stay on the stored message they selected.
        let anchor = if self.insp.as_ref().is_some_and(|i| i.preview) {
            self.selected_stored()
        } else {
            self.mode = Mode::Normal;
            None
        };
        self.set_inspection(insp);
        if let Some(stored) = anchor {
            self.select_stored(stored);
        }
    }

    /// The first messages of a large file, read so far: shown (marked provisional) while the
    /// rest is read. Ignored once the real stored side is on screen.
    pub fn show_preview(&mut self, insp: Inspection) {
        if self.live_reload.is_some() || self.insp.as_ref().is_some_and(|i| i.pending && !i.preview) {
            return;
        }
        self.mode = Mode::Normal;
        self.set_inspection(insp);
    }

    /// A background load finished. When its stored side was already shown, the selection
    /// stays on the same stored message and an overlay opened meanwhile stays open.
    pub fn loaded(&mut self, result: Result<Inspection, String>) {
        if self.live_reload.is_some() {
            self.live_loaded(result);
            return;
        }
        self.loading = None;
        match result {
            Ok(insp) => {
                self.rule_set = insp.options.rule_set;
                if self.insp.as_ref().is_some_and(|i| i.pending) {
                    // The stored side was shown first: whatever the user opened over it (help,
                    // a picker) stays open, and the selection stays on the same stored message,
                    // whatever happened to it.
                    let anchor = self.selected_stored();
                    self.insp = Some(insp);
                    self.reprojecting = None;
                    self.realign(None);
                    if let Some(stored) = anchor {
                        self.select_stored(stored);
                    }
                    self.request_wire();
                } else {
                    self.mode = Mode::Normal;
                    self.set_inspection(insp);
                }
                self.follow();
            }
            Err(e) => self.status = Some(e),
        }
    }

    /// The first stored message of the selected row.
    fn selected_stored(&self) -> Option<usize> {
        self.selected_row().and_then(|r| r.stored.first().copied())
    }

    /// Select the row holding stored message `stored`; false when no row holds it.
    pub(super) fn select_stored(&mut self, stored: usize) -> bool {
        let Some(pos) = self.view.iter().position(|&r| self.rows[r].stored.contains(&stored)) else {
            return false;
        };
        self.select(pos);
        true
    }
}
