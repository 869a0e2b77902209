//! The header's target: where each part came from (`*` the requested provider's default, `°`
//! the session's), `?` for a missing part, "did you mean" warnings, and `…` at the end of a
//! line that does not fit; and the rule set in force, picked by the release a database records.

use std::path::Path;
use std::sync::Arc;

use ratatui::layout::Rect;
use replaylens::policy::Target;
use replaylens::rule_set::RuleSet;

use super::{app_with, screen, text};
use crate::tui::app::{App, LoadRequest};
use crate::tui::inspection::Inspection;
use crate::tui::loader::{Report, load};
use crate::tui::theme::Theme;

fn loaded(path: &Path, target: Target) -> Inspection {
    loaded_with(path, target, false)
}

/// Load with `newest` requested; `from_session`: the release the file records may replace it.
fn loaded_with(path: &Path, target: Target, from_session: bool) -> Inspection {
    let request = LoadRequest {
        path: path.to_path_buf(),
        session: None,
        target,
        rule_set: RuleSet::newest(),
        rule_set_from_session: from_session,
        config: None,
    };
    load(&request, &(Arc::new(|_| {}) as Report)).unwrap()
}

fn sample(name: &str, target: Target) -> Inspection {
    let path = format!("{}/sample-sessions/{name}", env!("CARGO_MANIFEST_DIR"));
    loaded(Path::new(&path), target)
}

/// The two header lines at `width` columns, trailing blanks removed.
fn header(app: &mut App, width: u16) -> (String, String) {
    app.resize(Rect::new(0, 0, width, 40));
    let shown = text(&screen(app));
    let mut lines = shown.lines().map(|l| l.trim_end().to_owned());
    (lines.next().unwrap(), lines.next().unwrap())
}

#[test]
fn another_provider_shows_its_defaults_marked() {
    let target = Target::new(Some("mistral"), None, None);
    let mut app = app_with(sample("anthropic-tool-repair.jsonl", target), Theme::dark());
    let (first, _) = header(&mut app, 200);
    assert!(
        first.contains("target mistral / mistral-conversations* / mistral-large-latest*  *mistral default"),
        "{first}"
    );
    assert!(!first.contains('⚠'), "{first}");
}

#[test]
fn a_custom_provider_marks_the_parts_from_the_session() {
    let target = Target::new(Some("my-gateway"), None, None);
    let mut app = app_with(sample("anthropic-tool-repair.jsonl", target), Theme::dark());
    let (first, _) = header(&mut app, 200);
    assert!(
        first.contains("target my-gateway / anthropic-messages° / claude-sonnet-4-6°  °session"),
        "{first}"
    );
    assert!(!first.contains("did you mean"), "{first}");
}

#[test]
fn a_near_miss_is_a_warning_in_the_header() {
    let target = Target::new(Some("antropic"), None, None);
    let mut app = app_with(sample("anthropic-tool-repair.jsonl", target), Theme::dark());
    let (first, _) = header(&mut app, 220);
    assert!(
        first.contains(r#"antropic / anthropic-messages° / claude-sonnet-4-6°  ⚠ unknown provider "antropic"; did you mean "anthropic"?"#),
        "{first}"
    );
}

#[test]
fn the_sessions_own_target_has_no_marks() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl", Target::default()), Theme::dark());
    let (first, _) = header(&mut app, 200);
    assert!(
        first.ends_with("target anthropic / anthropic-messages / claude-sonnet-4-6  config no configuration"),
        "{first}"
    );
}

#[test]
fn a_missing_part_is_a_question_mark() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bare.json");
    let messages = r#"[{"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "text", "text": "hello"}], "stopReason": "stop"}]"#;
    std::fs::write(&path, messages).unwrap();
    let mut app = app_with(loaded(&path, Target::default()), Theme::dark());
    let (first, _) = header(&mut app, 160);
    assert!(first.ends_with("target ? / ? / ?  config no configuration"), "{first}");
    let mut app = app_with(
        loaded(&path, Target::new(Some("my-gateway"), None, None)),
        Theme::dark(),
    );
    let (first, _) = header(&mut app, 160);
    assert!(
        first.ends_with("target my-gateway / ? / ?  config no configuration"),
        "{first}"
    );
}

#[test]
fn lines_that_do_not_fit_end_with_an_ellipsis() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl", Target::default()), Theme::dark());
    let (first, second) = header(&mut app, 160);
    assert!(!first.ends_with('…'), "{first}");
    assert!(
        second.ends_with('…'),
        "rewrites per rule are cut with an ellipsis: {second}"
    );
    assert_eq!(second.chars().count(), 160, "{second}");
    let (first, second) = header(&mut app, 40);
    assert!(first.ends_with('…') && first.chars().count() == 40, "{first}");
    assert!(second.ends_with('…') && second.chars().count() == 40, "{second}");
    let (_, second) = header(&mut app, 1000);
    assert!(!second.ends_with('…'), "a line that fits is whole: {second}");
    assert!(second.ends_with(char::is_alphanumeric), "{second}");
}

/// The sample database with `schema_meta.app_version` set to `version`, in a temporary folder.
fn database_recording(version: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("agent.sqlite");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions/openclaw-agent.sqlite"),
        &path,
    )
    .unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute("UPDATE schema_meta SET app_version = ?1", [version])
        .unwrap();
    drop(conn);
    (dir, path)
}

fn load_db(path: &Path, from_session: bool) -> Inspection {
    loaded_with(path, Target::default(), from_session)
}

#[test]
fn the_release_a_database_records_picks_the_rule_set_unless_one_was_chosen() {
    let (_dir, path) = database_recording("2026.9.4");
    let insp = load_db(&path, true);
    assert_eq!(insp.options.rule_set.name, "2026.9.3");
    let mut app = app_with(insp, Theme::dark());
    assert!(text(&screen(&mut app)).contains("openclaw 2026.9.3"));
    assert_eq!(app.rule_set.name, "2026.9.3", "v cycles from the set in force");
    assert_eq!(
        load_db(&path, false).options.rule_set.name,
        "newest",
        "--openclaw given: kept"
    );
    let (_old, path) = database_recording("2026.3.10");
    assert_eq!(
        load_db(&path, true).options.rule_set.name,
        "newest",
        "no set covers 2026.3.10"
    );
}

#[test]
fn at_80_columns_the_header_gives_way_in_priority_order() {
    // The verdict first, then the target, the rule set, the counts, load problems; the
    // session id goes first.
    let target = Target::new(Some("mistral"), None, None);
    let mut app = app_with(sample("mistral-ids-and-images.jsonl", target), Theme::dark());
    let (first, second) = header(&mut app, 80);
    assert!(first.starts_with("target mistral / mistral-conversations"), "{first}");
    assert!(!first.contains("3a4f30b2"), "the session id gives way first: {first}");
    assert!(
        second.starts_with("✗ payload would be rejected (2, x) · openclaw newest"),
        "{second}"
    );
    let (first, second) = header(&mut app, 200);
    assert!(
        first.starts_with("3a4f30b2-") && first.contains("target mistral"),
        "{first}"
    );
    assert!(second.contains("stored 12 → replay 12, 12 rewrites"), "{second}");
    let mut app = app_with(sample("anthropic-tool-repair.jsonl", Target::default()), Theme::dark());
    let (_, second) = header(&mut app, 80);
    assert!(
        second.starts_with("✓ payload accepted · openclaw newest · stored 30 → replay"),
        "{second}"
    );
    let (_, second) = header(&mut app, 30);
    assert!(second.starts_with("✓ payload accepted"), "the verdict stays: {second}");
}

#[test]
fn a_replay_openclaw_refuses_says_so_instead_of_a_payload_verdict() {
    let path = format!(
        "{}/tests/releases/refused_2026.7__2026.8.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let target = Target::new(Some("openai"), Some("openai-responses"), Some("gpt-5"));
    let insp = loaded(Path::new(&path), target);
    assert!(
        insp.refusal
            .as_deref()
            .is_some_and(|r| r.contains("invalid_replay_transcript"))
    );
    let mut app = app_with(insp, Theme::dark());
    let (_, second) = header(&mut app, 80);
    assert!(second.starts_with("⊘ OpenClaw refuses to send this"), "{second}");
}

#[test]
fn a_target_openclaw_cannot_route_says_so_instead_of_a_payload_verdict() {
    let path = format!(
        "{}/sample-sessions/anthropic-tool-repair.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let target = Target::new(Some("openai"), Some("openai-codex-responses"), Some("gpt-5"));
    let insp = loaded(Path::new(&path), target);
    assert!(insp.resolved.no_route.is_some());
    let mut app = app_with(insp, Theme::dark());
    let (_, second) = header(&mut app, 80);
    assert!(
        second.starts_with("⊘ OpenClaw has no route for this target"),
        "{second}"
    );
}

/// Load a bundled sample replayed under `config` (or none), as the app loads it.
fn loaded_under(name: &str, config: Option<replaylens::policy::config::OpenClawConfig>) -> Inspection {
    let request = LoadRequest {
        path: Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions").join(name),
        session: None,
        target: Target::default(),
        rule_set: RuleSet::newest(),
        rule_set_from_session: false,
        config: config.map(Arc::new),
    };
    load(&request, &(Arc::new(|_| {}) as Report)).unwrap()
}

#[test]
fn the_header_names_the_configuration_or_says_there_is_none() {
    let mut app = app_with(loaded_under("anthropic-tool-repair.jsonl", None), Theme::dark());
    let (first, _) = header(&mut app, 200);
    assert!(first.contains("config no configuration"), "{first}");

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("openclaw.json");
    std::fs::write(
        &file,
        r#"{models: {providers: {anthropic: {apiKey: "sk-never-shown", models: []}}}}"#,
    )
    .unwrap();
    let config = replaylens::policy::config::OpenClawConfig::load_with_env(&file, &Default::default()).unwrap();
    let mut app = app_with(loaded_under("anthropic-tool-repair.jsonl", Some(config)), Theme::dark());
    let (first, _) = header(&mut app, 200);
    assert!(first.contains(&format!("config {}", file.display())), "{first}");
    assert!(
        !first.contains("no configuration") && !first.contains("sk-never-shown"),
        "{first}"
    );
}
