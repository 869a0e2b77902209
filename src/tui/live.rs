//! Live follow: while the inspector runs, the open session file (and a database's `-wal`
//! file) is watched. The operating system's change events wake the check (with a slow poll
//! in case one is missed, and a faster poll where there are no events); the file's size and
//! modification time say whether it changed. When an agent writes to it, what it appended is
//! read in the background (only the new lines of a JSONL file, kept by a
//! [`TailReader`]; the whole file when it was rewritten, or for a database) and the
//! projection, rows and verdict follow, with the selection kept on the same stored message
//! and any overlay left open. A JSONL line not yet terminated is left until the writer
//! finishes it.
//!
//! Anything else that happens to the path ([`Change`]: truncated, deleted, replaced by another
//! file, a FIFO, a folder, a device or a link, a line over the limit) is said in the header
//! (`● live: file deleted`) and the status line; a truncated or replaced regular file is read
//! again from the start, anything else is never opened and the view stays, marked.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use replaylens::load::LoadOptions;
use replaylens::load::limits::Limits;
use replaylens::load::tail::TailReader;
use replaylens::load::watch::{Change, Events, POLL_EVERY, RECHECK_EVERY, Watch};

use super::app::{App, Effect, LoadRequest};

/// Session files up to this size are read by the follow's reader as soon as following starts.
const PREREAD_MAX_BYTES: u64 = 32 << 20;

/// The watch on the open session.
#[derive(Debug)]
pub struct Live {
    db_session: Option<String>,
    watch: Watch,
    events: Option<Events>,
    tail: Arc<Mutex<TailReader>>,
    checked: Instant,
    /// What last happened to the path, for the header (`None` while lines are appended).
    event: Option<String>,
    /// The next read must forget what was parsed (the file was truncated or replaced).
    from_start: bool,
}

/// A read of the followed session, for the loader thread: the request and the reader that
/// keeps what earlier reads parsed.
#[derive(Clone)]
pub struct LiveRead {
    /// What to replay the session for.
    pub request: LoadRequest,
    /// The reader of the followed file.
    pub tail: Arc<Mutex<TailReader>>,
    /// Whether the reader forgets what it parsed first (the file was truncated or replaced).
    pub from_start: bool,
}

impl std::fmt::Debug for LiveRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveRead")
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}

impl PartialEq for LiveRead {
    fn eq(&self, other: &Self) -> bool {
        self.request == other.request && Arc::ptr_eq(&self.tail, &other.tail) && self.from_start == other.from_start
    }
}

impl Eq for LiveRead {}

impl Live {
    /// Watch `path` (a session file or database) from its current state, reading it within
    /// `limits`.
    pub fn watch(path: &Path, db_session: Option<String>, limits: Limits) -> Self {
        let options = LoadOptions {
            session: db_session.clone(),
            limits,
            ..LoadOptions::default()
        };
        let tail = Arc::new(Mutex::new(TailReader::new(path, options)));
        // The inspector's own load keeps no parser state, so the reader reads the file once
        // now, in the background, and the first append is then read alone too. A large file
        // is left to its first change: reading it now would hold its entries twice.
        let size = std::fs::metadata(path).map_or(u64::MAX, |m| m.len());
        if size <= PREREAD_MAX_BYTES && !replaylens::load::is_database(path) {
            let tail = Arc::clone(&tail);
            std::thread::spawn(move || {
                if let Ok(mut reader) = tail.lock() {
                    let _ = reader.read();
                }
            });
        }
        Self {
            db_session,
            watch: Watch::new(path, limits),
            events: Events::new(path),
            tail,
            checked: Instant::now(),
            event: None,
            from_start: false,
        }
    }

    /// The reader that keeps what was parsed of the followed file.
    #[cfg(test)]
    pub fn reader(&self) -> &Arc<Mutex<TailReader>> {
        &self.tail
    }

    /// What last happened to the followed path, when it is more than an append
    /// (`file deleted`).
    pub fn event(&self) -> Option<&str> {
        self.event.as_deref()
    }

    /// What happened to the file, when it is time to look (an event came, or the poll is
    /// due); `Unchanged` otherwise.
    fn poll(&mut self) -> Change {
        let woke = self.events.as_ref().is_some_and(Events::take);
        let every: Duration = if self.events.is_some() {
            RECHECK_EVERY
        } else {
            POLL_EVERY
        };
        if !woke && self.checked.elapsed() < every {
            return Change::Unchanged;
        }
        self.checked = Instant::now();
        let change = self.watch.poll();
        if let Some(event) = change.short() {
            self.event = Some(event);
        } else if change == Change::Appended {
            self.event = None;
        }
        self.from_start |= change.reads_from_start();
        change
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
        self.live = Some(Live::watch(path, insp.session.db_session.clone(), Limits::default()));
    }

    /// Called by the event loop: when the followed file changed, read what was appended in
    /// the background, keeping the view (the old projection stays until the new one is ready);
    /// anything else that happened to it is said in the header and the status line. Whether
    /// something was said (the screen must be drawn again).
    pub fn follow_tick(&mut self) -> bool {
        if self.loading.is_some() || self.live_reload.is_some() || self.reprojecting.is_some() {
            return false;
        }
        let Some(insp) = &self.insp else { return false };
        let Some(live) = &mut self.live else { return false };
        if live.watch.path() != insp.session.path {
            return false;
        }
        let change = live.poll();
        let said = change.sentence(&live.watch.path().display().to_string());
        let redraw = said.is_some();
        if let Some(sentence) = said {
            self.status = Some(format!("live: {sentence}"));
        }
        if !change.reads() {
            return redraw;
        }
        let tail = Arc::clone(&live.tail);
        let from_start = std::mem::take(&mut live.from_start);
        let request = LoadRequest {
            path: live.watch.path().to_owned(),
            session: live.db_session.clone(),
            target: insp.requested.clone(),
            rule_set: self.rule_set,
            rule_set_from_session: false,
            config: None,
        };
        self.live_reload = Some(self.selected_row().and_then(|r| r.stored.first().copied()));
        self.effects.push(Effect::Follow(LiveRead {
            request,
            tail,
            from_start,
        }));
        redraw
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
