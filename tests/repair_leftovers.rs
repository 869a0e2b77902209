//! What a stopped `repair` leaves (issue 45 point 2): its backup and temporary are never listed
//! as sessions by `scan` and `sessions`, even when a SIGKILL left them behind full-size, and a
//! stop signal during a repair removes them.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The scratch names `repair` writes beside `name` (`src/repair/write.rs`).
fn leftovers(name: &str) -> [String; 3] {
    [
        format!(".{name}.00ff00ff00ff00ff.replaylens-bak"),
        format!(".{name}.0123456789abcdef.replaylens-tmp"),
        format!(".{name}.fedcba9876543210.replaylens-old"),
    ]
}

/// The scratch files in `dir`, and a lock left behind.
fn scratch_in(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.contains(".replaylens-") || name.ends_with(".lock")
        })
        .collect()
}

#[test]
fn a_killed_repairs_backup_and_temporary_are_never_listed_as_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let sample = common::bundled_samples().join("anthropic-tool-repair.jsonl");
    std::fs::copy(&sample, dir.path().join("s.jsonl")).unwrap();
    // What a SIGKILL during `repair` leaves: full-size copies under the scratch names.
    for name in leftovers("s.jsonl") {
        std::fs::copy(&sample, dir.path().join(name)).unwrap();
    }
    let folder = dir.path().to_str().unwrap();
    for command in ["scan", "sessions"] {
        let out = Command::new(common::bin())
            .args([command, "--format", "json", folder])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("s.jsonl"), "{command}: {text}");
        assert!(!text.contains("replaylens-"), "{command} lists a scratch file: {text}");
        let rows: serde_json::Value = serde_json::from_str(&text).unwrap();
        // `sessions` prints an array, `scan` a document holding one.
        let rows = rows.get("sessions").unwrap_or(&rows).as_array().map_or(0, Vec::len);
        assert_eq!(rows, 1, "{command}: one session: {text}");
    }
}

/// A damaged session of about `mib` MiB: a copy of a sample's lines repeated, one broken line.
fn large_damaged(dir: &Path, mib: usize) -> PathBuf {
    let sample = std::fs::read_to_string(common::bundled_samples().join("anthropic-tool-repair.jsonl")).unwrap();
    let mut lines: Vec<&str> = sample.lines().collect();
    lines.insert(2, r#"{"type":"message","id":"broken","parentId": BROKEN"#);
    let padding = format!(
        r#"{{"type":"custom","customType":"pad","data":"{}"}}"#,
        "p".repeat(64 << 10)
    );
    let mut text = lines.join("\n") + "\n";
    while text.len() < mib << 20 {
        text.push_str(&padding);
        text.push('\n');
    }
    let path = dir.join("big.jsonl");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_stop_signal_during_repair_leaves_no_backup_or_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let session = large_damaged(dir.path(), 48);
    let mut stopped = 0;
    // Each round sends SIGTERM a little later into the repair; whatever the moment, nothing
    // is left beside the session and the session is whole (repaired or not).
    for round in 0..12u64 {
        let mut child = Command::new(common::bin())
            .args(["repair"])
            .arg(&session)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(round * 25));
        let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
        let deadline = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "repair did not stop");
            std::thread::sleep(Duration::from_millis(10));
        };
        if status.code() == Some(128 + 15) {
            stopped += 1;
        }
        assert_eq!(scratch_in(dir.path()), Vec::<PathBuf>::new(), "round {round}: {status}");
        let text = std::fs::read_to_string(&session).unwrap();
        assert!(
            text.ends_with('\n') && text.len() > 40 << 20,
            "round {round}: the session is whole"
        );
        if !text.contains("BROKEN") {
            // Repaired: damage it again for the next round.
            std::fs::remove_file(&session).unwrap();
            large_damaged(dir.path(), 48);
        }
    }
    eprintln!("{stopped} of 12 repairs stopped by SIGTERM");
}
