//! Live follow: while the inspector runs, the open session file (and a database's `-wal`
//! file) is watched by its size and modification time. When an agent writes to it, the
//! session is read again in the background and the projection, rows and verdict follow, with
//! the selection kept on the same stored message and any overlay left open. A JSONL file
//! whose last line is not yet terminated is left until the writer finishes the line.

use std::path::Path;
use std::time::{Duration, Instant};

use replaylens::load::watch::Watch;

use super::app::{App, Effect, LoadRequest};

/// How often the file is looked at.
const EVERY: Duration = Duration::from_millis(400);

/// The watch on the open session.
#[derive(Debug, Clone)]
pub struct Live {
    db_session: Option<String>,
    watch: Watch,
    checked: Instant,
}

impl Live {
    /// Watch `path` (a session file or database) from its current state.
    pub fn watch(path: &Path, db_session: Option<String>) -> Self {
        Self {
            db_session,
            watch: Watch::new(path),
            checked: Instant::now(),
        }
    }

    /// Whether it is time to look, and the file changed and is complete since the last time.
    fn changed(&mut self) -> bool {
        if self.checked.elapsed() < EVERY {
            return false;
        }
        self.checked = Instant::now();
        self.watch.changed()
    }
}

impl App {
    /// Start following the session just opened (a new file replaces the watch).
    pub fn follow(&mut self) {
        let Some(insp) = &self.insp else { return };
        let path = &insp.session.path;
        if self.live.as_ref().is_some_and(|l| l.watch.path() == path) || !path.is_file() {
            return;
        }
        self.live = Some(Live::watch(path, insp.session.db_session.clone()));
    }

    /// Called by the event loop: when the followed file changed, read it again in the
    /// background, keeping the view (the old projection stays until the new one is ready).
    pub fn follow_tick(&mut self) {
        if self.loading.is_some() || self.live_reload.is_some() || self.reprojecting.is_some() {
            return;
        }
        let Some(insp) = &self.insp else { return };
        let Some(live) = &mut self.live else { return };
        if live.watch.path() != insp.session.path || !live.changed() {
            return;
        }
        let request = LoadRequest {
            path: live.watch.path().to_owned(),
            session: live.db_session.clone(),
            target: insp.requested.clone(),
            rule_set: self.rule_set,
            rule_set_from_session: false,
        };
        self.live_reload = Some(self.selected_row().and_then(|r| r.stored.first().copied()));
        self.effects.push(Effect::Load(request));
    }

    /// A live re-read finished: swap the projection in, on the same stored message.
    pub fn live_loaded(&mut self, result: Result<super::inspection::Inspection, String>) {
        let anchor = self.live_reload.take().flatten();
        let insp = match result {
            Ok(insp) => insp,
            // The view stays as it was; the next change is read again.
            Err(e) => {
                self.status = Some(format!("live: {e}"));
                return;
            }
        };
        let (top, scroll) = (self.top, self.detail_scroll);
        self.insp = Some(insp);
        self.realign(None);
        if let Some(stored) = anchor
            && self.select_stored(stored)
        {
            self.top = top.min(self.selected);
            self.detail_scroll = scroll;
        }
        self.request_wire();
    }
}
