//! Reading a session as an agent appends to it: for random splits of real session files
//! (the bundled samples and the shared ones: OpenClaw, pi, Claude Code, Codex) written in
//! chunks, chunk ends falling inside lines too, the session the tail reader holds after each
//! chunk equals a full load of the file's complete lines, messages and diagnostics alike;
//! after the first read, only appended bytes are parsed.

mod common;

use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use replaylens::load::jsonl::load_jsonl_previewed;
use replaylens::load::tail::{ReadKind, TailReader};
use replaylens::load::{Keep, LoadOptions, load_path};
use replaylens::model::Session;

/// The JSONL session files to split: bundled, and shared when present.
fn session_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = common::bundled_session_files()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    if let Some(root) = common::shared_samples() {
        files.extend(
            common::files_under(&root)
                .into_iter()
                .filter(|p| p.extension().is_some_and(|x| x == "jsonl")),
        );
    }
    files
}

/// Everything a load produces that a view or a replay reads, as comparable text.
fn summary(s: &Session) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?}\nentries {:#?}\nleaf {:?}\ndiagnostics {:#?}\nmapped {:#?}\ntranscript {:#?}",
        s.format,
        s.id,
        s.version,
        s.header,
        s.header_location,
        s.entries,
        s.explicit_leaf,
        s.diagnostics,
        s.mapped,
        s.transcript()
    )
}

fn outcome(result: Result<Session, replaylens::load::LoadError>) -> String {
    match result {
        Ok(s) => summary(&s),
        Err(e) => format!("error: {e}"),
    }
}

/// Write `bytes` to a fresh file in chunks ending at `cuts`, reading it after each chunk.
fn check_split(path: &Path, bytes: &[u8], cuts: &[usize], keep: Keep) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(path.file_name().unwrap());
    std::fs::write(&file, b"").unwrap();
    let options = LoadOptions {
        keep,
        ..LoadOptions::default()
    };
    let mut tail = TailReader::new(&file, options.clone());
    let mut written = 0;
    for (step, &cut) in cuts.iter().chain(std::iter::once(&bytes.len())).enumerate() {
        let cut = cut.max(written);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&file)
            .unwrap()
            .write_all(&bytes[written..cut])
            .unwrap();
        written = cut;
        let complete = bytes[..written].iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let before = tail.parsed_bytes();
        let read = tail.read();
        let stats = match &read {
            Ok((_, stats)) => Some(*stats),
            Err(_) => None,
        };
        let expected = load_jsonl_previewed(&file, Cursor::new(&bytes[..complete]), &options.limits, None, keep);
        prop_assert_eq!(
            outcome(read.map(|(s, _)| s)),
            outcome(expected),
            "{} after {} of {} bytes",
            path.display(),
            written,
            bytes.len()
        );
        if let Some(stats) = stats {
            let complete = complete as u64;
            match stats.kind {
                ReadKind::Appended => {
                    let before = before.unwrap_or_default();
                    prop_assert_eq!(before + stats.bytes, complete, "only the new bytes are parsed");
                    let lines = bytes[before as usize..complete as usize]
                        .iter()
                        .filter(|b| **b == b'\n')
                        .count();
                    prop_assert_eq!(stats.lines, lines, "only the new lines are parsed");
                }
                ReadKind::Full => {
                    prop_assert!(before.is_none(), "read whole at step {} with {:?} kept", step, before);
                    prop_assert_eq!(stats.bytes, complete);
                }
            }
            prop_assert_eq!(tail.parsed_bytes(), Some(complete));
        }
    }
    if bytes.ends_with(b"\n") {
        let (session, _) = tail.read().unwrap();
        prop_assert_eq!(summary(&session), outcome(load_path(&file, &options)));
    }
    Ok(())
}

#[test]
fn appended_chunks_read_as_a_full_load_of_the_complete_lines() {
    let files = session_files();
    assert!(files.len() >= 7, "{files:?}");
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let len = bytes.len();
        let cuts = prop::collection::vec(0..=len, 0..8).prop_map(|mut v| {
            v.sort_unstable();
            v
        });
        let keep = prop_oneof![Just(Keep::Everything), Just(Keep::Transcript)];
        let mut runner = TestRunner::new(Config {
            cases: 6,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(&(cuts, keep), |(cuts, keep)| check_split(&path, &bytes, &cuts, keep))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}
