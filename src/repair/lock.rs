//! OpenClaw's session write lock, held while a repair runs. OpenClaw releases up to 2026.7
//! coordinate every writer of a session file with a sidecar `<file>.lock` beside the file (its
//! folder's links resolved), created exclusively and holding `{"pid", "createdAt",
//! "starttime"}` (`acquireSessionWriteLock` in `session-write-lock-*.js`); 2026.9.x keeps the
//! function as a no-op stub, and its generic `.lock` sidecars (`acquireFileLock` in
//! `file-lock-*.mjs`) use the same shape. `repair` takes the same lock, so an OpenClaw that
//! honours it waits, and refuses when someone else holds it.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// Why the lock was not taken.
#[derive(Debug)]
pub enum LockError {
    /// Someone holds it (or left it): the sentence says who.
    Held(String),
    /// Creating or writing it failed (an unwritable folder, a full disk).
    Io(std::io::Error),
}

/// The lock, held until dropped.
#[derive(Debug)]
pub struct SessionLock {
    path: PathBuf,
}

impl SessionLock {
    /// The lock path of `session` (already canonical).
    pub fn path_of(session: &Path) -> PathBuf {
        crate::write::suffixed(session, ".lock")
    }

    /// Take the lock of `session`, or say who holds it.
    pub fn acquire(session: &Path) -> Result<Self, LockError> {
        let path = Self::path_of(session);
        let created = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .mode(0o600)
            .open(&path);
        let mut file = match created {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return Err(LockError::Held(held_by(&path))),
            Err(e) => {
                let why = format!("cannot take the session write lock {}: {e}", shown(&path));
                return Err(LockError::Io(std::io::Error::new(e.kind(), why)));
            }
        };
        crate::write::register_scratch(&path);
        let lock = Self { path };
        let payload = serde_json::json!({
            "pid": std::process::id(),
            "createdAt": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            "starttime": start_time(),
        });
        file.write_all(payload.to_string().as_bytes()).map_err(|e| {
            let why = format!("cannot write the session write lock {}: {e}", shown(&lock.path));
            LockError::Io(std::io::Error::new(e.kind(), why))
        })?;
        Ok(lock)
    }
}

impl Drop for SessionLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        crate::write::unregister_scratch(&self.path);
    }
}

/// Why the lock cannot be taken: who holds it, as its payload says.
fn held_by(path: &Path) -> String {
    let payload: Option<serde_json::Value> = std::fs::read(path).ok().and_then(|b| serde_json::from_slice(&b).ok());
    let pid = payload
        .as_ref()
        .and_then(|p| p.get("pid"))
        .and_then(serde_json::Value::as_u64);
    match pid {
        Some(pid) if Path::new(&format!("/proc/{pid}")).exists() => format!(
            "{} is held by pid {pid} (OpenClaw's session write lock); nothing was written, repair the session when that run is over",
            shown(path)
        ),
        _ => format!(
            "{} exists (OpenClaw's session write lock) but its owner is gone; nothing was written: remove the lock file if no OpenClaw run is using this session, then repair again",
            shown(path)
        ),
    }
}

/// This process's start time in clock ticks since boot (`/proc/self/stat` field 22), as
/// OpenClaw records it to tell a reused pid.
fn start_time() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    rest.split(' ').nth(19)?.parse().ok()
}

fn shown(p: &Path) -> String {
    crate::text::escape_controls_single_line(&p.display().to_string()).into_owned()
}
