//! A load that keeps only what the stored transcript is built from (`Keep::Transcript`,
//! used by `replay` and `show`) and the prepared replay that releases the session before the
//! rules run give exactly what a full load and the borrowed replay give, on every bundled and
//! shared sample and for targets of every provider family.

mod common;

use std::path::{Path, PathBuf};

use replaylens::hygiene::ReplayOptions;
use replaylens::load::{Keep, LoadOptions, load_path};
use replaylens::policy::Target;
use replaylens::replay::{PreparedReplay, replay};

fn target(provider: &str, api: &str, model: &str) -> Target {
    Target {
        provider: Some(provider.into()),
        api: Some(api.into()),
        model: Some(model.into()),
    }
}

fn targets() -> Vec<Target> {
    vec![
        Target::default(),
        target("anthropic", "anthropic-messages", "claude-sonnet-4-6"),
        target("openai", "openai-responses", "gpt-5.2"),
        target("openai", "openai-completions", "gpt-4.1"),
        target("google", "google-generative-ai", "gemini-2.5-pro"),
        target("mistral", "mistral-conversations", "mistral-large-latest"),
    ]
}

/// Every session file: the bundled samples and the shared ones.
fn session_files() -> Vec<PathBuf> {
    let mut files = common::bundled_session_files();
    if let Some(shared) = common::shared_samples() {
        files.extend(
            common::files_under(&shared)
                .into_iter()
                .filter(|p| common::is_shared_session_file(p)),
        );
    }
    files
}

fn load(path: &Path, keep: Keep) -> Option<replaylens::model::Session> {
    load_path(
        path,
        &LoadOptions {
            keep,
            ..LoadOptions::default()
        },
    )
    .ok()
}

#[test]
fn a_transcript_only_load_builds_the_same_transcript() {
    let mut checked = 0;
    let mut slimmed = 0;
    for path in session_files() {
        let Some(full) = load(&path, Keep::Everything) else {
            continue;
        };
        let lean = load(&path, Keep::Transcript).expect("a lean load succeeds where a full one does");
        assert_eq!(
            format!("{:?}", lean.transcript()),
            format!("{:?}", full.transcript()),
            "{}",
            path.display()
        );
        assert_eq!(lean.diagnostics, full.diagnostics, "{}", path.display());
        assert_eq!(lean.entries.len(), full.entries.len(), "{}", path.display());
        slimmed += lean.entries.iter().filter(|e| e.message_only).count();
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} sessions checked");
    assert!(slimmed > 100, "only {slimmed} message entries were slimmed");
}

#[test]
fn a_prepared_replay_projects_what_the_borrowed_replay_projects() {
    let mut checked = 0;
    for path in session_files() {
        let Some(full) = load(&path, Keep::Everything) else {
            continue;
        };
        for t in targets() {
            let options = ReplayOptions::default();
            let borrowed = replay(&full, &t, &options);
            let lean = load(&path, Keep::Transcript).expect("loads");
            let prepared = PreparedReplay::new(lean, &t, &options);
            assert_eq!(prepared.resolved, borrowed.resolved, "{}", path.display());
            assert_eq!(
                format!("{:?}", prepared.transcript),
                format!("{:?}", borrowed.transcript),
                "{}",
                path.display()
            );
            assert!(
                prepared.session.entries.is_empty(),
                "the session's entries are released"
            );
            let projection = prepared.run();
            assert_eq!(
                format!("{projection:?}"),
                format!("{:?}", borrowed.projection),
                "{} for {t:?}",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 150, "only {checked} replays checked");
}

#[test]
fn a_message_entry_loaded_for_its_transcript_holds_its_message_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    std::fs::write(
        &path,
        concat!(
            r#"{"type":"session","version":3,"id":"s","timestamp":"2026-03-09T08:41:07.000Z","cwd":"/"}"#,
            "\n",
            r#"{"type":"message","id":"a","parentId":null,"timestamp":"2026-03-09T08:41:08.000Z","extra":1,"message":{"role":"user","content":"hi","timestamp":1}}"#,
            "\n",
            r#"{"type":"message","id":"b","parentId":"a","appendMode":"side","message":{"role":"user","content":"side","timestamp":2}}"#,
            "\n",
            r#"{"type":"custom","id":"c","parentId":"a","customType":"note","data":{"x":1}}"#,
            "\n",
        ),
    )
    .unwrap();
    let s = load(&path, Keep::Transcript).unwrap();
    let [plain, side, custom] = &s.entries[..] else {
        panic!("three entries")
    };
    assert!(plain.message_only);
    assert_eq!(
        plain.raw,
        replaylens::json!({"role":"user","content":"hi","timestamp":1})
    );
    assert_eq!(plain.type_str(), Some("message"));
    assert_eq!(plain.message_value(), Some(&plain.raw));
    assert_eq!(plain.id.as_deref(), Some("a"));
    // A side append keeps its envelope: `appendMode` decides where the leaf is.
    assert!(!side.message_only);
    assert!(side.is_side_append());
    // Other entries are kept whole.
    assert!(!custom.message_only);
    assert_eq!(custom.raw["data"]["x"], 1);
}
