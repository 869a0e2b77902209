//! Live follow in the app state: a re-read replaces the projection in place and keeps the
//! selection; a re-read that fails keeps the view and says why.

use super::*;

#[test]
fn a_live_reread_keeps_the_selection_and_a_failed_one_keeps_the_view() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    press(&mut app, "j");
    press(&mut app, "j");
    press(&mut app, "j");
    let stored = app.selected_row().unwrap().stored.clone();
    app.live_reload = Some(stored.first().copied());
    app.loaded(Ok(sample("anthropic-tool-repair.jsonl")));
    assert!(app.live_reload.is_none());
    assert_eq!(
        app.selected_row().unwrap().stored,
        stored,
        "the same stored message stays selected"
    );
    let rows = app.rows.len();
    app.live_reload = Some(None);
    app.loaded(Err("the file is gone".into()));
    assert_eq!(app.status.as_deref(), Some("live: the file is gone"));
    assert_eq!(app.rows.len(), rows, "the view stays");
    assert!(app.insp.is_some());
}

/// Append `line` and a newline to `path`.
fn append_line(path: &std::path::Path, line: &str) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    writeln!(f, "{line}").unwrap();
}

/// Tick until the app asks for a live read (the change event, or the poll, comes).
fn next_live_read(app: &mut App) -> super::super::live::LiveRead {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::time::Instant::now() < until {
        app.follow_tick();
        if let Some(super::super::app::Effect::Follow(read)) = app.effects.pop() {
            return read;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("no live read was asked for");
}

#[test]
fn appended_lines_are_read_by_the_reader_the_follow_keeps() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let sample = format!(
        "{}/sample-sessions/anthropic-tool-repair.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::copy(sample, &path).unwrap();
    let request = super::super::app::LoadRequest {
        path: path.clone(),
        session: None,
        target: replaylens::policy::Target::default(),
        rule_set: replaylens::rule_set::RuleSet::newest(),
        rule_set_from_session: false,
        config: None,
    };
    let report: super::super::loader::Report = std::sync::Arc::new(|_| {});
    let mut app = app_with(load(&request, &report).unwrap(), Theme::dark());
    app.follow();
    // The follow's reader reads the file once in the background, so the first append is
    // parsed alone as well.
    let tail = std::sync::Arc::clone(app.live.as_ref().unwrap().reader());
    let size = std::fs::metadata(&path).unwrap().len();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while tail.lock().unwrap().parsed_bytes() != Some(size) {
        assert!(
            std::time::Instant::now() < deadline,
            "the reader read the file at the start"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    press(&mut app, "j");
    let stored = app.selected_row().unwrap().stored.clone();
    let messages = app.insp.as_ref().unwrap().transcript.messages.len();
    for (n, (id, parent)) in [("live1", "a4620dbe"), ("live2", "live1")].into_iter().enumerate() {
        append_line(
            &path,
            &format!(
                r#"{{"type":"message","id":"{id}","parentId":"{parent}","timestamp":"2026-03-09T08:45:00.000Z","message":{{"role":"user","content":"{id}","timestamp":1773045900000}}}}"#
            ),
        );
        let read = next_live_read(&mut app);
        let insp = super::super::loader::load_followed(&read.request, &read.tail, read.from_start, &report);
        app.loaded(insp);
        let len = std::fs::metadata(&path).unwrap().len();
        assert_eq!(
            read.tail.lock().unwrap().parsed_bytes(),
            Some(len),
            "the reader is kept"
        );
        let transcript = &app.insp.as_ref().unwrap().transcript;
        assert_eq!(transcript.messages.len(), messages + n + 1);
        assert_eq!(transcript.messages.last().unwrap().message.text(), id);
        assert_eq!(app.selected_row().unwrap().stored, stored, "the selection stays");
    }
}
