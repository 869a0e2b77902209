//! The tail reader parses only appended lines, and reads a file that was not just appended
//! to (truncated, rewritten, replaced, a database) in full.

use std::io::Write;

use super::*;
use crate::model::Location;

const HEADER: &str = r#"{"type":"session","version":3,"id":"t","timestamp":"2026-03-14T09:30:00.000Z","cwd":"/"}"#;

fn message(id: &str, parent: Option<&str>, text: &str) -> String {
    let parent = parent.map_or("null".to_owned(), |p| format!("\"{p}\""));
    format!(
        r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-03-14T09:30:01.000Z","message":{{"role":"user","content":"{text}","timestamp":1}}}}"#
    )
}

fn append(path: &Path, text: &str) {
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

fn texts(s: &Session) -> Vec<String> {
    s.transcript().messages.iter().map(|m| m.message.text()).collect()
}

#[test]
fn only_the_appended_complete_lines_are_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let first = format!("{HEADER}\n{}\n", message("a", None, "one"));
    std::fs::write(&path, &first).unwrap();
    let mut tail = TailReader::new(&path, LoadOptions::default());
    let (s, stats) = tail.read().unwrap();
    assert_eq!(
        stats,
        ReadStats {
            kind: ReadKind::Full,
            bytes: first.len() as u64,
            lines: 2
        }
    );
    assert_eq!(texts(&s), ["one"]);

    let second = format!("{}\n", message("b", Some("a"), "two"));
    let half = &message("c", Some("b"), "three")[..40];
    append(&path, &format!("{second}{half}"));
    let (s, stats) = tail.read().unwrap();
    assert_eq!(
        stats,
        ReadStats {
            kind: ReadKind::Appended,
            bytes: second.len() as u64,
            lines: 1
        },
        "the half-written line waits"
    );
    assert_eq!(texts(&s), ["one", "two"]);
    assert!(s.diagnostics.is_empty(), "{:?}", s.diagnostics);

    let rest = format!("{}\n", &message("c", Some("b"), "three")[40..]);
    append(&path, &rest);
    let (s, stats) = tail.read().unwrap();
    assert_eq!((stats.kind, stats.lines), (ReadKind::Appended, 1));
    assert_eq!(stats.bytes, (half.len() + rest.len()) as u64);
    assert_eq!(texts(&s), ["one", "two", "three"]);

    let (_, stats) = tail.read().unwrap();
    assert_eq!(
        stats,
        ReadStats {
            kind: ReadKind::Appended,
            bytes: 0,
            lines: 0
        },
        "nothing new, nothing parsed"
    );
}

#[test]
fn a_malformed_appended_line_is_reported_with_its_line_number() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    std::fs::write(&path, format!("{HEADER}\n{}\n", message("a", None, "one"))).unwrap();
    let mut tail = TailReader::new(&path, LoadOptions::default());
    tail.read().unwrap();
    append(&path, &format!("not json\n{}\n", message("b", Some("a"), "two")));
    let (s, stats) = tail.read().unwrap();
    assert_eq!((stats.kind, stats.lines), (ReadKind::Appended, 2));
    assert_eq!(s.diagnostics.len(), 1, "{:?}", s.diagnostics);
    assert_eq!(s.diagnostics[0].location, Some(Location::Line(3)));
    assert_eq!(s.entries.last().unwrap().location, Location::Line(4));
    assert_eq!(texts(&s), ["one", "two"]);
}

#[test]
fn a_file_that_was_not_only_appended_to_is_read_in_full() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let original = format!(
        "{HEADER}\n{}\n{}\n",
        message("a", None, "one"),
        message("b", Some("a"), "two")
    );
    std::fs::write(&path, &original).unwrap();
    let mut tail = TailReader::new(&path, LoadOptions::default());
    let full = |tail: &mut TailReader, expected: &[&str]| {
        let (s, stats) = tail.read().unwrap();
        assert_eq!(stats.kind, ReadKind::Full);
        assert_eq!(stats.bytes, std::fs::metadata(tail.path()).unwrap().len());
        assert_eq!(texts(&s), expected);
    };
    full(&mut tail, &["one", "two"]);

    // Truncated (a line removed).
    std::fs::write(&path, format!("{HEADER}\n{}\n", message("a", None, "one"))).unwrap();
    full(&mut tail, &["one"]);

    // Rewritten (truncated and written again, same file), longer.
    std::fs::write(
        &path,
        format!(
            "{HEADER}\n{}\n{}\n",
            message("a", None, "uno"),
            message("b", Some("a"), "dos")
        ),
    )
    .unwrap();
    full(&mut tail, &["uno", "dos"]);

    // Rewritten in place at the same length.
    let text = std::fs::read_to_string(&path).unwrap().replace("uno", "UNO");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .write_all_at(text.as_bytes(), 0)
        .unwrap();
    let (s, stats) = tail.read().unwrap();
    // Same length and (within the clock's resolution) possibly the same time: either it is
    // read in full, or the changed first bytes give it away.
    assert_eq!(stats.kind, ReadKind::Full);
    assert_eq!(texts(&s), ["UNO", "dos"]);

    // Replaced by another file (as `repair` and editors write): same text, then more.
    let replacement = dir.path().join("new.jsonl");
    std::fs::write(&replacement, format!("{text}{}\n", message("c", Some("b"), "tres"))).unwrap();
    std::fs::rename(&replacement, &path).unwrap();
    full(&mut tail, &["UNO", "dos", "tres"]);

    // And appended to again afterwards: incremental once more.
    append(&path, &format!("{}\n", message("d", Some("c"), "cuatro")));
    let (s, stats) = tail.read().unwrap();
    assert_eq!((stats.kind, stats.lines), (ReadKind::Appended, 1));
    assert_eq!(texts(&s), ["UNO", "dos", "tres", "cuatro"]);
}

#[test]
fn a_database_is_read_in_full_every_time() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions/openclaw-agent.sqlite");
    let mut tail = TailReader::new(&path, LoadOptions::default());
    let (first, stats) = tail.read().unwrap();
    assert_eq!((stats.kind, stats.lines), (ReadKind::Full, 0));
    let (second, stats) = tail.read().unwrap();
    assert_eq!((stats.kind, stats.lines), (ReadKind::Full, 0));
    assert_eq!(texts(&first), texts(&second));
}

#[test]
fn a_file_with_no_complete_line_yet_keeps_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    std::fs::write(&path, &HEADER[..20]).unwrap();
    let mut tail = TailReader::new(&path, LoadOptions::default());
    assert!(matches!(tail.read(), Err(LoadError::Empty { .. })));
    append(&path, &format!("{}\n{}\n", &HEADER[20..], message("a", None, "one")));
    let (s, stats) = tail.read().unwrap();
    assert_eq!((stats.kind, stats.lines), (ReadKind::Appended, 2));
    assert_eq!(texts(&s), ["one"]);
}
