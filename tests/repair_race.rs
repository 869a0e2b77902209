//! `repair` against live writers (issue 45, data loss 2): a writer that keeps the file open, one
//! that opens, appends one line and closes (as OpenClaw's transcript writer does), and one that
//! maps the file shared, closes its descriptor and writes through the mapping race 10,002
//! repairs in all; every line each writer wrote is in the file afterwards. The writers are
//! separate processes (this test binary run again as `writer_process`).

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use replaylens::repair::{RepairError, repair_file};

/// Repairs raced per writer kind (three kinds: 10,002 in all).
const REPAIRS_PER_WRITER: usize = 3_334;

const HEADER: &str =
    r#"{"type":"session","version":3,"id":"race","timestamp":"2026-03-09T09:00:00.000Z","cwd":"/tmp"}"#;

/// The folder the race runs in: memory-backed where there is one (the repairs sync every file
/// they write; on a disk that, not the race, would take the time).
fn scratch_dir() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() && tempfile::tempdir_in(shm).is_ok() {
        return tempfile::tempdir_in(shm).unwrap();
    }
    tempfile::tempdir().unwrap()
}

fn spawn_writer(kind: &str, file: &Path, stop: &Path) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["writer_process", "--exact", "--nocapture", "--test-threads=1"])
        .env("RACE_WRITER", kind)
        .env("RACE_FILE", file)
        .env("RACE_STOP", stop)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// The lines a writer reported writing, from its stdout (`wrote N`).
fn written(child: Child) -> usize {
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.split("wrote ").nth(1))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("the writer reported nothing: {text}"))
}

/// One writer raced by `REPAIRS_PER_WRITER` repairs: the lines it wrote and the repairs run.
fn race(kind: &str) -> (usize, usize) {
    let dir = scratch_dir();
    let file = dir.path().join("race.jsonl");
    std::fs::write(&file, format!("{HEADER}\n")).unwrap();
    let stop = dir.path().join("stop");
    let writer = spawn_writer(kind, &file, &stop);
    let started = std::time::Instant::now();
    let (mut repaired, mut refused, mut undone, mut clean) = (0, 0, 0, 0);
    for _ in 0..REPAIRS_PER_WRITER {
        // Something to repair every time: a line that is not JSON.
        if let Ok(mut f) = std::fs::OpenOptions::new().append(true).open(&file) {
            let _ = f.write_all(b"{\"type\":\"custom\", BROKEN\n");
        }
        match repair_file(&file, None) {
            Ok((_, Some(_))) => repaired += 1,
            // The writer's own line landed first and the broken one was already repaired.
            Ok((_, None)) => clean += 1,
            Err(RepairError::Unsafe(_)) => refused += 1,
            Err(RepairError::Write { source, .. }) if source.to_string().contains("undone") => undone += 1,
            Err(RepairError::Write { source, .. }) if source.to_string().contains("the original is unchanged") => {
                refused += 1
            }
            Err(e) => panic!("{kind}: {e}"),
        }
    }
    std::fs::write(&stop, "").unwrap();
    let lines = written(writer);
    let text = std::fs::read_to_string(&file).unwrap();
    let prefix = format!("\"id\":\"{kind}-");
    let mut seen: Vec<usize> = text
        .lines()
        .filter_map(|l| l.split(&prefix).nth(1))
        .filter_map(|rest| rest.split('"').next()?.parse().ok())
        .collect();
    seen.sort_unstable();
    seen.dedup();
    let missing: Vec<usize> = (0..lines).filter(|n| seen.binary_search(n).is_err()).collect();
    assert!(
        missing.is_empty(),
        "{kind}: {} of {lines} lines lost (first {:?}); {repaired} repaired, {refused} refused, {undone} undone",
        missing.len(),
        &missing[..missing.len().min(5)]
    );
    assert!(!text.contains('\0'), "{kind}: no half-written mapping region is left");
    let leftovers: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{kind}: {leftovers:?}");
    eprintln!(
        "{kind}: {:.1} s, {lines} lines written, 0 lost; {repaired} repaired, {refused} refused, {undone} undone, {clean} found clean",
        started.elapsed().as_secs_f64()
    );
    (lines, repaired + refused + undone + clean)
}

#[test]
fn no_line_is_lost_to_ten_thousand_repairs() {
    let mut total = 0;
    for kind in ["append-close", "held-open", "mmap"] {
        let (lines, repairs) = race(kind);
        assert!(lines > 0, "{kind}: the writer wrote");
        total += repairs;
    }
    assert!(total >= 10_000, "{total}");
}

/// Not a test of its own: the writer process the race spawns (it returns at once otherwise).
#[test]
fn writer_process() {
    let (Ok(kind), Ok(file), Ok(stop)) = (
        std::env::var("RACE_WRITER"),
        std::env::var("RACE_FILE"),
        std::env::var("RACE_STOP"),
    ) else {
        return;
    };
    let (file, stop) = (PathBuf::from(file), PathBuf::from(stop));
    let line = |n: usize| format!("{{\"type\":\"custom\",\"customType\":\"race\",\"id\":\"{kind}-{n}\"}}\n");
    let mut n = 0;
    // Bounded and paced, so the file stays small and the race, not the file's growth, is
    // what the repairs meet.
    let pace = || std::thread::sleep(std::time::Duration::from_millis(2));
    let more = |n: usize| n < 1_000 && !stop.exists();
    match kind.as_str() {
        "append-close" => {
            while more(n) {
                let mut f = std::fs::OpenOptions::new().append(true).open(&file).unwrap();
                f.write_all(line(n).as_bytes()).unwrap();
                drop(f);
                n += 1;
                pace();
            }
        }
        "held-open" => {
            while more(n) {
                let mut f = std::fs::OpenOptions::new().append(true).open(&file).unwrap();
                for _ in 0..5 {
                    f.write_all(line(n).as_bytes()).unwrap();
                    n += 1;
                    pace();
                }
                drop(f);
                pace();
                pace();
            }
        }
        "mmap" => {
            use std::os::fd::AsRawFd;
            while more(n) {
                pace();
                let bytes = line(n);
                let f = std::fs::OpenOptions::new().read(true).write(true).open(&file).unwrap();
                let old = f.metadata().unwrap().len() as usize;
                let new = old + bytes.len();
                f.set_len(new as u64).unwrap();
                // SAFETY: a shared mapping of the whole file, which is `new` bytes long; the
                // descriptor is closed before the mapping is written, as the hostile writer did.
                unsafe {
                    let p = libc::mmap(
                        std::ptr::null_mut(),
                        new,
                        libc::PROT_READ | libc::PROT_WRITE,
                        libc::MAP_SHARED,
                        f.as_raw_fd(),
                        0,
                    );
                    assert_ne!(p, libc::MAP_FAILED);
                    drop(f);
                    std::ptr::copy_nonoverlapping(bytes.as_ptr(), (p as *mut u8).add(old), bytes.len());
                    libc::msync(p, new, libc::MS_SYNC);
                    libc::munmap(p, new);
                }
                n += 1;
            }
        }
        other => panic!("unknown writer {other}"),
    }
    println!("wrote {n}");
}
