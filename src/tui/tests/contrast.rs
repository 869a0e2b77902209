//! WCAG contrast of every foreground/background pair each built-in theme draws: the screens of
//! the fixture session (every row kind selected in turn, the help, the wire payload) are drawn
//! and every visible cell is measured against the backgrounds the theme is made for. Body text
//! needs 4.5:1, decoration (box drawing) 3:1 (`docs/themes.md`).

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

use super::{app_with, press, screen};
use crate::tui::fixtures;
use crate::tui::theme::{BUILTIN, Background, Theme};

/// An sRGB colour.
type Rgb = (u8, u8, u8);

/// Terminal backgrounds a theme must read on, with the default foreground drawn on them.
fn backdrops(kind: Background) -> [(Rgb, Rgb); 2] {
    match kind {
        Background::Dark => [((0, 0, 0), (229, 229, 229)), ((0x1e, 0x1e, 0x1e), (0xd4, 0xd4, 0xd4))],
        Background::Light => [((255, 255, 255), (0, 0, 0)), ((0xf6, 0xf6, 0xf6), (0x1e, 0x1e, 0x1e))],
    }
}

/// The xterm default palette for the 16 named colours, the 6×6×6 cube and the grey ramp.
fn rgb(c: Color, default: (u8, u8, u8)) -> (u8, u8, u8) {
    const BASIC: [(u8, u8, u8); 16] = [
        (0, 0, 0),
        (205, 0, 0),
        (0, 205, 0),
        (205, 205, 0),
        (0, 0, 238),
        (205, 0, 205),
        (0, 205, 205),
        (229, 229, 229),
        (127, 127, 127),
        (255, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
        (92, 92, 255),
        (255, 0, 255),
        (0, 255, 255),
        (255, 255, 255),
    ];
    let indexed = |i: u8| -> (u8, u8, u8) {
        match i {
            0..=15 => BASIC[i as usize],
            16..=231 => {
                let i = i - 16;
                let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
                (level(i / 36), level((i / 6) % 6), level(i % 6))
            }
            _ => {
                let v = 8 + (i - 232) * 10;
                (v, v, v)
            }
        }
    };
    match c {
        Color::Reset => default,
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(i) => indexed(i),
        Color::Black => BASIC[0],
        Color::Red => BASIC[1],
        Color::Green => BASIC[2],
        Color::Yellow => BASIC[3],
        Color::Blue => BASIC[4],
        Color::Magenta => BASIC[5],
        Color::Cyan => BASIC[6],
        Color::Gray => BASIC[7],
        Color::DarkGray => BASIC[8],
        Color::LightRed => BASIC[9],
        Color::LightGreen => BASIC[10],
        Color::LightYellow => BASIC[11],
        Color::LightBlue => BASIC[12],
        Color::LightMagenta => BASIC[13],
        Color::LightCyan => BASIC[14],
        Color::White => BASIC[15],
    }
}

fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
    let channel = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.040_45 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/// The WCAG 2 contrast ratio of two colours (1 to 21).
fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Box drawing and block elements: decoration, 3:1 is enough.
fn decoration(symbol: &str) -> bool {
    symbol.chars().all(|c| matches!(c, '\u{2500}'..='\u{259f}'))
}

/// Every drawn cell whose text does not reach its contrast: "theme x,y 'c' fg/bg ratio".
fn failures(name: &str, kind: Background, buf: &Buffer, what: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (bg0, fg0) in backdrops(kind) {
        for y in 0..buf.area.height {
            for x in 0..buf.area.width {
                let cell = &buf[(x, y)];
                if cell.symbol().trim().is_empty() {
                    continue;
                }
                let (mut fg, mut bg) = (rgb(cell.fg, fg0), rgb(cell.bg, bg0));
                if cell.modifier.contains(Modifier::REVERSED) {
                    std::mem::swap(&mut fg, &mut bg);
                }
                let need = if decoration(cell.symbol()) { 3.0 } else { 4.5 };
                let ratio = contrast(fg, bg);
                if ratio < need {
                    out.push(format!(
                        "{name} on #{:02x}{:02x}{:02x} ({what}) {x},{y} {:?} fg={} bg={} {ratio:.2}:1",
                        bg0.0,
                        bg0.1,
                        bg0.2,
                        cell.symbol(),
                        cell.fg,
                        cell.bg
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn contrast_math_matches_wcag() {
    assert!((contrast((0, 0, 0), (255, 255, 255)) - 21.0).abs() < 1e-9);
    // The figure: #d0d0d0 on white.
    assert!((contrast((0xd0, 0xd0, 0xd0), (255, 255, 255)) - 1.54).abs() < 0.01);
}

#[test]
fn every_builtin_theme_reads_on_its_background_including_the_selected_row() {
    let mut all = Vec::new();
    for (name, text) in BUILTIN {
        let theme = Theme::parse(text, false).unwrap();
        let kind = theme.background;
        let mut app = app_with(fixtures::every_kind(), theme);
        let rows = app.view.len();
        for pos in 0..rows {
            app.select(pos);
            all.extend(failures(name, kind, &screen(&mut app), &format!("row {pos} selected")));
        }
        press(&mut app, "?");
        all.extend(failures(name, kind, &screen(&mut app), "help"));
        press(&mut app, "\u{1b}w");
        all.extend(failures(name, kind, &screen(&mut app), "wire payload"));
    }
    // One line per theme, backdrop and colour pair (the first cell that shows it).
    let mut seen = std::collections::BTreeSet::new();
    all.retain(|f| {
        seen.insert(
            f.split_once(" (").map(|(a, _)| a.to_owned()).unwrap_or_default() + f.split(" fg=").nth(1).unwrap_or(""),
        )
    });
    assert!(
        all.is_empty(),
        "{} colour pairs below contrast:\n{}",
        all.len(),
        all.join("\n")
    );
}
