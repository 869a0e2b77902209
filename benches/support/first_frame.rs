//! The inspector's first frames on a session, as the inspector makes them: the loader on its
//! own thread, the frame drawn when the first rows arrive (the preview of a large file's
//! first messages, while the rest is read), when the stored side arrives and once the
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

/// Times from start to each frame of a load.
#[derive(Debug, Clone, Copy)]
pub struct Frames {
    /// The first rows on screen: the preview of the first messages, or the stored side
    /// when the file is too small for a preview.
    pub first_rows: Duration,
    /// The stored side of the active branch.
    pub stored: Duration,
    /// The full projection.
    pub full: Duration,
}

/// Time from start to the first rows, the stored side and the full projection on screen.
pub fn first_frames(path: &Path) -> Frames {
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
        config: None,
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
    let mut stored = None;
    for event in rx {
        match event {
            LoadEvent::Preview(insp) => {
                app.show_preview(*insp);
                terminal.draw(|f| crate::tui::render::draw(&app, f)).expect("draw");
                first = Some(start.elapsed());
            }
            LoadEvent::Stored(insp) => {
                app.show_stored(*insp);
                terminal.draw(|f| crate::tui::render::draw(&app, f)).expect("draw");
                stored = Some(start.elapsed());
                first.get_or_insert(start.elapsed());
            }
            LoadEvent::Done(result) => {
                app.loaded(*result);
                terminal.draw(|f| crate::tui::render::draw(&app, f)).expect("draw");
                let full = start.elapsed();
                return Frames {
                    first_rows: first.unwrap_or(full),
                    stored: stored.unwrap_or(full),
                    full,
                };
            }
            _ => {}
        }
    }
    panic!("the loader stopped without a result");
}
