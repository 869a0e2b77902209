//! The export dialog: keys, writing a real file, the overwrite confirmation, errors.

use replaylens::export::{ExportFormat, Redaction, default_file_name};

use super::*;
use crate::tui::app::Effect;
use crate::tui::overlay::ExportDialog;

fn ctrl(app: &mut App, c: char) {
    handle_key(app, KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
}

fn run_exports(app: &mut App) -> usize {
    let effects = std::mem::take(&mut app.effects);
    for effect in &effects {
        if let Effect::Export(request) = effect {
            app.perform_export(request);
        }
    }
    effects.len()
}

fn dialog(app: &App) -> &ExportDialog {
    match &app.mode {
        Mode::Export(d) => d,
        other => panic!("no export dialog: {other:?}"),
    }
}

#[test]
fn export_dialog_keys() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    press(&mut app, "e");
    let insp = app.insp.as_ref().unwrap();
    let default_md = default_file_name(&insp.session.id, &insp.resolved.target, ExportFormat::Markdown);
    assert_eq!(dialog(&app).path, default_md);
    assert!(default_md.ends_with(".md") && default_md.contains("anthropic"));
    handle_key(&mut app, KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE));
    assert_eq!(dialog(&app).format, ExportFormat::Html);
    assert_eq!(dialog(&app).path, default_md.replace(".md", ".html"));
    handle_key(&mut app, KeyEvent::new(KeyCode::Right, KeyModifiers::NONE));
    assert_eq!(dialog(&app).path, default_md.replace(".md", ".json"));
    handle_key(&mut app, KeyEvent::new(KeyCode::Left, KeyModifiers::NONE));
    handle_key(&mut app, KeyEvent::new(KeyCode::Left, KeyModifiers::NONE));
    assert_eq!(dialog(&app).format, ExportFormat::Markdown);
    handle_key(&mut app, KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    assert_eq!(dialog(&app).redaction, Redaction::Secrets);
    handle_key(&mut app, KeyEvent::new(KeyCode::Up, KeyModifiers::NONE));
    handle_key(&mut app, KeyEvent::new(KeyCode::Up, KeyModifiers::NONE));
    assert_eq!(dialog(&app).redaction, Redaction::AllText);
    // Typing edits the path; once edited, the format changes only its extension.
    ctrl(&mut app, 'u');
    assert_eq!(dialog(&app).path, "");
    press(&mut app, "qjk.mdx");
    handle_key(&mut app, KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
    handle_key(&mut app, KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE));
    assert_eq!(
        (dialog(&app).path.as_str(), dialog(&app).format),
        ("qjk.html", ExportFormat::Html)
    );
    press(&mut app, "\u{1b}");
    assert!(matches!(app.mode, Mode::Normal));
    assert!(app.effects.is_empty() && app.status.is_none());
    assert!(!std::path::Path::new("qjk.md").exists());
}

#[test]
fn a_typed_extension_selects_its_format() {
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    press(&mut app, "e");
    assert_eq!(dialog(&app).format, ExportFormat::Markdown);
    ctrl(&mut app, 'u');
    press(&mut app, "typed.html");
    assert_eq!(dialog(&app).format, ExportFormat::Html);
    assert!(text(&screen(&mut app)).contains("typed.html"));
    ctrl(&mut app, 'u');
    press(&mut app, "TYPED.JSON");
    assert_eq!(dialog(&app).format, ExportFormat::Json);
    // An extension naming no format leaves the chosen one, and the path, alone.
    ctrl(&mut app, 'u');
    press(&mut app, "notes.txt");
    handle_key(&mut app, KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE));
    assert_eq!(
        (dialog(&app).path.as_str(), dialog(&app).format),
        ("notes.txt", ExportFormat::Markdown)
    );
}

#[test]
fn a_typed_html_path_is_written_as_html() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("typed.html");
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    press(&mut app, "e");
    assert_eq!(dialog(&app).format, ExportFormat::Markdown);
    ctrl(&mut app, 'u');
    press(&mut app, &format!("{}\n", out.display()));
    assert_eq!(run_exports(&mut app), 1);
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(
        written.starts_with("<!DOCTYPE html>"),
        "{}",
        &written[..80.min(written.len())]
    );
}

#[test]
fn export_writes_a_file_and_confirms_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.md");
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    press(&mut app, "e");
    ctrl(&mut app, 'u');
    press(&mut app, &format!("{}\n", out.display()));
    assert!(matches!(app.mode, Mode::Normal));
    assert_eq!(run_exports(&mut app), 1);
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("anthropic"), "{written}");
    let status = format!("wrote {} ({} bytes)", out.display(), written.len());
    assert_eq!(app.status.as_deref(), Some(status.as_str()));
    assert!(text(&screen(&mut app)).contains(&status));

    // The same path again: a notice first, nothing written; Enter again overwrites.
    press(&mut app, "e");
    ctrl(&mut app, 'u');
    press(&mut app, &out.display().to_string());
    handle_key(&mut app, KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE));
    handle_key(&mut app, KeyEvent::new(KeyCode::BackTab, KeyModifiers::NONE));
    handle_key(&mut app, KeyEvent::new(KeyCode::Down, KeyModifiers::NONE));
    press(&mut app, "\n");
    assert!(dialog(&app).confirm.is_some());
    assert!(text(&screen(&mut app)).contains("overwrite it? y (or Enter) overwrites"));
    assert!(app.effects.is_empty());
    // A key other than y keeps the file and goes nowhere near the path; asked again, y writes.
    let path = dialog(&app).path.clone();
    press(&mut app, "e");
    assert!(dialog(&app).confirm.is_none() && dialog(&app).path == path && app.effects.is_empty());
    press(&mut app, "\n");
    assert!(dialog(&app).confirm.is_some());
    press(&mut app, "y");
    assert_eq!(run_exports(&mut app), 1);
    let redacted = std::fs::read_to_string(&out).unwrap();
    assert_ne!(redacted, written);
    assert!(app.status.as_deref().unwrap().starts_with("wrote "));

    // A key after the question keeps the file and asks again on Enter; a file that appears
    // meanwhile is not clobbered.
    press(&mut app, "e");
    ctrl(&mut app, 'u');
    press(&mut app, &format!("{}\n", out.display()));
    press(&mut app, "x");
    assert!(dialog(&app).confirm.is_none() && !dialog(&app).path.ends_with('x'));
    press(&mut app, "\u{1b}");
    let fresh = dir.path().join("fresh.json");
    press(&mut app, "e");
    ctrl(&mut app, 'u');
    press(&mut app, &format!("{}\n", fresh.display()));
    std::fs::write(&fresh, "keep").unwrap();
    run_exports(&mut app);
    assert_eq!(std::fs::read_to_string(&fresh).unwrap(), "keep");
    assert!(app.status.as_deref().unwrap().contains("already exists"));
}

#[test]
fn export_errors_are_one_sentence_in_the_status() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    press(&mut app, "e");
    ctrl(&mut app, 'u');
    press(&mut app, "\n");
    assert_eq!(dialog(&app).notice.as_deref(), Some("type a file name"));
    press(&mut app, &format!("{}\n", dir.path().display()));
    assert!(dialog(&app).notice.as_deref().unwrap().ends_with("is a directory"));
    ctrl(&mut app, 'u');
    press(&mut app, &format!("{}/no\u{7}such/x.md\n", dir.path().display()));
    run_exports(&mut app);
    let status = app.status.clone().unwrap();
    assert!(
        status.starts_with("cannot write ") && status.contains("no\\x07such") && !status.contains('\u{7}'),
        "{status}"
    );
    let shown = text(&screen(&mut app));
    assert!(shown.contains("no\\x07such") && !shown.contains('\u{7}'), "{shown}");

    // A session that cannot be loaded again (the fixture's file does not exist).
    let mut app = app_with(fixtures::every_kind(), Theme::dark());
    press(&mut app, "e");
    ctrl(&mut app, 'u');
    press(&mut app, &format!("{}/y.md\n", dir.path().display()));
    run_exports(&mut app);
    assert!(app.status.as_deref().unwrap().starts_with("export failed: "));
}

#[test]
fn export_dialog_refuses_the_open_session_by_every_alias() {
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("s.jsonl");
    let original = std::fs::read(format!(
        "{}/sample-sessions/anthropic-tool-repair.jsonl",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    std::fs::write(&session, &original).unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::os::unix::fs::symlink(&session, dir.path().join("link.jsonl")).unwrap();
    std::fs::hard_link(&session, dir.path().join("hard.jsonl")).unwrap();
    let mut insp = sample("anthropic-tool-repair.jsonl");
    insp.session.path = session.clone();
    let mut app = app_with(insp, Theme::dark());
    for alias in [
        session.display().to_string(),
        format!("{}/./s.jsonl", dir.path().display()),
        format!("{}/sub/../s.jsonl", dir.path().display()),
        format!("{}/link.jsonl", dir.path().display()),
        format!("{}/hard.jsonl", dir.path().display()),
    ] {
        press(&mut app, "e");
        ctrl(&mut app, 'u');
        // Enter twice: the overwrite confirmation must not be what lets it through.
        press(&mut app, &format!("{alias}\n\n"));
        let notice = dialog(&app).notice.clone().unwrap_or_default();
        assert!(
            notice.ends_with("is the session being inspected; choose another file"),
            "{alias}: {notice}"
        );
        assert!(app.effects.is_empty(), "{alias}");
        press(&mut app, "\u{1b}");
    }
    assert_eq!(std::fs::read(&session).unwrap(), original);

    // The effect itself refuses too (a request built elsewhere, or a file renamed meanwhile).
    let request = crate::tui::export_write::ExportRequest {
        source: session.clone(),
        db_session: None,
        target: replaylens::policy::Target::default(),
        replay_options: replaylens::hygiene::ReplayOptions::default(),
        options: replaylens::export::ExportOptions::default(),
        output: dir.path().join("hard.jsonl"),
        overwrite: true,
    };
    app.perform_export(&request);
    assert!(
        app.status
            .as_deref()
            .unwrap()
            .ends_with("is the session being exported; nothing written")
    );
    assert_eq!(std::fs::read(&session).unwrap(), original);
}

#[test]
fn an_export_runs_on_its_own_thread_and_reports_its_stages_in_the_header() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    app.resize(ratatui::layout::Rect::new(0, 0, 80, 24));
    press(&mut app, "e");
    handle_key(&mut app, KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE));
    ctrl(&mut app, 'u');
    let out = dir.path().join("report.html");
    for c in out.display().to_string().chars() {
        handle_key(&mut app, KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
    handle_key(&mut app, KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    let request = app
        .effects
        .drain(..)
        .find_map(|e| match e {
            Effect::Export(r) => Some(r),
            _ => None,
        })
        .expect("Enter asks for an export");

    // What the event loop does: start the job, keep handling keys, take its events.
    app.export_started();
    let rx = crate::tui::export_job::spawn(request.clone());
    let header = text(&screen(&mut app));
    let second = header.lines().nth(1).unwrap();
    assert!(second.starts_with("✓ payload accepted"), "the verdict stays: {second}");
    assert!(second.contains("⟳ export reading the session"), "{second}");
    press(&mut app, "j");
    assert_eq!(app.selected, 1, "keys keep working while the report is written");
    let mut stages = Vec::new();
    let result = loop {
        match rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the job ends")
        {
            crate::tui::export_job::ExportEvent::Progress(stage) => {
                app.export_progress(stage);
                stages.push(stage);
            }
            crate::tui::export_job::ExportEvent::Done(result) => break result,
        }
    };
    use crate::tui::export_job::ExportStage;
    assert_eq!(
        stages[..3],
        [ExportStage::Loading, ExportStage::Replaying, ExportStage::Writing(0)]
    );
    let n = result.clone().expect("written");
    app.export_done(result, &request);
    assert!(app.exporting.is_none());
    assert_eq!(std::fs::metadata(&out).unwrap().len() as usize, n);
    assert!(app.status.as_deref().unwrap().starts_with("wrote "), "{:?}", app.status);
    assert!(!text(&screen(&mut app)).contains("⟳ export"));
}
