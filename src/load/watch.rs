//! Watching a session file that an agent is writing: its size and modification time (and a
//! database's `-wal` file), and whether a JSONL file's last line is complete, so a reader
//! re-reads only whole lines. Used by the inspector's live follow and `replay --follow`.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

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
}
