//! One safe way to write an output file, used by every command and inspector action that writes
//! one (`export -o`, `--with-session`, `reduce` and its side file, the inspector's export and
//! `R`, the Parquet sink of `scan`).
//!
//! The bytes go to a new file beside the final name, created exclusively under a name no one
//! can plant (`.<name>.<random>.replaylens-tmp`, `O_EXCL | O_NOFOLLOW`), are synced, and the file
//! is then renamed over the final name. A rename replaces a symlink rather than writing through
//! it, so a planted link never leads the bytes elsewhere, and a failed write (a full disk) leaves
//! the final name as it was: never a truncated file. An existing target is replaced only when it
//! is a regular file (or a link) that is none of the [`Protected`] files and the caller allows
//! replacing. Temporaries in flight are listed so a stop signal can remove them
//! ([`remove_temporaries`]).

pub mod protect;

use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub use protect::{Protected, SQLITE_COMPANIONS, suffixed};

/// Whether an existing file under the final name may be replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    /// Refuse when the final name exists (as a file, a link, dangling or not, or anything).
    Never,
    /// Replace an existing regular file or link that is not protected.
    Allowed,
}

/// Why an output was not written. The final name is untouched in every case.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The target is the session, a companion or side file of it, or an alias of one.
    #[error("{}: refusing to write over {}; choose another file name", shown(.target), shown(.protected))]
    Protected {
        /// The output asked for.
        target: PathBuf,
        /// The protected file it would replace.
        protected: PathBuf,
    },
    /// The target exists and replacing was not allowed.
    #[error("{} already exists; nothing written", shown(.0))]
    Exists(PathBuf),
    /// The target is a folder, FIFO, device or socket.
    #[error("{} is {}, not a file; nothing written", shown(.0), .1)]
    NotRegular(PathBuf, &'static str),
    /// Creating, writing, syncing or renaming failed.
    #[error("cannot write {}: {source}; nothing was left under that name", shown(.target))]
    Io {
        /// The output asked for.
        target: PathBuf,
        /// The OS error.
        source: io::Error,
    },
}

impl WriteError {
    /// Whether the path itself is the problem (exit status 2) rather than the disk.
    pub fn is_unusable_argument(&self) -> bool {
        use io::ErrorKind as K;
        match self {
            Self::Protected { .. } | Self::Exists(_) | Self::NotRegular(..) => true,
            Self::Io { source, .. } => matches!(
                source.kind(),
                K::NotFound | K::PermissionDenied | K::ReadOnlyFilesystem | K::NotADirectory | K::InvalidFilename
            ),
        }
    }
}

fn shown(p: &Path) -> String {
    crate::text::escape_controls_single_line(&p.display().to_string()).into_owned()
}

/// Temporaries and other scratch files being written now, removed by [`remove_temporaries`].
static IN_FLIGHT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// List a scratch file a stop signal must remove (repair's backup and lock use it too).
pub fn register_scratch(path: &Path) {
    if let Ok(mut l) = IN_FLIGHT.lock() {
        l.push(path.to_path_buf());
    }
}

/// The scratch file is gone or kept on purpose: no longer removed on a signal.
pub fn unregister_scratch(path: &Path) {
    if let Ok(mut l) = IN_FLIGHT.lock() {
        l.retain(|p| p != path);
    }
}

/// Remove every scratch file in flight (a stop signal's handler calls this before exiting).
pub fn remove_temporaries() {
    let paths = IN_FLIGHT.lock().map(|l| l.clone()).unwrap_or_default();
    for p in paths {
        let _ = std::fs::remove_file(p);
    }
}

/// Check that `target` may be written: not protected, not a folder or special file, and not
/// existing unless `replace` allows it. Commands check every output before long work.
pub fn check(target: &Path, protected: &Protected, replace: Replace) -> Result<(), WriteError> {
    use std::os::unix::fs::FileTypeExt;
    if let Some(p) = protected.covering(target) {
        return Err(WriteError::Protected {
            target: target.to_path_buf(),
            protected: p.to_path_buf(),
        });
    }
    let Ok(meta) = std::fs::symlink_metadata(target) else {
        return Ok(());
    };
    let t = meta.file_type();
    let kind = if t.is_dir() {
        Some("a folder")
    } else if t.is_fifo() {
        Some("a FIFO")
    } else if t.is_char_device() || t.is_block_device() {
        Some("a device")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        None
    };
    if let Some(kind) = kind {
        return Err(WriteError::NotRegular(target.to_path_buf(), kind));
    }
    if replace == Replace::Never {
        return Err(WriteError::Exists(target.to_path_buf()));
    }
    Ok(())
}

/// An output being written under a temporary name; [`AtomicFile::commit`] puts it in place,
/// dropping it uncommitted removes it.
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    file: Option<io::BufWriter<File>>,
    protected: Protected,
    replace: Replace,
    /// Fault injection (`REPLAYLENS_FAULT_WRITE_AFTER`): bytes accepted before writes fail as on
    /// a full disk.
    fail_after: Option<u64>,
    written: u64,
    committed: bool,
}

/// Start writing `target`: check it ([`check`]) and create the temporary beside it.
pub fn create(target: &Path, protected: &Protected, replace: Replace) -> Result<AtomicFile, WriteError> {
    check(target, protected, replace)?;
    let io_err = |source| WriteError::Io {
        target: target.to_path_buf(),
        source,
    };
    let name = target
        .file_name()
        .ok_or_else(|| io_err(io::Error::new(io::ErrorKind::InvalidFilename, "no file name")))?;
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut last = None;
    for _ in 0..16 {
        let temp = dir.join(format!(
            ".{}.{:016x}.replaylens-tmp",
            name.to_string_lossy().chars().take(100).collect::<String>(),
            random()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .mode(0o666)
            .open(&temp)
        {
            Ok(f) => {
                register_scratch(&temp);
                return Ok(AtomicFile {
                    target: target.to_path_buf(),
                    temp,
                    file: Some(io::BufWriter::with_capacity(1 << 16, f)),
                    protected: protected.clone(),
                    replace,
                    fail_after: std::env::var("REPLAYLENS_FAULT_WRITE_AFTER")
                        .ok()
                        .and_then(|v| v.parse().ok()),
                    written: 0,
                    committed: false,
                });
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(io_err(e)),
        }
    }
    Err(io_err(
        last.unwrap_or_else(|| io::Error::other("no free temporary name")),
    ))
}

/// Write `bytes` to `target` at once: [`create`], write, [`AtomicFile::commit`].
pub fn write_file(target: &Path, protected: &Protected, replace: Replace, bytes: &[u8]) -> Result<(), WriteError> {
    let mut f = create(target, protected, replace)?;
    f.write_all(bytes).map_err(|source| WriteError::Io {
        target: target.to_path_buf(),
        source,
    })?;
    f.commit()
}

impl AtomicFile {
    /// The final name.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flush, sync, check the target again (it may have been planted meanwhile) and rename the
    /// temporary over it; the folder is synced so the name survives a crash.
    pub fn commit(mut self) -> Result<(), WriteError> {
        let target = self.target.clone();
        let io_err = |source| WriteError::Io {
            target: target.clone(),
            source,
        };
        let mut file = self
            .file
            .take()
            .ok_or_else(|| io_err(io::Error::other("already committed")))?;
        file.flush().map_err(io_err)?;
        let file = file.into_inner().map_err(|e| io_err(e.into_error()))?;
        file.sync_all().map_err(io_err)?;
        drop(file);
        check(&self.target, &self.protected, self.replace)?;
        let renamed = if self.replace == Replace::Never {
            rename_noreplace(&self.temp, &self.target)
        } else {
            std::fs::rename(&self.temp, &self.target)
        };
        renamed.map_err(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => WriteError::Exists(self.target.clone()),
            _ => io_err(e),
        })?;
        self.committed = true;
        unregister_scratch(&self.temp);
        if let Some(dir) = self.target.parent().filter(|d| !d.as_os_str().is_empty())
            && let Ok(d) = File::open(dir)
        {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let file = self
            .file
            .as_mut()
            .ok_or_else(|| io::Error::other("already committed"))?;
        let n = match self.fail_after {
            Some(limit) if self.written + buf.len() as u64 > limit => {
                let room = limit.saturating_sub(self.written) as usize;
                if room == 0 {
                    return Err(io::Error::from_raw_os_error(libc::ENOSPC));
                }
                file.write(&buf[..room])?
            }
            _ => file.write(buf)?,
        };
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.file.as_mut() {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.committed {
            self.file = None;
            let _ = std::fs::remove_file(&self.temp);
            unregister_scratch(&self.temp);
        }
    }
}

/// Rename `from` to `to` unless `to` exists (atomically: `renameat2` with `RENAME_NOREPLACE`;
/// a link and unlink where the file system lacks it).
fn rename_noreplace(from: &Path, to: &Path) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(io::Error::other);
    let (f, t) = (c(from)?, c(to)?);
    // SAFETY: both are valid NUL-terminated paths; the call only reads them.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            f.as_ptr(),
            libc::AT_FDCWD,
            t.as_ptr(),
            libc::RENAME_NOREPLACE,
        )
    };
    if rc == 0 {
        return Ok(());
    }
    let e = io::Error::last_os_error();
    if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) {
        std::fs::hard_link(from, to)?;
        return std::fs::remove_file(from);
    }
    Err(e)
}

/// 64 unpredictable bits (the standard library's randomly keyed hasher, the time and the pid).
pub fn random() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish()
}

#[cfg(test)]
mod tests;
