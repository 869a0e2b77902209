//! Exports that read stored messages back from the session file (`export::stored_file`)
//! write the same bytes as exports that hold both sides, and refuse what they cannot read
//! back faithfully.

use std::path::{Path, PathBuf};

use replaylens::export::stored_file::{ReadBack, StoredFile};
use replaylens::export::{ExportFormat, ExportOptions, LintFindings, Redaction, export_reading_back, export_to};
use replaylens::hygiene::ReplayOptions;
use replaylens::load::{Keep, LoadOptions, load_path};
use replaylens::policy::Target;
use replaylens::replay::PreparedReplay;

mod common;

fn transcript_only() -> LoadOptions {
    LoadOptions {
        keep: Keep::Transcript,
        ..LoadOptions::default()
    }
}

fn prepared(path: &Path, target: &Target) -> PreparedReplay {
    PreparedReplay::new(
        load_path(path, &transcript_only()).unwrap(),
        target,
        &ReplayOptions::default(),
    )
}

/// The export as `replaylens export` writes it for an OpenClaw JSONL file: lint from a first
/// load, stored messages read back in the second. `None` when the file is not read back.
fn read_back_export(path: &Path, target: &Target, options: &ExportOptions) -> Option<Vec<u8>> {
    let file = StoredFile::open(path).unwrap()?;
    let lint = LintFindings::of_prepared(prepared(path, target));
    let second = prepared(path, target);
    if !file.is_file_of(&second.session) {
        return None;
    }
    let (session, replay, read_back) = ReadBack::replay(file, second).unwrap();
    let mut out = Vec::new();
    export_reading_back(&session, &replay, options, lint, &read_back, &mut out).unwrap();
    Some(out)
}

/// The export of a replay that holds both sides.
fn held_export(path: &Path, target: &Target, options: &ExportOptions) -> Vec<u8> {
    let (session, replay) = prepared(path, target).into_replay();
    let mut out = Vec::new();
    export_to(&session, &replay, options, &mut out).unwrap();
    out
}

fn targets() -> Vec<Target> {
    let t = |p: &str, a: &str, m: &str| Target {
        provider: Some(p.into()),
        api: Some(a.into()),
        model: Some(m.into()),
    };
    vec![
        Target::default(),
        t("mistral", "mistral-conversations", "mistral-large-latest"),
    ]
}

fn openclaw_sessions() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = common::files_under(&common::bundled_samples())
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .chain(common::shared_openclaw_jsonl())
        .collect();
    files.sort();
    files
}

#[test]
fn reading_stored_messages_back_writes_the_same_report() {
    let mut compared = 0;
    let mut read_back = 0;
    let every_format = [
        (ExportFormat::Markdown, Redaction::None, false),
        (ExportFormat::Html, Redaction::None, false),
        (ExportFormat::Json, Redaction::None, false),
        (ExportFormat::Markdown, Redaction::AllText, false),
        (ExportFormat::Html, Redaction::Secrets, true),
    ];
    for path in openclaw_sessions() {
        // The two large shared sessions (1–2.4 MB) in Markdown and JSON only: HTML of every
        // message of them takes minutes in a debug build.
        let large = std::fs::metadata(&path).unwrap().len() > 256 << 10;
        let formats = if large { &every_format[..1] } else { &every_format[..] };
        for target in targets() {
            for &(format, redaction, only_changed) in formats.iter().chain(large.then_some(&every_format[2])) {
                let options = ExportOptions {
                    format,
                    redaction,
                    only_changed,
                    context: 1,
                    ..ExportOptions::default()
                };
                let held = held_export(&path, &target, &options);
                compared += 1;
                if let Some(bytes) = read_back_export(&path, &target, &options) {
                    read_back += 1;
                    assert!(
                        bytes == held,
                        "{} for {target:?} as {format:?} ({redaction:?}) differs when read back",
                        path.display()
                    );
                }
            }
        }
    }
    assert!(compared >= 7 * 2 * 5, "{compared}");
    assert!(
        read_back * 10 >= compared * 8,
        "only {read_back} of {compared} were read back"
    );
}

/// A copy of a bundled session in a scratch folder.
fn scratch_copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions").join(name),
        &path,
    )
    .unwrap();
    (dir, path)
}

#[test]
fn a_line_changed_after_the_load_is_reported_not_shown() {
    let (_dir, path) = scratch_copy("anthropic-tool-repair.jsonl");
    let target = Target::default();
    let file = StoredFile::open(&path).unwrap().unwrap();
    let second = prepared(&path, &target);
    assert!(file.is_file_of(&second.session));
    // Rewrite the file in place (same inode, same length): every entry id changes.
    let text = std::fs::read_to_string(&path).unwrap();
    let changed: String = text.replace("\"id\":\"", "\"id\":\"Z");
    std::fs::write(&path, &changed.as_bytes()[..text.len()]).unwrap();
    let err = ReadBack::replay(file, second).expect_err("a changed file is refused");
    let text = err.to_string();
    assert!(
        text.contains("anthropic-tool-repair.jsonl") && text.contains("line ") && text.contains("changed"),
        "{text}"
    );
}

#[test]
fn a_file_renamed_over_the_session_is_not_read_back() {
    let (_dir, path) = scratch_copy("compaction-and-branch.jsonl");
    let file = StoredFile::open(&path).unwrap().unwrap();
    let session = load_path(&path, &transcript_only()).unwrap();
    assert!(file.is_file_of(&session));
    let replacement = path.with_extension("new");
    std::fs::copy(&path, &replacement).unwrap();
    std::fs::rename(&replacement, &path).unwrap();
    assert!(!file.is_file_of(&session), "another inode is another file");
}

#[test]
fn compressed_and_database_sessions_are_not_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions/gemini-signatures.jsonl");
    let zst = dir.path().join("s.jsonl.zst");
    let bytes = zstd::encode_all(std::fs::read(&source).unwrap().as_slice(), 3).unwrap();
    std::fs::write(&zst, bytes).unwrap();
    assert!(StoredFile::open(&zst).unwrap().is_none());
    let db = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions/openclaw-agent.sqlite");
    let session = load_path(&db, &transcript_only()).unwrap();
    let file = StoredFile::open(&db).unwrap().unwrap();
    assert!(!file.is_file_of(&session));
}
