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
}

/// What the write did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOutcome {
    /// The backup path, when it could not be removed after success.
    pub leftover_backup: Option<PathBuf>,
}

/// Replace `path` with `content`: write `<file>.bak-<pid>-<ms>` with the original bytes and
/// mode, write a temporary `<basename>.repair…` file beside it with the same mode, rename it
/// over the original, then remove the backup. On failure the original file is untouched and
/// the backup is kept; the error names it.
pub fn replace_with_backup(path: &Path, content: &[u8], fail: Option<FailPoint>) -> std::io::Result<WriteOutcome> {
    let original = fs::read(path)?;
    let permissions = fs::metadata(path)?.permissions();
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let backup = sibling(path, &format!(".bak-{}-{ms}", std::process::id()));
    write_new(&backup, &original)?;
    fs::set_permissions(&backup, permissions.clone())?;
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
    let written = write_new(&temp, content).and_then(|()| fs::set_permissions(&temp, permissions));
    if let Err(e) = written {
        let _ = fs::remove_file(&temp);
        return Err(keep_backup(e));
    }
    if fail == Some(FailPoint::BeforeRename) {
        let _ = fs::remove_file(&temp);
        return Err(keep_backup(std::io::Error::other("injected failure before the rename")));
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

/// `<dir>/<basename><suffix>`, beside the original so the rename stays on one file system.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!("{name}{suffix}"))
}

fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = OpenOptions::new().write(true).create_new(true).open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}
