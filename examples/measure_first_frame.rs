//! Time to the inspector's first frame (the stored side) and to the full projection on
//! screen, against a bare per-line `serde_json::Value` parse of the same file, interleaved.
//!
//! `cargo run --release --example measure_first_frame -- FILE.jsonl [--runs N]`
//!
//! Each run loads the file through the inspector's own loader (on its thread, as the
//! inspector does), draws the frame it would draw when the stored side arrives, then the
//! frame once the projection is in, into a 160×45 `TestBackend`. Times are wall-clock,
//! best of N (default 3).

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

#[allow(dead_code, unused_imports)]
#[path = "../src/tui/mod.rs"]
mod tui;

use tui::app::{App, LoadRequest};
use tui::keymap::Keymap;
use tui::loader::{LoadEvent, Report, load};
use tui::pickers::SessionSource;
use tui::theme::Theme;

fn bare_parse(path: &Path) -> Duration {
    let start = Instant::now();
    let file = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(path).expect("open"));
    let mut n = 0usize;
    for line in file.split(b'\n') {
        let line = line.expect("read");
        if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&line) {
            n += usize::from(!v.is_null());
        }
    }
    std::hint::black_box(n);
    start.elapsed()
}

/// (first frame, full projection on screen).
fn inspector(path: &Path) -> (Duration, Duration) {
    let start = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    let request = LoadRequest {
        path: path.to_path_buf(),
        session: None,
        target: replaylens::policy::Target::default(),
        rule_set: replaylens::rule_set::RuleSet::newest(),
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
                terminal.draw(|f| tui::render::draw(&app, f)).expect("draw");
                first = Some(start.elapsed());
            }
            LoadEvent::Done(result) => {
                app.loaded(*result);
                terminal.draw(|f| tui::render::draw(&app, f)).expect("draw");
                let full = start.elapsed();
                return (first.unwrap_or(full), full);
            }
            _ => {}
        }
    }
    panic!("the loader stopped without a result");
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(args.next().expect("usage: measure_first_frame FILE [--runs N]"));
    let runs: usize = match (args.next().as_deref(), args.next()) {
        (Some("--runs"), Some(n)) => n.parse().expect("--runs N"),
        _ => 3,
    };
    let (mut parse, mut first, mut full) = (Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..runs {
        parse = parse.min(bare_parse(&path));
        let (f, p) = inspector(&path);
        first = first.min(f);
        full = full.min(p);
    }
    let ratio = |d: Duration| d.as_secs_f64() / parse.as_secs_f64();
    println!("bare parse:               {:.3} s", parse.as_secs_f64());
    println!(
        "first frame (stored):     {:.3} s  {:.2}x",
        first.as_secs_f64(),
        ratio(first)
    );
    println!(
        "full projection on screen: {:.3} s  {:.2}x",
        full.as_secs_f64(),
        ratio(full)
    );
}
