//! What the app does for an overlay's request ([`crate::tui::overlay::Request`]).

use super::{App, Effect};
use crate::tui::overlay::{ExplainPrompt, Mode, Request};
use crate::tui::search::Filter;

impl App {
    /// Carry out an overlay's request.
    pub fn perform(&mut self, request: Request) {
        match request {
            Request::Search(query) => self.run_search(query),
            Request::JumpToRule(rule) => self.jump_to_rule(rule),
            Request::Retarget(target) => self.retarget(target),
            Request::OpenListing(listing, at) => self.open_listing(&listing, at),
            Request::Export(request) => {
                self.effects.push(Effect::Export(request));
                self.status = Some("exporting …".into());
            }
            Request::Point { stored, status } => {
                if let Some(stored) = stored {
                    self.show_stored_message(stored);
                }
                self.status = Some(status);
            }
        }
    }

    /// Open the explain prompt (with a session to explain against).
    pub fn open_explain(&mut self) {
        if self.insp.is_none() {
            self.status = Some("no session to explain an error against".into());
            return;
        }
        self.mode = Mode::Explain(ExplainPrompt::default());
    }

    /// Select the row holding a stored message (clearing a filter that hides it), near the top
    /// of the rows pane so that an overlay at the foot of the screen leaves it in sight.
    pub fn show_stored_message(&mut self, stored: usize) {
        let holds = |app: &Self| app.view.iter().any(|&r| app.rows[r].stored.contains(&stored));
        if !holds(self) {
            self.set_filter(Filter::All);
        }
        if self.select_stored(stored) {
            self.top = self.selected;
            self.row_scroll = 0;
        }
    }
}
