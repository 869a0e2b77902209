//! `replaylens repair`: OpenClaw's on-disk session-file repair (`repairSessionFileIfNeeded`,
//! `docs/rule-sets.md`), the only
//! place replaylens ever writes a user's session file.

pub mod lease;
pub mod lock;
pub mod plan;
pub mod write;
pub mod writers;

use std::path::Path;

pub use plan::{NotJsonl, RepairChange, RepairPlan, RepairRefusal, plan};
pub use write::{FailPoint, Snapshot, WriteOutcome, replace_with_backup};

/// Why a repair could not run.
#[derive(Debug, thiserror::Error)]
pub enum RepairError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not something the repair touches.
    #[error(transparent)]
    Refused(#[from] RepairRefusal),
    /// Replacing the file would lose something (read-only, hard links, not a regular file).
    #[error("{0}")]
    Unsafe(String),
    /// Writing failed; the original is unchanged.
    #[error("repair of {} failed: {source}", path.display())]
    Write {
        /// The file.
        path: std::path::PathBuf,
        /// The OS error (names the kept backup).
        source: std::io::Error,
    },
}

/// Plan the repair of a file on disk.
pub fn plan_file(path: &Path) -> Result<RepairPlan, RepairError> {
    plan_bytes(path).map(|(plan, _, _)| plan)
}

/// Read the file and plan its repair; also returns the bytes the plan was made from and how
/// the file looked just before they were read.
fn plan_bytes(path: &Path) -> Result<(RepairPlan, Vec<u8>, Snapshot), RepairError> {
    check_regular(path)?;
    let before = Snapshot::of(path).map_err(|source| RepairError::Read {
        path: path.to_owned(),
        source,
    })?;
    check_size(path, before.size())?;
    let bytes = std::fs::read(path).map_err(|source| RepairError::Read {
        path: path.to_owned(),
        source,
    })?;
    Ok((plan(path, &bytes)?, bytes, before))
}

/// Refuse anything but a regular file: a folder or device is named as what it is, and a
/// FIFO is never read (it would block forever), also in a dry run.
fn check_regular(path: &Path) -> Result<(), RepairError> {
    crate::load::limits::check_regular(path).map_err(|e| match e {
        crate::load::LoadError::Io { path, source } => RepairError::Read { path, source },
        other => RepairError::Unsafe(other.to_string()),
    })
}

/// Refuse what a repair cannot replace without loss: not a regular file, a read-only file, a
/// file with several hard links (replacing it would split them).
fn check_writable_target(path: &Path) -> Result<(), RepairError> {
    use std::os::unix::fs::MetadataExt;
    check_regular(path)?;
    let meta = std::fs::metadata(path).map_err(|source| RepairError::Read {
        path: path.to_owned(),
        source,
    })?;
    let shown = crate::text::escape_controls_single_line(&path.display().to_string()).into_owned();
    if meta.permissions().readonly() {
        return Err(RepairError::Unsafe(format!(
            "{shown} is read-only; make it writable first if it should be repaired"
        )));
    }
    if meta.nlink() > 1 {
        return Err(RepairError::Unsafe(format!(
            "{shown} has {} hard links; replacing it would split them, so it is left alone",
            meta.nlink()
        )));
    }
    Ok(())
}

/// Why a file another process holds open for writing is not repaired.
pub(crate) fn held_open(shown: &str, w: &writers::Writer) -> String {
    format!(
        "{shown} is open for writing by {} (pid {}); a repair replaces the file, and what that process writes afterwards would go to the old copy and be lost, so nothing was written; repair it when the process has closed it",
        crate::text::escape_controls_single_line(&w.command),
        w.pid
    )
}

/// The largest file a repair reads: the document limit every command applies
/// ([`crate::load::limits::DEFAULT_DOCUMENT_MIB`]); a repair holds the file and its repaired
/// copy in memory.
pub const MAX_REPAIR_BYTES: u64 = crate::load::limits::DEFAULT_DOCUMENT_MIB << 20;

/// Refuse a file over [`MAX_REPAIR_BYTES`] (a sparse 3 GiB file, one 1 GiB line) in one
/// sentence, before reading it.
fn check_size(path: &Path, len: u64) -> Result<(), RepairError> {
    if len > MAX_REPAIR_BYTES {
        return Err(RepairError::Unsafe(format!(
            "{} is {} MiB; repair reads the whole file, and files over {} MiB are refused, as every command refuses them",
            crate::text::escape_controls_single_line(&path.display().to_string()),
            len >> 20,
            MAX_REPAIR_BYTES >> 20
        )));
    }
    Ok(())
}

/// Plan and, when needed, apply the repair. Returns the plan and the write outcome (None
/// when nothing needed repair, so the file was not touched). The session is held for the whole
/// repair: OpenClaw's session write lock ([`lock`]) is taken, and a write lease ([`lease`])
/// makes any other process that opens the file meanwhile visible (it waits until the repair
/// is over); a repair another process reached anyway is undone.
pub fn repair_file(path: &Path, fail: Option<FailPoint>) -> Result<(RepairPlan, Option<WriteOutcome>), RepairError> {
    use std::io::Read;
    check_writable_target(path)?;
    check_size(path, std::fs::metadata(path).map_or(0, |m| m.len()))?;
    let read_err = |source| RepairError::Read {
        path: path.to_owned(),
        source,
    };
    let real = std::fs::canonicalize(path).map_err(read_err)?;
    let _lock = lock::SessionLock::acquire(&real).map_err(|e| match e {
        lock::LockError::Held(why) => RepairError::Unsafe(why),
        lock::LockError::Io(source) => RepairError::Write {
            path: path.to_owned(),
            source,
        },
    })?;
    let shown = crate::text::escape_controls_single_line(&path.display().to_string()).into_owned();
    let mut held = match lease::Leased::open(&real).map_err(read_err)? {
        lease::Lease::Held(h) => h,
        lease::Lease::Busy => {
            let why = match writers::writers_of(&real).first() {
                Some(w) => held_open(&shown, w),
                None => format!(
                    "{shown} is open for writing by another process; a repair replaces the file, so nothing was written; repair it when the process has closed it"
                ),
            };
            return Err(RepairError::Unsafe(why));
        }
    };
    // Without leases (a file system that has none), look for writers in /proc instead.
    if !held.leased
        && let Some(w) = writers::writers_of(&real).first()
    {
        return Err(RepairError::Unsafe(held_open(&shown, w)));
    }
    let before = Snapshot::of(&real).map_err(read_err)?;
    check_size(path, before.size())?;
    let mut read = Vec::new();
    (&held.file)
        .take(MAX_REPAIR_BYTES + 1)
        .read_to_end(&mut read)
        .map_err(read_err)?;
    check_size(path, read.len() as u64)?;
    let plan = plan(path, &read)?;
    if plan.is_clean() {
        return Ok((plan, None));
    }
    let outcome = replace_with_backup(&real, &mut held, &read, before, &plan.content, fail).map_err(|source| {
        RepairError::Write {
            path: path.to_owned(),
            source,
        }
    })?;
    Ok((plan, Some(outcome)))
}
