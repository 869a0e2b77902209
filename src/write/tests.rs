use std::io::Write;

use super::*;

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_write_lands_whole_and_leaves_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.md");
    write_file(&out, &Protected::none(), Replace::Never, b"hello").unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), b"hello");
    assert_eq!(names(dir.path()), ["out.md"]);
    assert!(matches!(
        write_file(&out, &Protected::none(), Replace::Never, b"x"),
        Err(WriteError::Exists(_))
    ));
    write_file(&out, &Protected::none(), Replace::Allowed, b"again").unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), b"again");
}

#[test]
fn a_full_disk_leaves_the_final_name_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.md");
    std::fs::write(&out, "the earlier report").unwrap();
    let mut f = create(&out, &Protected::none(), Replace::Allowed).unwrap();
    f.fail_after = Some(10);
    let e = f.write_all(&[b'x'; 100_000]).unwrap_err();
    assert_eq!(e.raw_os_error(), Some(libc::ENOSPC));
    drop(f);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "the earlier report");
    assert_eq!(names(dir.path()), ["out.md"]);
    // A new name: nothing at all appears.
    let fresh = dir.path().join("fresh.md");
    let mut f = create(&fresh, &Protected::none(), Replace::Never).unwrap();
    f.fail_after = Some(0);
    assert!(f.write_all(b"x").and_then(|()| f.flush()).is_err());
    drop(f);
    assert_eq!(names(dir.path()), ["out.md"]);
}

#[test]
fn a_planted_symlink_is_replaced_never_followed() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let out = dir.path().join("out.md");
    std::os::unix::fs::symlink(&victim, &out).unwrap();
    write_file(&out, &Protected::none(), Replace::Allowed, b"report").unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "report");
    // A dangling link under a name that must be new is refused, its target never created.
    let dangling = dir.path().join("r.jsonl");
    std::os::unix::fs::symlink(dir.path().join("created"), &dangling).unwrap();
    assert!(matches!(
        write_file(&dangling, &Protected::none(), Replace::Never, b"x"),
        Err(WriteError::Exists(_))
    ));
    assert!(!dir.path().join("created").exists());
}

#[test]
fn the_session_its_companions_and_their_aliases_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("real.sqlite");
    std::fs::write(&db, "db").unwrap();
    std::fs::write(dir.path().join("real.sqlite-wal"), "wal").unwrap();
    std::os::unix::fs::symlink(&db, dir.path().join("link.sqlite")).unwrap();
    std::fs::hard_link(dir.path().join("real.sqlite-wal"), dir.path().join("hard-wal")).unwrap();
    let protected = Protected::session(&dir.path().join("link.sqlite"));
    for name in [
        "real.sqlite",
        "link.sqlite",
        "real.sqlite-wal",
        "hard-wal",
        "real.sqlite-shm",
        "real.sqlite-journal",
        "link.sqlite-journal",
    ] {
        let e = write_file(&dir.path().join(name), &protected, Replace::Allowed, b"x").unwrap_err();
        assert!(matches!(e, WriteError::Protected { .. }), "{name}: {e}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("real.sqlite-wal")).unwrap(),
        "wal"
    );
    assert!(!dir.path().join("real.sqlite-journal").exists());
    write_file(&dir.path().join("ok.md"), &protected, Replace::Never, b"x").unwrap();
}

#[test]
fn folders_and_fifos_are_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("p.parquet");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    assert!(matches!(
        write_file(&fifo, &Protected::none(), Replace::Allowed, b"x"),
        Err(WriteError::NotRegular(_, "a FIFO"))
    ));
    assert!(matches!(
        write_file(dir.path(), &Protected::none(), Replace::Allowed, b"x"),
        Err(WriteError::NotRegular(..)) | Err(WriteError::Io { .. })
    ));
}

#[test]
fn temporaries_in_flight_are_listed_for_the_signal_handler() {
    let dir = tempfile::tempdir().unwrap();
    let mut f = create(&dir.path().join("big.md"), &Protected::none(), Replace::Never).unwrap();
    f.write_all(b"partial").unwrap();
    f.flush().unwrap();
    let temp = dir.path().join(&names(dir.path())[0]);
    // `remove_temporaries` removes what is listed (not called here: other tests write too).
    assert!(IN_FLIGHT.lock().unwrap().contains(&temp));
    f.commit().unwrap();
    assert!(!IN_FLIGHT.lock().unwrap().contains(&temp));
    assert_eq!(names(dir.path()), ["big.md"]);
}
