//! Other processes that hold a session file open for writing.
//!
//! `repair` replaces the file by a rename. A writer that reopens the file for every line (as
//! OpenClaw's transcript writer does with `appendFile`) then writes to the new file; one that
//! keeps a handle open (a long-running agent process, `tail`-style loggers) would keep writing
//! to the old inode, and every line it wrote after the rename would be lost. `repair` therefore
//! refuses while any process it can see holds the file open for writing. Processes of other
//! users are not visible without privileges; the size-and-mtime check right before the rename
//! still catches a write from them in the window. A process that mapped the file shared and
//! writable and closed its descriptor still writes to it: such mappings are found in
//! `/proc/PID/maps`.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// A process holding the file open for writing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Writer {
    /// Its process id.
    pub pid: u32,
    /// Its command name (`/proc/PID/comm`).
    pub command: String,
}

/// Every process other than this one that holds `path` (the same device and inode, under any
/// name) open with write access, as far as `/proc` shows them; empty where there is no `/proc`.
pub fn writers_of(path: &Path) -> Vec<Writer> {
    let Ok(target) = std::fs::metadata(path) else {
        return Vec::new();
    };
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let me = std::process::id();
    let mut out = Vec::new();
    for entry in procs.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        if pid == me {
            continue;
        }
        let writes = std::fs::read_dir(entry.path().join("fd")).is_ok_and(|fds| {
            fds.flatten().any(|fd| {
                let same =
                    std::fs::metadata(fd.path()).is_ok_and(|m| m.dev() == target.dev() && m.ino() == target.ino());
                same && opened_for_writing(&entry.path(), &fd.file_name().to_string_lossy())
            })
        }) || maps_shared_writable(&entry.path(), target.dev(), target.ino());
        if writes {
            let command = std::fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
            out.push(Writer {
                pid,
                command: command.trim().to_owned(),
            });
        }
    }
    out
}

/// Whether descriptor `fd` of the process at `proc_dir` was opened write-only or read-write
/// (the access mode in the octal `flags:` line of `/proc/PID/fdinfo/FD`).
fn opened_for_writing(proc_dir: &Path, fd: &str) -> bool {
    let Ok(info) = std::fs::read_to_string(proc_dir.join("fdinfo").join(fd)) else {
        return false;
    };
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        .is_some_and(|flags| flags & 0o3 != 0)
}

/// Whether the process at `proc_dir` maps the file `(dev, ino)` shared and writable (a line of
/// `/proc/PID/maps` with permissions `rw?s` whose device and inode are the file's).
fn maps_shared_writable(proc_dir: &Path, dev: u64, ino: u64) -> bool {
    let Ok(maps) = std::fs::read_to_string(proc_dir.join("maps")) else {
        return false;
    };
    let device = format!("{:02x}:{:02x}", libc::major(dev), libc::minor(dev));
    let inode = ino.to_string();
    maps.lines().any(|line| {
        let mut f = line.split_ascii_whitespace();
        let (_, perms, _, d, i) = (f.next(), f.next(), f.next(), f.next(), f.next());
        perms.is_some_and(|p| p.as_bytes().get(1) == Some(&b'w') && p.as_bytes().get(3) == Some(&b's'))
            && d.is_some_and(|d| d.eq_ignore_ascii_case(&device))
            && i == Some(inode.as_str())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_appending_through_an_open_handle_is_found_and_a_reader_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("s.jsonl");
        std::fs::write(&file, "{}\n").unwrap();
        let script = |redirect: &str| format!("exec 3{redirect}'{}'; exec sleep 30", file.display());
        let mut writer = std::process::Command::new("sh")
            .args(["-c", &script(">>")])
            .spawn()
            .unwrap();
        let mut reader = std::process::Command::new("sh")
            .args(["-c", &script("<")])
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let mut found = writers_of(&file);
        while found.is_empty() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
            found = writers_of(&file);
        }
        let _ = writer.kill();
        let _ = reader.kill();
        let _ = writer.wait();
        let _ = reader.wait();
        assert_eq!(found.iter().map(|w| w.pid).collect::<Vec<_>>(), [writer.id()]);
        assert!(writers_of(&file).is_empty());
    }
}
