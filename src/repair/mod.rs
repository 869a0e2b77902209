//! `replaylens repair`: OpenClaw's on-disk session-file repair (hygiene-b §4), the only
//! place replaylens ever writes a user's session file.

pub mod plan;
pub mod write;

use std::path::Path;

pub use plan::{RepairChange, RepairPlan, RepairRefusal, plan};
pub use write::{FailPoint, WriteOutcome, replace_with_backup};

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
    let bytes = std::fs::read(path).map_err(|source| RepairError::Read {
        path: path.to_owned(),
        source,
    })?;
    Ok(plan(path, &bytes)?)
}

/// Plan and, when needed, apply the repair. Returns the plan and the write outcome (None
/// when nothing needed repair, so the file was not touched).
pub fn repair_file(path: &Path, fail: Option<FailPoint>) -> Result<(RepairPlan, Option<WriteOutcome>), RepairError> {
    let plan = plan_file(path)?;
    if plan.is_clean() {
        return Ok((plan, None));
    }
    let outcome = replace_with_backup(path, &plan.content, fail).map_err(|source| RepairError::Write {
        path: path.to_owned(),
        source,
    })?;
    Ok((plan, Some(outcome)))
}
