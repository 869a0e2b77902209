//! Writing a repaired session file safely: backup first, atomic replace, backup removed
//! only after success. The original is never lost, and neither is a line
//! another process appends while the repair runs.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::lease::{Lease, Leased};

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

    /// The file's length then.
    pub fn size(&self) -> u64 {
        self.len
    }
}

/// Replace `path` (canonical, held under `held`'s write lease) with `content`, planned from
/// `original`, the bytes read through `held`: write a backup `.<name>.<random>.replaylens-bak`
/// with those bytes, owner and mode, write a temporary `.<name>.<random>.replaylens-tmp` beside
/// it with the same owner, mode and extended attributes, check that no other process opened
/// the file since it was read (the lease is intact; without leases: it still looks like
/// `before` and no process holds it open or mapped for writing), rename the temporary over the
/// original, and check once more: a writer that reached the old file in between has its
/// write undone nowhere, because the repair is undone instead ([`undo`]). The backup is removed
/// after success. A symlink is followed: its target is repaired and the link stays. On failure
/// the original is untouched and the backup is kept; the error names it. None of these names
/// is listed as a session by `scan` or `sessions`, and a stop signal removes them.
pub fn replace_with_backup(
    path: &Path,
    held: &mut Leased,
    original: &[u8],
    before: Snapshot,
    content: &[u8],
    fail: Option<FailPoint>,
) -> std::io::Result<WriteOutcome> {
    use std::os::unix::fs::MetadataExt;
    let meta = held.file.metadata()?;
    let permissions = meta.permissions();
    let owner = (meta.uid(), meta.gid());
    let backup = scratch(path, "replaylens-bak");
    write_new(&backup, original)?;
    crate::write::register_scratch(&backup);
    // The owner first: chown clears set-user-id and set-group-id bits that chmod then restores.
    if let Err(e) = keep_owner(&backup, owner).and_then(|()| fs::set_permissions(&backup, permissions.clone())) {
        let _ = fs::remove_file(&backup);
        crate::write::unregister_scratch(&backup);
        return Err(e);
    }
    let keep_backup = |e: std::io::Error| {
        crate::write::unregister_scratch(&backup);
        std::io::Error::new(
            e.kind(),
            format!("{e}; the original is unchanged and a backup is at {}", backup.display()),
        )
    };
    if fail == Some(FailPoint::AfterBackup) {
        return Err(keep_backup(std::io::Error::other("injected failure after the backup")));
    }
    let temp = scratch(path, "replaylens-tmp");
    let created = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(&temp);
    let mut temp_file = match created {
        Ok(f) => f,
        Err(e) => return Err(keep_backup(e)),
    };
    crate::write::register_scratch(&temp);
    let remove_temp = || {
        let _ = fs::remove_file(&temp);
        crate::write::unregister_scratch(&temp);
    };
    let written = temp_file
        .write_all(content)
        .and_then(|()| temp_file.sync_all())
        .and_then(|()| keep_owner(&temp, owner))
        .and_then(|()| fs::set_permissions(&temp, permissions))
        .and_then(|()| copy_xattrs(path, &temp));
    if let Err(e) = written {
        remove_temp();
        return Err(keep_backup(e));
    }
    // The repaired file is held too: a writer opening it right after the rename waits until
    // the repair knows whether it stands.
    let mut fresh = match Leased::lease(temp_file.try_clone()?)? {
        Lease::Held(l) => l,
        Lease::Busy => {
            remove_temp();
            return Err(keep_backup(std::io::Error::other(
                "the new file was opened by another process",
            )));
        }
    };
    if fail == Some(FailPoint::BeforeRename) {
        remove_temp();
        return Err(keep_backup(std::io::Error::other("injected failure before the rename")));
    }
    let injected = (fail == Some(FailPoint::ConcurrentAppend)).then(|| inject_append(path, held));
    // Last check right before the rename: anything appended since the read would be lost,
    // and so would anything a process holding the file open writes after it.
    let unchanged = held.intact()
        && (held.leased || (Snapshot::of(path)? == before && super::writers::writers_of(path).is_empty()));
    if !unchanged {
        remove_temp();
        held.release();
        if let Some(t) = injected {
            let _ = t.join();
        }
        // The original was never touched: the backup is not needed.
        let _ = fs::remove_file(&backup);
        crate::write::unregister_scratch(&backup);
        if let Some(w) = super::writers::writers_of(path).first() {
            let shown = crate::text::escape_controls_single_line(&path.display().to_string()).into_owned();
            return Err(std::io::Error::other(format!(
                "{}; the original is unchanged",
                super::held_open(&shown, w)
            )));
        }
        return Err(std::io::Error::other(format!(
            "{}; the original is unchanged",
            changed_meanwhile(path)
        )));
    }
    // A second name for the original, to put it back should a writer reach it after all.
    let old = scratch(path, "replaylens-old");
    let linked = fs::hard_link(path, &old).is_ok();
    if linked {
        crate::write::register_scratch(&old);
    }
    if let Err(e) = fs::rename(&temp, path) {
        remove_temp();
        if linked {
            let _ = fs::remove_file(&old);
            crate::write::unregister_scratch(&old);
        }
        return Err(keep_backup(e));
    }
    crate::write::unregister_scratch(&temp);
    sync_dir(path);
    if linked && !stood(held, &old, original.len() as u64) {
        let result = undo(path, &old, &mut fresh, held, content.len() as u64);
        crate::write::unregister_scratch(&old);
        let _ = fs::remove_file(&backup);
        crate::write::unregister_scratch(&backup);
        return Err(result);
    }
    held.release();
    fresh.release();
    if linked {
        let _ = fs::remove_file(&old);
        crate::write::unregister_scratch(&old);
    }
    crate::write::unregister_scratch(&backup);
    match fs::remove_file(&backup) {
        Ok(()) => Ok(WriteOutcome { leftover_backup: None }),
        Err(_) => Ok(WriteOutcome {
            leftover_backup: Some(backup),
        }),
    }
}

/// Whether the original stayed as read through the rename: under a lease, no process opened
/// it (a writer that looked the name up just before the rename reaches the lease within
/// microseconds; the check waits a millisecond for it); without one, no process holds it
/// open or mapped for writing once those that do let go, and it kept its length.
fn stood(held: &Leased, old: &Path, read_len: u64) -> bool {
    if held.leased {
        std::thread::sleep(std::time::Duration::from_millis(1));
        return held.intact();
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !super::writers::writers_of(old).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    held.file.metadata().is_ok_and(|m| m.len() == read_len) && super::writers::writers_of(old).is_empty()
}

/// A writer reached the original after the read: put it back under its name (atomically
/// exchanged with the repaired file, so the name never goes missing), let the writer finish
/// there, and carry over to it whatever was written to the repaired file meanwhile. Nothing is
/// lost; the error says the repair was undone.
fn undo(path: &Path, old: &Path, fresh: &mut Leased, held: &mut Leased, repaired_len: u64) -> std::io::Error {
    use std::io::{Read, Seek};
    let shown = crate::text::escape_controls_single_line(&path.display().to_string()).into_owned();
    if let Err(e) = exchange(old, path) {
        held.release();
        fresh.release();
        return std::io::Error::other(format!(
            "{shown}: another process wrote to the session while it was being repaired, and putting the original back failed ({e}); the original, with what was written, is at {}",
            old.display()
        ));
    }
    sync_dir(path);
    held.release();
    fresh.release();
    // Wait until no other process has the repaired copy open, then move what it got to the end
    // of the original.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut settled = false;
    while std::time::Instant::now() < deadline {
        match fresh.file.try_clone().and_then(Leased::lease) {
            Ok(Lease::Held(mut l)) => {
                settled = true;
                l.release();
                break;
            }
            Ok(Lease::Busy) => std::thread::sleep(std::time::Duration::from_millis(2)),
            Err(_) => break,
        }
    }
    let mut extra = Vec::new();
    let copied = fresh
        .file
        .seek(std::io::SeekFrom::Start(repaired_len))
        .and_then(|_| fresh.file.read_to_end(&mut extra))
        .and_then(|_| {
            if extra.is_empty() {
                return Ok(());
            }
            let mut f = OpenOptions::new().append(true).open(path)?;
            f.write_all(&extra).and_then(|()| f.sync_all())
        });
    if settled && copied.is_ok() {
        let _ = fs::remove_file(old);
    } else {
        return std::io::Error::other(format!(
            "{shown}: another process wrote to the session while it was being repaired, so the repair was undone; what it wrote to the repaired copy could not all be moved back and the copy is kept at {}",
            old.display()
        ));
    }
    std::io::Error::other(format!(
        "{shown}: another process opened the session while it was being repaired, so the repair was undone (the file is as it was, with everything written meanwhile: nothing was lost); repair it again when the session is idle"
    ))
}

/// Swap two names atomically (`renameat2` with `RENAME_EXCHANGE`).
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other);
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: both are valid NUL-terminated paths; the call only reads them.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
}

/// The test's concurrent writer: another thread appends one line through its own descriptor
/// (under a lease it waits in `open()` until the repair lets go); returns once the repair can
/// see it.
fn inject_append(path: &Path, held: &Leased) -> std::thread::JoinHandle<()> {
    let p = path.to_path_buf();
    let t = std::thread::spawn(move || {
        if let Ok(mut f) = OpenOptions::new().append(true).open(&p) {
            let _ = f.write_all(b"{\"type\":\"custom\",\"id\":\"appended-meanwhile\"}\n");
        }
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while held.leased && held.intact() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    if !held.leased {
        // Without a lease the append does not wait: let it land before the check.
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    t
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

/// `<dir>/.<basename>.<random>.<kind>`, beside the original so the rename stays on one file
/// system; hidden, and named so no folder scan takes it for a session.
fn scratch(path: &Path, kind: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{:016x}.{kind}", crate::write::random()))
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
