//! `replaylens repair` (OpenClaw's `repairSessionFileIfNeeded`) on a damaged copy of a sample; the original is never
//! lost, even when writing fails between steps.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use replaylens::load::{LoadOptions, load_path};
use replaylens::repair::{FailPoint, RepairChange, RepairError, plan_file, repair_file};

/// A copy of a bundled sample with one of each problem the repair fixes appended.
/// The tests of this binary run as threads of one process, and a child one of them spawns
/// holds, between its fork and its exec, every descriptor open at that instant: `repair`'s
/// writer check rightly sees that as another process holding the session. The tests take turns.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn damaged_copy(dir: &Path) -> PathBuf {
    let original = std::fs::read_to_string(common::bundled_samples().join("anthropic-tool-repair.jsonl")).unwrap();
    let mut lines: Vec<String> = original.lines().map(str::to_owned).collect();
    let last_id = serde_json::from_str::<replaylens::model::json::Value>(lines.last().unwrap()).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    lines.insert(3, r#"{"type":"message","id":"zz000001","parentId": BROKEN"#.into());
    lines.push(format!(r#"{{"type":"message","id":"zz000002","parentId":"{last_id}","timestamp":"2026-03-09T09:00:00.000Z","message":{{"role":"assistant","content":[],"stopReason":"error","errorMessage":"overloaded","api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-6","timestamp":1773046800000}}}}"#));
    lines.push(r#"{"type":"message","id":"zz000003","parentId":"zz000002","timestamp":"2026-03-09T09:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"   "}],"timestamp":1773046801000}}"#.into());
    lines.push(r#"{"type":"message","id":"zz000004","parentId":"zz000003","timestamp":"2026-03-09T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_9|fc_9","name":"read","arguments":{"path":"a"}}],"api":"openai-chatgpt-responses","provider":"openai","model":"gpt-5.1-codex","stopReason":"toolUse","timestamp":1773046802000}}"#.into());
    lines.push(r#"{"type":"message","id":"zz000005","parentId":"zz000004","message":{"content":"no role"}}"#.into());
    let path = dir.join("damaged.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

fn backups(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".replaylens-bak"))
        .collect()
}

#[test]
fn repairs_a_damaged_copy_keeps_no_backup_and_is_idempotent() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let path = damaged_copy(dir.path());
    let out = Command::new(common::bin()).arg("repair").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("session file repaired: dropped 2 malformed line(s), rewrote 2 assistant message(s), rewrote 1 user message(s), inserted 1 missing tool result(s) (damaged.jsonl)"),
        "{stdout}"
    );
    assert!(backups(dir.path()).is_empty(), "the backup is removed on success");
    let repaired = std::fs::read_to_string(&path).unwrap();
    assert!(repaired.contains(r#""text":"[assistant turn failed before producing content]""#));
    assert!(repaired.contains(r#""content":[{"type":"text","text":"(continue)"}]"#));
    assert!(repaired.contains(r#""toolCallId":"call_9|fc_9""#) && repaired.contains(r#""text":"aborted""#));
    let s = load_path(&path, &LoadOptions::default()).unwrap();
    assert_eq!(s.skipped_count(), 0);
    let t = s.transcript();
    assert_eq!(
        t.messages.last().unwrap().message.tool_call_id(),
        Some("call_9|fc_9"),
        "the inserted result is on the branch"
    );

    let again = Command::new(common::bin()).arg("repair").arg(&path).output().unwrap();
    assert_eq!(again.status.code(), Some(0));
    assert!(String::from_utf8(again.stdout).unwrap().contains("nothing to repair"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), repaired);
}

#[test]
fn clean_files_stay_byte_identical_and_crlf_is_kept() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let clean = dir.path().join("clean.jsonl");
    std::fs::copy(common::bundled_samples().join("gemini-signatures.jsonl"), &clean).unwrap();
    let before = std::fs::read(&clean).unwrap();
    let (plan, outcome) = repair_file(&clean, None).unwrap();
    assert!(plan.is_clean() && outcome.is_none());
    assert_eq!(std::fs::read(&clean).unwrap(), before);

    let crlf = dir.path().join("crlf.jsonl");
    let text = std::fs::read_to_string(damaged_copy(dir.path()))
        .unwrap()
        .replace('\n', "\r\n");
    std::fs::write(&crlf, &text).unwrap();
    repair_file(&crlf, None).unwrap();
    let repaired = std::fs::read_to_string(&crlf).unwrap();
    assert!(repaired.ends_with("\r\n"));
    assert_eq!(
        repaired.matches('\n').count(),
        repaired.matches("\r\n").count(),
        "every line ends with CRLF"
    );
}

#[test]
fn dry_run_writes_nothing() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let path = damaged_copy(dir.path());
    let before = std::fs::read(&path).unwrap();
    let out = Command::new(common::bin())
        .args(["repair", "--dry-run"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("dry run, nothing written"), "{stdout}");
    assert!(stdout.contains("line 4: drop"), "{stdout}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_crash_between_steps_never_loses_the_original() {
    let _serial = serial();
    for point in [FailPoint::AfterBackup, FailPoint::BeforeRename] {
        let dir = tempfile::tempdir().unwrap();
        let path = damaged_copy(dir.path());
        let before = std::fs::read(&path).unwrap();
        let err = repair_file(&path, Some(point)).unwrap_err();
        assert!(matches!(err, RepairError::Write { .. }), "{point:?}: {err:?}");
        assert!(err.to_string().contains("the original is unchanged"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), before, "{point:?}");
        let kept = backups(dir.path());
        assert_eq!(kept.len(), 1, "{point:?}");
        assert_eq!(
            std::fs::read(&kept[0]).unwrap(),
            before,
            "the backup holds the original bytes"
        );
        let stray: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .to_string_lossy()
                    .ends_with(".replaylens-tmp")
            })
            .collect();
        assert!(stray.is_empty(), "no temporary file is left");
    }
}

#[test]
fn an_unwritable_folder_fails_cleanly() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let path = damaged_copy(dir.path());
    let before = std::fs::read(&path).unwrap();
    let locked = if nix_is_root() {
        Command::new("chattr")
            .arg("+i")
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success())
    } else {
        Command::new("chmod")
            .arg("0555")
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !locked {
        eprintln!("SKIPPED: cannot make {} unwritable here", dir.path().display());
        return;
    }
    let out = Command::new(common::bin()).arg("repair").arg(&path).output().unwrap();
    let _ = Command::new("chattr").arg("-i").arg(dir.path()).status();
    let _ = Command::new("chmod").arg("0755").arg(dir.path()).status();
    assert_eq!(out.status.code(), Some(1), "a write failure is not bad input");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("repair of") && stderr.contains("failed"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn invalid_header_and_changes_are_reported() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"type\":\"message\",\"id\":\"a\"}\n").unwrap();
    assert!(matches!(plan_file(&bad), Err(RepairError::Refused(_))));
    let out = Command::new(common::bin()).arg("repair").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let plan = plan_file(&damaged_copy(dir.path())).unwrap();
    assert!(matches!(plan.changes[0], RepairChange::DroppedLine { line: 4, .. }));
}

fn nix_is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

#[test]
fn a_line_appended_while_repairing_is_never_lost() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let path = damaged_copy(dir.path());
    let err = repair_file(&path, Some(FailPoint::ConcurrentAppend)).unwrap_err();
    assert!(err.to_string().contains("changed while it was being repaired"), "{err}");
    let now = std::fs::read_to_string(&path).unwrap();
    assert!(
        now.ends_with("{\"type\":\"custom\",\"id\":\"appended-meanwhile\"}\n"),
        "the appended line is there"
    );
    assert!(now.contains("BROKEN"), "nothing was rewritten");
}

#[test]
fn json_that_openclaw_parses_is_never_dropped() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let path = damaged_copy(dir.path());
    let deep = format!(
        r#"{{"type":"custom","id":"deep","data":{}1{}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let huge = r#"{"type":"custom","id":"huge","data":{"n":1e400}}"#;
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(&format!("{deep}\n{huge}\n"));
    std::fs::write(&path, &text).unwrap();
    let (plan, _) = repair_file(&path, None).unwrap();
    assert!(!plan.is_clean());
    let repaired = std::fs::read_to_string(&path).unwrap();
    assert!(
        repaired.contains(&deep) && repaired.contains(huge),
        "kept byte for byte"
    );
    assert!(!repaired.contains("BROKEN"), "real garbage still goes");
}

#[test]
fn a_symlinked_session_is_repaired_through_the_link() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let target = damaged_copy(dir.path());
    let link = dir.path().join("link.jsonl");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    repair_file(&link, None).unwrap();
    assert!(
        std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(),
        "the link stays"
    );
    assert!(
        !std::fs::read_to_string(&target).unwrap().contains("BROKEN"),
        "the target is repaired"
    );
}

#[test]
fn mode_and_owner_are_kept_and_unsafe_targets_refused() {
    let _serial = serial();
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let path = damaged_copy(dir.path());
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let root = std::fs::metadata(dir.path()).unwrap().uid() == 0
        && Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.starts_with(b"0"));
    if root {
        std::os::unix::fs::chown(&path, Some(4321), Some(4321)).unwrap();
    }
    repair_file(&path, None).unwrap();
    let meta = std::fs::metadata(&path).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o640);
    if root {
        assert_eq!(
            (meta.uid(), meta.gid()),
            (4321, 4321),
            "root repairing a user's file keeps it theirs"
        );
    }

    let read_only = damaged_copy(&subdir(dir.path(), "ro"));
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read(&read_only).unwrap();
    let out = Command::new(common::bin())
        .arg("repair")
        .arg(&read_only)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is read-only"));
    assert_eq!(std::fs::read(&read_only).unwrap(), before);

    let linked = damaged_copy(&subdir(dir.path(), "hl"));
    std::fs::hard_link(&linked, dir.path().join("hl").join("other.jsonl")).unwrap();
    let before = std::fs::read(&linked).unwrap();
    let out = Command::new(common::bin()).arg("repair").arg(&linked).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 hard links"));
    assert_eq!(std::fs::read(&linked).unwrap(), before);
}

/// A new folder `name` inside `dir`.
fn subdir(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(&path).unwrap();
    path
}

#[test]
fn other_agents_sessions_are_refused_and_left_unchanged() {
    let _serial = serial();
    let Some(root) = common::shared_samples() else { return };
    let dir = tempfile::tempdir().unwrap();
    for (sample, agent) in [
        (
            "claude-code/claude-code-log/representative_messages.jsonl",
            "Claude Code",
        ),
        ("codex/agent-sessions/large.jsonl", "Codex"),
    ] {
        let copy = dir.path().join(Path::new(sample).file_name().unwrap());
        std::fs::write(&copy, std::fs::read(root.join(sample)).unwrap()).unwrap();
        let before = std::fs::read(&copy).unwrap();
        let err = repair_file(&copy, None).unwrap_err().to_string();
        assert!(err.contains(&format!("is a {agent}")), "{err}");
        assert!(err.contains("OpenClaw session files only"), "{err}");
        assert_eq!(std::fs::read(&copy).unwrap(), before);
    }
}

#[test]
fn a_file_held_open_for_appending_is_not_repaired() {
    let _serial = serial();
    let dir = tempfile::tempdir().unwrap();
    let path = damaged_copy(dir.path());
    let before = std::fs::read(&path).unwrap();
    // A long-running writer: one O_APPEND handle kept open, as an agent process may hold it.
    let mut writer = Command::new("sh")
        .args(["-c", &format!("exec 3>>'{}'; exec sleep 30", path.display())])
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    // Wait for the shell to have become `sleep`: it holds the handle from `exec 3>>` on, so
    // an earlier look finds it still named `sh`.
    while !replaylens::repair::writers::writers_of(&path)
        .iter()
        .any(|w| w.command == "sleep")
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let result = repair_file(&path, None);
    let cli = Command::new(common::bin()).arg("repair").arg(&path).output().unwrap();
    let _ = writer.kill();
    let _ = writer.wait();
    let err = result.unwrap_err().to_string();
    assert!(
        err.contains(&format!("is open for writing by sleep (pid {})", writer.id()))
            && err.contains("would go to the old copy"),
        "{err}"
    );
    assert_eq!(cli.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&cli.stderr).contains("is open for writing by"));
    assert_eq!(std::fs::read(&path).unwrap(), before, "nothing was written");
    assert!(backups(dir.path()).is_empty());
    // Once the writer is gone, the repair goes ahead.
    repair_file(&path, None).unwrap();
    assert!(!std::fs::read_to_string(&path).unwrap().contains("BROKEN"));
}

#[test]
fn special_mode_bits_and_extended_attributes_are_kept() {
    let _serial = serial();
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = damaged_copy(dir.path());
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o7640)).unwrap();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
    let xattrs = xattr::set(&path, "user.replaylens-test", b"kept").is_ok();
    if !xattrs {
        eprintln!("note: this file system has no user extended attributes; only the mode bits are checked");
    }
    repair_file(&path, None).unwrap();
    assert!(!std::fs::read_to_string(&path).unwrap().contains("BROKEN"));
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777, mode);
    if xattrs {
        assert_eq!(
            xattr::get(&path, "user.replaylens-test").unwrap().as_deref(),
            Some(&b"kept"[..])
        );
    }
    assert!(backups(dir.path()).is_empty());
}
