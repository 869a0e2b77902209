//! Holding a session file while it is repaired: a Linux write lease (`fcntl(F_SETLEASE,
//! F_WRLCK)`) is granted only while no other process has the file open or mapped for writing,
//! and while it is held any other process that opens the file waits in `open()` until it is
//! released (the lease holder sees the lease "breaking"). A writer that opens, appends and
//! closes (as OpenClaw's transcript writer does) therefore cannot append between the read and
//! the rename without the repair seeing it; see [`super::write`].

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::path::Path;

/// A file held under a write lease (or, where the file system has no leases, merely open).
#[derive(Debug)]
pub struct Leased {
    /// The open file.
    pub file: File,
    /// Whether the lease was granted; `false` where leases are not supported.
    pub leased: bool,
}

/// What taking the lease found.
#[derive(Debug)]
pub enum Lease {
    /// Held (or unsupported here: [`Leased::leased`] says which).
    Held(Leased),
    /// Another process has the file open or mapped for writing.
    Busy,
}

impl Leased {
    /// Open `path` for reading and take a write lease on it.
    pub fn open(path: &Path) -> io::Result<Lease> {
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
            .open(path)?;
        Self::lease(file)
    }

    /// Take a write lease on an open file (one this process may also hold open for writing).
    pub fn lease(file: File) -> io::Result<Lease> {
        ignore_lease_signal();
        // SAFETY: fcntl on a descriptor this File owns.
        let rc = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLEASE, libc::F_WRLCK) };
        if rc == 0 {
            return Ok(Lease::Held(Self { file, leased: true }));
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EAGAIN) | Some(libc::EBUSY) => Ok(Lease::Busy),
            // No leases on this file system, or not the file's owner without CAP_LEASE.
            Some(libc::EINVAL) | Some(libc::ENOLCK) | Some(libc::EACCES) | Some(libc::EPERM) => {
                Ok(Lease::Held(Self { file, leased: false }))
            }
            _ => Err(e),
        }
    }

    /// Whether no other process has tried to open the file since the lease was taken (always
    /// true without a lease).
    pub fn intact(&self) -> bool {
        if !self.leased {
            return true;
        }
        // SAFETY: fcntl on a descriptor this File owns.
        let rc = unsafe { libc::fcntl(self.file.as_raw_fd(), libc::F_GETLEASE) };
        rc == libc::F_WRLCK
    }

    /// Let waiting openers in.
    pub fn release(&mut self) {
        if self.leased {
            // SAFETY: fcntl on a descriptor this File owns.
            unsafe { libc::fcntl(self.file.as_raw_fd(), libc::F_SETLEASE, libc::F_UNLCK) };
            self.leased = false;
        }
    }
}

impl Drop for Leased {
    fn drop(&mut self) {
        self.release();
    }
}

/// A breaking lease is announced with SIGIO, whose default action ends the process; the repair
/// asks the lease's state instead, so the signal is ignored.
fn ignore_lease_signal() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: setting a signal to be ignored touches no Rust state.
        unsafe { libc::signal(libc::SIGIO, libc::SIG_IGN) };
    });
}
