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

/// A copy of the sample session in a folder of its own, loaded in an app that follows it with
/// a 64 KiB line limit.
fn followed_copy() -> (tempfile::TempDir, std::path::PathBuf, App) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let sample = format!(
        "{}/sample-sessions/anthropic-tool-repair.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::copy(sample, &path).unwrap();
    let mut app = app_with(load(&request(&path), &quiet()).unwrap(), Theme::dark());
    let limits = replaylens::load::limits::Limits {
        max_line_bytes: 64 << 10,
        ..Default::default()
    };
    app.live = Some(super::super::live::Live::watch(&path, None, limits));
    (dir, path, app)
}

fn request(path: &std::path::Path) -> super::super::app::LoadRequest {
    super::super::app::LoadRequest {
        path: path.to_owned(),
        session: None,
        target: replaylens::policy::Target::default(),
        rule_set: replaylens::rule_set::RuleSet::newest(),
        rule_set_from_session: false,
        config: None,
    }
}

fn quiet() -> super::super::loader::Report {
    std::sync::Arc::new(|_| {})
}

/// Tick until the follow says something happened to the file; what the header then shows.
fn next_event(app: &mut App) -> String {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::time::Instant::now() < until {
        app.follow_tick();
        if app.live.as_ref().unwrap().event().is_some() {
            let header = text(&screen(app)).lines().nth(1).unwrap().to_owned();
            assert!(!header.contains("● live ·"), "not the plain mark: {header}");
            return header;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("nothing was said");
}

/// The header says `said`, the status line names the file, and no read was asked for.
fn said_and_not_read(app: &mut App, said: &str) {
    let rows = app.rows.len();
    let header = next_event(app);
    assert!(header.contains(&format!("● live: {said}")), "{header}");
    let status = app.status.clone().unwrap_or_default();
    assert!(status.starts_with("live: ") && status.contains("s.jsonl "), "{status}");
    assert!(app.effects.is_empty(), "nothing is read: {:?}", app.effects);
    assert_eq!(app.rows.len(), rows, "the view stays, marked");
}

#[test]
fn a_deleted_file_is_said_in_the_header() {
    let (_dir, path, mut app) = followed_copy();
    std::fs::remove_file(&path).unwrap();
    said_and_not_read(&mut app, "file deleted");
    assert!(app.status.as_deref().unwrap().ends_with("waiting for it to reappear"));
}

#[test]
fn a_fifo_a_folder_or_a_link_to_dev_zero_in_its_place_is_said_and_never_opened() {
    type Plant = fn(&std::path::Path);
    let plants: [(Plant, &str); 3] = [
        (
            |p| assert!(std::process::Command::new("mkfifo").arg(p).status().unwrap().success()),
            "replaced by a FIFO, not read",
        ),
        (|p| std::fs::create_dir(p).unwrap(), "replaced by a folder, not read"),
        (
            |p| std::os::unix::fs::symlink("/dev/zero", p).unwrap(),
            "replaced by a link, not read",
        ),
    ];
    for (plant, said) in plants {
        let (dir, path, mut app) = followed_copy();
        let planted = dir.path().join("planted");
        plant(&planted);
        if planted.is_dir() {
            std::fs::remove_file(&path).unwrap();
        }
        std::fs::rename(&planted, &path).unwrap();
        let header = next_event(&mut app);
        // A folder is removed first: the deletion may be seen before the folder.
        let header = if header.contains("file deleted") {
            next_event_after(&mut app)
        } else {
            header
        };
        assert!(header.contains(&format!("● live: {said}")), "{header}");
        assert!(app.effects.is_empty(), "nothing is read: {:?}", app.effects);
    }
}

/// [`next_event`] for the event after the one shown now.
fn next_event_after(app: &mut App) -> String {
    let now = app.live.as_ref().unwrap().event().map(str::to_owned);
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::time::Instant::now() < until {
        app.follow_tick();
        if app.live.as_ref().unwrap().event().map(str::to_owned) != now {
            return text(&screen(app)).lines().nth(1).unwrap().to_owned();
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("nothing more was said");
}

/// A session of one user message saying `text`.
fn one_message_session(text: &str) -> String {
    let header = r#"{"type":"session","version":3,"id":"other","timestamp":"2026-03-14T09:30:00.000Z","cwd":"/"}"#;
    format!(
        "{header}\n{{\"type\":\"message\",\"id\":\"u0\",\"parentId\":null,\"timestamp\":\"2026-03-14T09:30:01.000Z\",\"message\":{{\"role\":\"user\",\"content\":\"{text}\",\"timestamp\":1}}}}\n"
    )
}

/// Write a one-message session to `path` through a rename (one event).
fn renamed_over(path: &std::path::Path, text: &str) {
    let new = path.with_extension("new");
    std::fs::write(&new, one_message_session(text)).unwrap();
    std::fs::rename(&new, path).unwrap();
}

/// Run the live read the app asked for and hand its result back.
fn run_read(app: &mut App) {
    let Some(super::super::app::Effect::Follow(read)) = app.effects.pop() else {
        panic!("a read was asked for: {:?}", app.effects);
    };
    assert!(read.from_start, "read from the start");
    let insp = super::super::loader::load_followed(&read.request, &read.tail, read.from_start, &quiet());
    app.loaded(insp);
}

#[test]
fn a_file_renamed_over_it_is_said_and_read_from_the_start() {
    let (_dir, path, mut app) = followed_copy();
    renamed_over(&path, "a new session");
    let header = next_event(&mut app);
    assert!(header.contains("● live: file replaced"), "{header}");
    run_read(&mut app);
    let transcript = &app.insp.as_ref().unwrap().transcript;
    assert_eq!(
        transcript.messages.len(),
        1,
        "the new file alone, not added to the old one"
    );
    assert_eq!(transcript.messages[0].message.text(), "a new session");
}

#[test]
fn a_truncated_file_is_said_and_read_from_the_start() {
    let (_dir, path, mut app) = followed_copy();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(0)
        .unwrap();
    let header = next_event(&mut app);
    assert!(header.contains("● live: file truncated"), "{header}");
    assert!(app.effects.is_empty(), "an empty file is not read");
    assert!(app.status.as_deref().unwrap().contains("truncated to 0 bytes"));
    // What is written next is read as a new session, not appended to the old one.
    append_line(&path, one_message_session("after the truncation").trim_end());
    let read = next_live_read(&mut app);
    assert!(read.from_start);
    app.effects.push(super::super::app::Effect::Follow(read));
    run_read(&mut app);
    let transcript = &app.insp.as_ref().unwrap().transcript;
    assert_eq!(transcript.messages.len(), 1);
    assert_eq!(transcript.messages[0].message.text(), "after the truncation");
    let header = text_of_header(&mut app);
    assert!(header.contains("● live ·"), "an append clears the mark: {header}");
}

fn text_of_header(app: &mut App) -> String {
    text(&screen(app)).lines().nth(1).unwrap().to_owned()
}

#[test]
fn a_line_over_the_limit_is_said_with_its_number_and_not_read() {
    let (_dir, path, mut app) = followed_copy();
    let lines = std::fs::read_to_string(&path).unwrap().lines().count();
    append_line(
        &path,
        &format!("{{\"type\":\"custom\",\"data\":\"{}\"}}", "x".repeat(70 << 10)),
    );
    let header = next_event(&mut app);
    let n = lines + 1;
    assert!(
        header.contains(&format!("● live: line {n} over the limit, not read")),
        "{header}"
    );
    assert!(app.effects.is_empty(), "nothing is read: {:?}", app.effects);
    assert!(app.status.as_deref().unwrap().contains("--max-line-mb"));
}
