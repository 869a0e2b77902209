//! Issue 45 finding 13 in the inspector: every Unicode scalar value, escaped as every screen
//! escapes text, is drawn by the inspector's layout (ratatui) at the width the escaping
//! assumed: the character after it lands where `display_width` says, so nothing bleeds across
//! a column separator or leaves stale glyphs.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Widget;
use replaylens::text::{display_width, escape_controls_single_line};

/// The column of the cell holding `|` in the first row.
fn bar_column(buf: &Buffer) -> Option<u16> {
    (0..buf.area.width).find(|&x| buf[(x, 0)].symbol() == "|")
}

#[test]
fn every_scalar_is_drawn_at_the_width_the_layout_assumed() {
    let area = Rect::new(0, 0, 48, 1);
    let mut wrong = Vec::new();
    for c in (0..=0x10ffff_u32).filter_map(char::from_u32).filter(|&c| c != '|') {
        let shown = escape_controls_single_line(&format!("x{c}")).into_owned();
        let mut buf = Buffer::empty(area);
        Line::from(format!("{shown}|")).render(area, &mut buf);
        let expected = u16::try_from(display_width(&shown)).unwrap();
        if bar_column(&buf) != Some(expected) {
            wrong.push(format!("U+{:04X} at {:?}, not {expected}", c as u32, bar_column(&buf)));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} scalars: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(20)]
    );
}
