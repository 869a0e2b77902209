//! `replaylens repair`: OpenClaw's on-disk session-file repair (hygiene-b §4), the only
//! place replaylens ever writes a user's session file.

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
    if let Some(w) = writers::writers_of(path).first() {
        return Err(RepairError::Unsafe(held_open(&shown, w)));
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

/// Plan and, when needed, apply the repair. Returns the plan and the write outcome (None
/// when nothing needed repair, so the file was not touched).
pub fn repair_file(path: &Path, fail: Option<FailPoint>) -> Result<(RepairPlan, Option<WriteOutcome>), RepairError> {
    check_writable_target(path)?;
    let (plan, read, before) = plan_bytes(path)?;
    if plan.is_clean() {
        return Ok((plan, None));
    }
    let outcome =
        replace_with_backup(path, &read, before, &plan.content, fail).map_err(|source| RepairError::Write {
            path: path.to_owned(),
            source,
        })?;
    Ok((plan, Some(outcome)))
}
