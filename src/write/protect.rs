//! Which files an output must never replace: the session being read, its SQLite companions
//! (`-wal`, `-shm`, `-journal`), the side files a command writes beside it, and every alias of
//! them (the same device and inode reached through a symlink, a hard link, `..` or a bind
//! mount). Companions that do not exist yet are kept by name: SQLite creates a `-journal` when
//! it next writes, so an output created under that name would be taken for one.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Companion files SQLite keeps beside a database; writing over one corrupts the database.
pub const SQLITE_COMPANIONS: [&str; 3] = ["-wal", "-shm", "-journal"];

/// The files an output may not replace, by identity and by name.
#[derive(Debug, Clone, Default)]
pub struct Protected {
    /// Device and inode of every protected file that exists, with the name it was given.
    ids: Vec<(u64, u64, PathBuf)>,
    /// Every protected name, as an absolute path with its folder resolved.
    names: Vec<PathBuf>,
}

impl Protected {
    /// Nothing protected.
    pub fn none() -> Self {
        Self::default()
    }

    /// The session file `source` and its companions, under the name given and under the name
    /// its links resolve to (SQLite finds the companions beside the resolved file).
    pub fn session(source: &Path) -> Self {
        let mut p = Self::default();
        p.add_session(source);
        p
    }

    /// Also protect the session `source` and its companions.
    pub fn add_session(&mut self, source: &Path) {
        let mut bases = vec![source.to_path_buf()];
        if let Ok(real) = std::fs::canonicalize(source) {
            bases.push(real);
        }
        for base in bases {
            self.add(&base);
            for suffix in SQLITE_COMPANIONS {
                self.add(&suffixed(&base, suffix));
            }
        }
    }

    /// Also protect one file (a side file, another output), by identity when it exists and by
    /// name.
    pub fn add(&mut self, path: &Path) {
        if let Ok(m) = std::fs::metadata(path) {
            self.ids.push((m.dev(), m.ino(), path.to_path_buf()));
        }
        if let Some(name) = resolved_name(path) {
            self.names.push(name);
        }
    }

    /// The protected file `target` would replace (followed through links, or by name), if any.
    pub fn covering(&self, target: &Path) -> Option<&Path> {
        for meta in [std::fs::metadata(target), std::fs::symlink_metadata(target)]
            .into_iter()
            .flatten()
        {
            if let Some((_, _, p)) = self.ids.iter().find(|(d, i, _)| *d == meta.dev() && *i == meta.ino()) {
                return Some(p);
            }
        }
        let name = resolved_name(target)?;
        self.names.iter().find(|n| **n == name).map(PathBuf::as_path)
    }
}

/// `path` with `suffix` appended to its file name (`db.sqlite` → `db.sqlite-wal`).
pub fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// `path` absolute, with its folder's links resolved (the file name itself is kept).
fn resolved_name(path: &Path) -> Option<PathBuf> {
    let abs = std::path::absolute(path).ok()?;
    let name = abs.file_name()?;
    let dir = abs.parent()?;
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    Some(dir.join(name))
}
