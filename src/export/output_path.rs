//! Where an export may not go: over the session it reports on.
//!
//! Users type the output path; the same file has many names (a relative path, `./`, `..`, a
//! symlink, a hard link, a bind mount). Both the `export -o` command and the inspector's export
//! dialog ask [`overwrites_session`] before they open the output for writing.

use std::path::Path;

/// Whether writing `output` would overwrite the session file `source` or one of its SQLite
/// companions, by any name: files are compared by device and inode, so every alias of the
/// same file counts, and a companion that does not exist yet by name
/// ([`crate::write::Protected::session`]).
pub fn overwrites_session(source: &Path, output: &Path) -> bool {
    crate::write::Protected::session(source).covering(output).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_of_the_session_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let session = dir.path().join("s.jsonl");
        std::fs::write(&session, "{}\n").unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::os::unix::fs::symlink(&session, dir.path().join("link.jsonl")).unwrap();
        std::fs::hard_link(&session, dir.path().join("hard.jsonl")).unwrap();
        for alias in [
            session.clone(),
            dir.path().join("./s.jsonl"),
            sub.join("../s.jsonl"),
            dir.path().join("link.jsonl"),
            dir.path().join("hard.jsonl"),
        ] {
            assert!(overwrites_session(&session, &alias), "{}", alias.display());
        }
        std::fs::write(dir.path().join("other.md"), "x").unwrap();
        assert!(!overwrites_session(&session, &dir.path().join("other.md")));
        assert!(!overwrites_session(&session, &dir.path().join("new.md")));
    }

    #[test]
    fn sqlite_companions_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("agent.sqlite");
        std::fs::write(&db, "").unwrap();
        let wal = dir.path().join("agent.sqlite-wal");
        std::fs::write(&wal, "").unwrap();
        assert!(overwrites_session(&db, &wal));
        // SQLite creates these when it next writes: an output under their names is refused too.
        assert!(overwrites_session(&db, &dir.path().join("agent.sqlite-shm")));
        assert!(overwrites_session(&db, &dir.path().join("agent.sqlite-journal")));
    }
}
