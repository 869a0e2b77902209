use std::io::Write;

use super::*;

/// Limits with a 100-byte line limit.
fn small() -> Limits {
    Limits {
        max_line_bytes: 100,
        ..Limits::default()
    }
}

fn session(dir: &Path) -> PathBuf {
    let path = dir.join("s.jsonl");
    std::fs::write(&path, "{\"a\":1}\n{\"b\":2}\n").unwrap();
    path
}

fn append(path: &Path, text: &str) {
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[test]
fn an_append_is_said_once_its_line_ends() {
    let dir = tempfile::tempdir().unwrap();
    let path = session(dir.path());
    let mut watch = Watch::new(&path, small());
    assert_eq!(watch.poll(), Change::Unchanged);
    append(&path, "{\"whole\": 0}\n{\"half\":");
    assert_eq!(
        watch.poll(),
        Change::Unchanged,
        "a half-written line waits, and the whole one before it"
    );
    append(&path, " 1}\n");
    assert_eq!(watch.poll(), Change::Appended);
    assert_eq!(watch.poll(), Change::Unchanged, "said once");
}

#[test]
fn a_truncation_is_said_with_the_new_length() {
    let dir = tempfile::tempdir().unwrap();
    let path = session(dir.path());
    let mut watch = Watch::new(&path, small());
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(0)
        .unwrap();
    assert_eq!(watch.poll(), Change::Truncated { len: 0 });
    assert_eq!(watch.poll(), Change::Unchanged);
    append(&path, "{}\n");
    assert_eq!(watch.poll(), Change::Appended, "lines after the truncation are appends");
}

#[test]
fn a_deletion_is_said_once_and_the_file_coming_back_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = session(dir.path());
    let mut watch = Watch::new(&path, small());
    std::fs::remove_file(&path).unwrap();
    assert_eq!(watch.poll(), Change::Deleted);
    assert_eq!(watch.poll(), Change::Unchanged, "said once");
    std::fs::write(&path, "{}\n").unwrap();
    assert_eq!(watch.poll(), Change::Reappeared);
    assert!(Change::Reappeared.reads_from_start());
    assert_eq!(watch.poll(), Change::Unchanged);
}

#[test]
fn a_file_renamed_over_the_path_is_a_replacement_read_from_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = session(dir.path());
    let mut watch = Watch::new(&path, small());
    let other = dir.path().join("other.jsonl");
    // Same length, same content: only the inode tells.
    std::fs::copy(&path, &other).unwrap();
    std::fs::rename(&other, &path).unwrap();
    let change = watch.poll();
    assert_eq!(
        change,
        Change::Replaced {
            by: Replacement::Rename
        }
    );
    assert!(change.reads_from_start());
    assert_eq!(watch.poll(), Change::Unchanged);
}

#[test]
fn a_fifo_a_folder_and_a_device_link_are_never_opened() {
    let dir = tempfile::tempdir().unwrap();
    let path = session(dir.path());
    let mut watch = Watch::new(&path, small());
    std::fs::remove_file(&path).unwrap();
    mkfifo(&path);
    // Opening the FIFO for reading would block this test forever.
    let fifo = watch.poll();
    assert_eq!(fifo, Change::Replaced { by: Replacement::Fifo });
    assert!(!fifo.reads());
    assert_eq!(watch.poll(), Change::Unchanged);
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    assert_eq!(
        watch.poll(),
        Change::Replaced {
            by: Replacement::Folder
        }
    );
    std::fs::remove_dir(&path).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    let link = watch.poll();
    assert_eq!(
        link,
        Change::Replaced {
            by: Replacement::Link {
                target: "/dev/zero".into(),
                regular: false
            }
        }
    );
    assert!(!link.reads());
    assert_eq!(watch.poll(), Change::Unchanged, "said once, /dev/zero never read");
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, "{}\n").unwrap();
    assert_eq!(
        watch.poll(),
        Change::Replaced {
            by: Replacement::Rename
        },
        "a file back is read"
    );
}

#[test]
fn a_link_to_another_session_is_read_from_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = session(dir.path());
    let mut watch = Watch::new(&path, small());
    let other = dir.path().join("other.jsonl");
    std::fs::write(&other, "{}\n").unwrap();
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink(&other, &path).unwrap();
    let change = watch.poll();
    assert_eq!(
        change,
        Change::Replaced {
            by: Replacement::Link {
                target: other.clone(),
                regular: true
            }
        }
    );
    assert!(change.reads_from_start());
    append(&other, "{}\n");
    assert_eq!(watch.poll(), Change::Appended, "followed through the link");
}

#[test]
fn a_line_over_the_limit_is_said_with_its_number_and_nothing_after_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = session(dir.path());
    let mut watch = Watch::new(&path, small());
    append(&path, "{}\n");
    assert_eq!(watch.poll(), Change::Appended);
    // Line 4, still being written, already past the limit.
    append(&path, &"x".repeat(150));
    assert_eq!(watch.poll(), Change::LineTooLong { line: 4 });
    append(&path, "\n{}\n");
    assert_eq!(watch.poll(), Change::Unchanged, "nothing after it");
    std::fs::write(&path, "{}\n").unwrap();
    assert_eq!(
        watch.poll(),
        Change::Truncated { len: 3 },
        "until the file is truncated"
    );
}

#[test]
fn a_complete_line_over_the_limit_is_found_in_one_append() {
    let dir = tempfile::tempdir().unwrap();
    let path = session(dir.path());
    let mut watch = Watch::new(&path, small());
    append(&path, &format!("{{}}\n{}\n{{}}\n", "y".repeat(100)));
    assert_eq!(watch.poll(), Change::LineTooLong { line: 4 });
    // Exactly at the limit (100 bytes with the newline) is fine.
    std::fs::write(&path, format!("{}\n", "z".repeat(99))).unwrap();
    let mut watch = Watch::new(&path, small());
    append(&path, &format!("{}\n", "z".repeat(99)));
    assert_eq!(watch.poll(), Change::Appended);
}

#[test]
fn every_change_but_an_append_has_a_sentence_naming_the_file() {
    let changes = [
        Change::Truncated { len: 0 },
        Change::Deleted,
        Change::Reappeared,
        Change::Replaced {
            by: Replacement::Rename,
        },
        Change::Replaced { by: Replacement::Fifo },
        Change::Replaced {
            by: Replacement::Folder,
        },
        Change::Replaced {
            by: Replacement::Device,
        },
        Change::Replaced {
            by: Replacement::Link {
                target: "/dev/zero".into(),
                regular: false,
            },
        },
        Change::LineTooLong { line: 7 },
    ];
    for change in changes {
        let sentence = change.sentence("session.jsonl").unwrap();
        assert!(sentence.starts_with("session.jsonl "), "{sentence}");
        assert!(sentence.contains("; "), "what happens next is said: {sentence}");
        assert!(change.short().is_some());
    }
    assert_eq!(
        Change::Truncated { len: 0 }.sentence("session.jsonl").unwrap(),
        "session.jsonl was truncated to 0 bytes; reloading from the start"
    );
    assert!(Change::Appended.sentence("s").is_none() && Change::Unchanged.short().is_none());
}
