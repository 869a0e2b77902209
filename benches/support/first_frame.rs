//! The inspector's first frames on a session, as the inspector makes them: the loader on its
//! own thread, the frame drawn when the stored side arrives and the frame once the
//! projection is in, into a 160×45 `TestBackend`. Shared by `benches/render.rs` and
//! `examples/measure_first_frame.rs`; the including crate provides the `tui` module.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

use crate::tui::app::{App, LoadRequest};
use crate::tui::keymap::Keymap;
use crate::tui::loader::{LoadEvent, Report, load};
use crate::tui::pickers::SessionSource;
use crate::tui::theme::Theme;

/// Time from start to the first frame (stored side) and to the full projection on screen.
pub fn first_frames(path: &Path) -> (Duration, Duration) {
    let start = Instant::now();
    // As the inspector does at start-up.
    crate::tui::render::json::preload();
    let (tx, rx) = std::sync::mpsc::channel();
    let request = LoadRequest {
        path: path.to_path_buf(),
        session: None,
        target: replaylens::policy::Target::default(),
        rule_set: replaylens::rule_set::RuleSet::newest(),
        rule_set_from_session: false,
    };
    std::thread::spawn(move || {
        let events = tx.clone();
        let report: Report = Arc::new(move |e| {
            let _ = events.send(e);
        });
        let done = load(&request, &report);
        let _ = tx.send(LoadEvent::Done(Box::new(done)));
    });
    let theme = Theme::load("dark", false).expect("built-in theme");
    let mut app = App::new(Keymap::default(), theme, SessionSource::Default);
    app.resize(Rect::new(0, 0, 160, 45));
    let mut terminal = Terminal::new(TestBackend::new(160, 45)).expect("backend");
    let mut first = None;
    for event in rx {
        match event {
            LoadEvent::Stored(insp) => {
                app.show_stored(*insp);
                terminal.draw(|f| crate::tui::render::draw(&app, f)).expect("draw");
                first = Some(start.elapsed());
            }
            LoadEvent::Done(result) => {
                app.loaded(*result);
                terminal.draw(|f| crate::tui::render::draw(&app, f)).expect("draw");
                let full = start.elapsed();
                return (first.unwrap_or(full), full);
            }
            _ => {}
        }
    }
    panic!("the loader stopped without a result");
}
