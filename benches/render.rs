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

#[path = "support/first_frame.rs"]
mod first_frame;

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

/// The first rows, the stored side and the full projection on screen for the screenshot
/// session of `benches/load.rs` (`bench-data/screenshots.jsonl`), when it has been generated.
fn first_frames(c: &mut Criterion) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bench-data/screenshots.jsonl");
    if !path.exists() {
        eprintln!(
            "skipping first_frame: run `cargo bench --bench load` first to generate {}",
            path.display()
        );
        return;
    }
    let mut g = c.benchmark_group("first_frame");
    g.sample_size(10)
        .sampling_mode(criterion::SamplingMode::Flat)
        .measurement_time(std::time::Duration::from_secs(30));
    g.bench_function("screenshots-first-rows", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| first_frame::first_frames(&path).first_rows).sum());
    });
    g.bench_function("screenshots-stored-side", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| first_frame::first_frames(&path).stored).sum());
    });
    g.bench_function("screenshots-full-projection", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| first_frame::first_frames(&path).full).sum());
    });
    g.finish();
}

criterion_group!(benches, frame, first_frames);
criterion_main!(benches);
