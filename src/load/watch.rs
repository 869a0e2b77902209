//! Watching a session file that an agent is writing: its size and modification time (and a
//! database's `-wal` file), and whether a JSONL file's last line is complete, so a reader
//! re-reads only whole lines. Used by the inspector's live follow and `replay --follow`.
//!
//! [`Events`] wakes a follower when the operating system reports a write (inotify, FSEvents,
//! kqueue, through `notify`), so nothing is looked at while nothing changes; [`Watch`] then
//! decides whether the change is complete. Where no events can be had, followers poll.

use std::ffi::OsString;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, SystemTime};

use notify::{EventKind, RecursiveMode, Watcher};

/// What one look at the file sees.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    wal: Option<(u64, Option<SystemTime>)>,
}

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    let mut wal_path = path.as_os_str().to_owned();
    wal_path.push("-wal");
    let wal = std::fs::metadata(PathBuf::from(wal_path))
        .ok()
        .map(|m| (m.len(), m.modified().ok()));
    Some(Stamp {
        len: meta.len(),
        modified: meta.modified().ok(),
        wal,
    })
}

/// Whether a text file ends with a newline (its last line is complete); a database is always
/// complete (SQLite commits whole transactions).
fn complete(path: &Path, len: u64) -> bool {
    if super::is_database(path) || len == 0 {
        return true;
    }
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut last = [0u8; 1];
    file.seek(SeekFrom::Start(len - 1)).is_ok() && file.read_exact(&mut last).is_ok() && last[0] == b'\n'
}

/// A watch on one session file, from the state it had when the watch began.
#[derive(Debug, Clone)]
pub struct Watch {
    path: PathBuf,
    seen: Option<Stamp>,
}

impl Watch {
    /// Watch `path` from now.
    pub fn new(path: &Path) -> Self {
        Self {
            path: path.to_owned(),
            seen: stamp(path),
        }
    }

    /// The watched file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file changed since the last call that said so, and is complete (a JSONL
    /// file whose last line is half-written is not, until the line ends).
    pub fn changed(&mut self) -> bool {
        let now = stamp(&self.path);
        if now == self.seen {
            return false;
        }
        match &now {
            Some(s) if complete(&self.path, s.len) => {
                self.seen = now;
                true
            }
            _ => false,
        }
    }
}

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
    fn an_append_is_a_change_once_its_line_ends() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, "{}\n").unwrap();
        let mut watch = Watch::new(&path);
        assert!(!watch.changed());
        std::fs::write(&path, "{}\n{\"half\":").unwrap();
        assert!(!watch.changed(), "a half-written line waits");
        std::fs::write(&path, "{}\n{\"half\": 1}\n").unwrap();
        assert!(watch.changed());
        assert!(!watch.changed(), "said once");
    }

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
