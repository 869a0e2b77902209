//! One frame of the inspector drawn into a `TestBackend`, for a 100-message and a
//! 20,000-message session (synthetic, built in memory). Only visible rows are laid out, so
//! the two should cost about the same.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

#[allow(dead_code, unused_imports)]
#[path = "../src/tui/mod.rs"]
mod tui;

use tui::app::App;
use tui::keymap::Keymap;
use tui::pickers::SessionSource;
use tui::theme::Theme;

fn frame(c: &mut Criterion) {
    for n in [100usize, 20_000] {
        let mut app = App::new(
            Keymap::default(),
            Theme::load("dark", false).expect("built-in theme"),
            SessionSource::Default,
        );
        app.resize(Rect::new(0, 0, 120, 40));
        app.set_inspection(tui::fixtures::synthetic(n));
        app.select(n / 2 + 1);
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("test backend");
        c.bench_function(&format!("frame_{n}_messages"), |b| {
            b.iter(|| {
                terminal.draw(|f| tui::render::draw(black_box(&app), f)).expect("draw");
            });
        });
    }
}

criterion_group!(benches, frame);
criterion_main!(benches);
