//! Writing a repaired session file safely: backup first, atomic replace, backup removed
//! only after success (hygiene-b §4 step 9). The original is never lost.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A step at which a test can make the write fail, to prove the original survives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailPoint {
    /// After the backup was written, before the temporary file is.
    AfterBackup,
    /// After the temporary file was written, before it replaces the original.
    BeforeRename,
    /// Another writer (OpenClaw) appends a line after the temporary file was written, just
    /// before the last check.
    ConcurrentAppend,
}

/// What the write did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOutcome {
    /// The backup path, when it could not be removed after success.
    pub leftover_backup: Option<PathBuf>,
}

/// What identifies the version of a file a repair was planned from: a writer appending to it,
/// or replacing it, changes one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    dev: u64,
    ino: u64,
    len: u64,
    mtime_ns: i128,
}

impl Snapshot {
    /// The snapshot of a file now (symlinks followed).
    pub fn of(path: &Path) -> std::io::Result<Self> {
        use std::os::unix::fs::MetadataExt;
        let m = fs::metadata(path)?;
        Ok(Self {
            dev: m.dev(),
            ino: m.ino(),
            len: m.len(),
            mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
        })
    }
}

/// Replace `path` with `content`, planned from `original`, the bytes read when the file looked
/// like `before`: write `<file>.bak-<pid>-<ms>` with those bytes, owner and mode, write a
/// temporary `<basename>.repair…` file beside it with the same owner and mode, check that the
/// file still looks like `before` (an agent appending to it meanwhile would lose those lines),
/// rename it over the original, then remove the backup. A symlink is followed: its target is repaired and the
/// link stays. On failure the original file is untouched and the backup is kept; the error names
/// it.
pub fn replace_with_backup(
    path: &Path,
    original: &[u8],
    before: Snapshot,
    content: &[u8],
    fail: Option<FailPoint>,
) -> std::io::Result<WriteOutcome> {
    use std::os::unix::fs::MetadataExt;
    let path = &fs::canonicalize(path)?;
    if Snapshot::of(path)? != before {
        return Err(changed_meanwhile(path));
    }
    let meta = fs::metadata(path)?;
    let permissions = meta.permissions();
    let owner = (meta.uid(), meta.gid());
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let backup = sibling(path, &format!(".bak-{}-{ms}", std::process::id()));
    write_new(&backup, original)?;
    // The owner first: chown clears set-user-id and set-group-id bits that chmod then restores.
    if let Err(e) = keep_owner(&backup, owner).and_then(|()| fs::set_permissions(&backup, permissions.clone())) {
        let _ = fs::remove_file(&backup);
        return Err(e);
    }
    let keep_backup = |e: std::io::Error| {
        std::io::Error::new(
            e.kind(),
            format!("{e}; the original is unchanged and a backup is at {}", backup.display()),
        )
    };
    if fail == Some(FailPoint::AfterBackup) {
        return Err(keep_backup(std::io::Error::other("injected failure after the backup")));
    }
    let temp = sibling(path, &format!(".repair-{}-{ms}.tmp", std::process::id()));
    let written = write_new(&temp, content)
        .and_then(|()| keep_owner(&temp, owner))
        .and_then(|()| fs::set_permissions(&temp, permissions))
        .and_then(|()| copy_xattrs(path, &temp));
    if let Err(e) = written {
        let _ = fs::remove_file(&temp);
        return Err(keep_backup(e));
    }
    if fail == Some(FailPoint::BeforeRename) {
        let _ = fs::remove_file(&temp);
        return Err(keep_backup(std::io::Error::other("injected failure before the rename")));
    }
    if fail == Some(FailPoint::ConcurrentAppend) {
        let mut f = OpenOptions::new().append(true).open(path)?;
        f.write_all(b"{\"type\":\"custom\",\"id\":\"appended-meanwhile\"}\n")?;
    }
    // Last check right before the rename: anything appended since the read would be lost,
    // and so would anything a process holding the file open writes after it.
    if Snapshot::of(path)? != before {
        let _ = fs::remove_file(&temp);
        return Err(keep_backup(changed_meanwhile(path)));
    }
    if let Some(w) = super::writers::writers_of(path).first() {
        let _ = fs::remove_file(&temp);
        let shown = crate::text::escape_controls_single_line(&path.display().to_string()).into_owned();
        return Err(keep_backup(std::io::Error::other(super::held_open(&shown, w))));
    }
    if let Err(e) = fs::rename(&temp, path) {
        let _ = fs::remove_file(&temp);
        return Err(keep_backup(e));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
    match fs::remove_file(&backup) {
        Ok(()) => Ok(WriteOutcome { leftover_backup: None }),
        Err(_) => Ok(WriteOutcome {
            leftover_backup: Some(backup),
        }),
    }
}

/// The file changed between the read and the replace.
fn changed_meanwhile(path: &Path) -> std::io::Error {
    std::io::Error::other(format!(
        "{} changed while it was being repaired (is OpenClaw writing to it?); nothing was written, try again when the session is idle",
        path.display()
    ))
}

/// Give a file the original's owner and group (a no-op when they already match; only root may
/// give a file to someone else).
fn keep_owner(path: &Path, (uid, gid): (u32, u32)) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let m = fs::metadata(path)?;
    if (m.uid(), m.gid()) == (uid, gid) {
        return Ok(());
    }
    std::os::unix::fs::chown(path, Some(uid), Some(gid))
}

/// `<dir>/<basename><suffix>`, beside the original so the rename stays on one file system.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!("{name}{suffix}"))
}

/// Create `path` with `bytes`; a file left half-written (a full disk) is removed again.
fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = OpenOptions::new().write(true).create_new(true).open(path)?;
    let written = f.write_all(bytes).and_then(|()| f.sync_all());
    if written.is_err() {
        drop(f);
        let _ = fs::remove_file(path);
    }
    written
}

/// Give `to` every extended attribute of `from` (ACLs, SELinux labels, user attributes); an
/// attribute that cannot be copied fails the repair rather than being dropped in silence. A
/// file system without extended attributes has none to copy.
fn copy_xattrs(from: &Path, to: &Path) -> std::io::Result<()> {
    let names = match xattr::list(from) {
        Ok(names) => names,
        Err(e) if e.raw_os_error() == Some(95) => return Ok(()),
        Err(e) => return Err(e),
    };
    for name in names {
        if let Some(value) = xattr::get(from, &name)? {
            xattr::set(to, &name, &value).map_err(|e| {
                std::io::Error::new(
                    e.kind(),
                    format!(
                        "cannot keep the extended attribute {} on the repaired file: {e}",
                        name.to_string_lossy()
                    ),
                )
            })?;
        }
    }
    Ok(())
}
