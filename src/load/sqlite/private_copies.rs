//! The private copies of WAL databases that are being read, so that nothing is left behind in
//! the temporary folder: a copy is removed when it is dropped, by
//! [`remove_private_copies`] when the process is told to stop (SIGTERM, SIGHUP, SIGINT), and,
//! for a process that was killed outright, by the next run's sweep of copies whose process is
//! gone.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The name every private copy folder starts with, followed by the owning process id.
pub(super) const PREFIX: &str = "replaylens-db-";

static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Note a private copy folder that exists now.
pub(super) fn register(folder: &Path) {
    if let Ok(mut live) = LIVE.lock() {
        live.push(folder.to_owned());
    }
}

/// Forget a folder that was removed.
pub(super) fn unregister(folder: &Path) {
    if let Ok(mut live) = LIVE.lock() {
        live.retain(|f| f != folder);
    }
}

/// Remove every private copy this process holds (from a signal handler thread, before exit).
pub fn remove_private_copies() {
    let folders = LIVE
        .lock()
        .map(|mut live| std::mem::take(&mut *live))
        .unwrap_or_default();
    for folder in folders {
        let _ = std::fs::remove_dir_all(folder);
    }
}

/// Remove the private copies in `base` left by processes that no longer run (killed before
/// they could clean up). Only folders of this user's own making are touched: the name has the
/// prefix and a process id, and the folder is owned by this user.
pub(super) fn sweep_stale(base: &Path) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    let me = std::fs::metadata("/proc/self").map(|m| m.uid()).ok();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let owned = entry.metadata().is_ok_and(|m| m.is_dir() && Some(m.uid()) == me);
        if owned && pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_of_gone_processes_are_swept_and_live_ones_kept() {
        let base = tempfile::tempdir().unwrap();
        let gone = base.path().join(format!("{PREFIX}4194999-1f-0"));
        let mine = base.path().join(format!("{PREFIX}{}-2f-0", std::process::id()));
        let other = base.path().join("replaylens-notes");
        for d in [&gone, &mine, &other] {
            std::fs::create_dir(d).unwrap();
            std::fs::write(d.join("db.sqlite"), "x").unwrap();
        }
        sweep_stale(base.path());
        assert!(!gone.exists() && mine.exists() && other.exists());

        register(&mine);
        remove_private_copies();
        assert!(!mine.exists());
    }
}
