//! Watching a session file that an agent is writing. Used by the inspector's live follow and
//! `replay --follow`.
//!
//! [`Events`] wakes a follower when the operating system reports a write (inotify, FSEvents,
//! kqueue, through `notify`), so nothing is looked at while nothing changes; [`Watch`] then
//! says what happened to the path ([`Change`]): lines appended (complete ones only), the file
//! truncated, deleted, or replaced (by another file, a FIFO, a folder, a device or a link), or
//! a new line over the line limit. Where no events can be had, followers poll.

mod change;
mod event;

pub use change::Watch;
pub use event::{Change, Replacement};

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};

/// Change events for one file (and its `-wal`), from the operating system.
pub struct Events {
    _watcher: notify::RecommendedWatcher,
    woke: Receiver<()>,
}

impl std::fmt::Debug for Events {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Events")
    }
}

impl Events {
    /// Listen for writes, creations, renames and removals of `path` or its `-wal` file (the
    /// folder holding it is watched, so a file replaced by a rename is seen); `None` when the
    /// system gives no events for it (the caller polls instead).
    pub fn new(path: &Path) -> Option<Self> {
        let name = path.file_name()?.to_owned();
        let mut wal: OsString = name.clone();
        wal.push("-wal");
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        let (tx, woke) = channel();
        let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else {
                // An overflowed or failed queue: look, to be safe.
                let _ = tx.send(());
                return;
            };
            // Reading the file (ours included) is no change.
            if matches!(event.kind, EventKind::Access(_)) {
                return;
            }
            let ours = event.paths.is_empty()
                || event
                    .paths
                    .iter()
                    .any(|p| p.file_name().is_some_and(|n| n == name || n == wal));
            if ours {
                let _ = tx.send(());
            }
        })
        .ok()?;
        watcher.watch(&folder, RecursiveMode::NonRecursive).ok()?;
        Some(Self {
            _watcher: watcher,
            woke,
        })
    }

    /// Whether an event arrived since the last call, without waiting.
    pub fn take(&self) -> bool {
        let mut any = false;
        while self.woke.try_recv().is_ok() {
            any = true;
        }
        any
    }

    /// Wait up to `timeout` for an event; whether one arrived (pending events are taken too).
    pub fn wait(&self, timeout: Duration) -> bool {
        match self.woke.recv_timeout(timeout) {
            Ok(()) => {
                self.take();
                true
            }
            Err(RecvTimeoutError::Timeout) => false,
            // The watcher is gone: behave as a poll.
            Err(RecvTimeoutError::Disconnected) => {
                std::thread::sleep(timeout);
                true
            }
        }
    }
}

/// How often a follower without [`Events`] looks at the file.
pub const POLL_EVERY: Duration = Duration::from_millis(400);

/// How often a follower with [`Events`] looks anyway, in case an event was missed (a
/// network file system gives none).
pub const RECHECK_EVERY: Duration = Duration::from_secs(2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_append_wakes_the_events_and_nothing_else_does() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, "{}\n").unwrap();
        let Some(events) = Events::new(&path) else { return };
        std::fs::write(dir.path().join("other.jsonl"), "{}\n").unwrap();
        let _ = std::fs::read(&path).unwrap();
        assert!(
            !events.wait(Duration::from_millis(300)),
            "another file, or a read, is no event"
        );
        let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        std::io::Write::write_all(&mut f, b"{}\n").unwrap();
        assert!(events.wait(Duration::from_secs(5)), "an append is");
    }
}
