//! Buffer → text with styles recorded, for snapshot tests: each screen line is followed by a
//! line of style codes (one per cell; `.` is the most common style), and a legend maps codes
//! to colours and modifiers. Plain `TestBackend` snapshots would drop the highlights.

use std::collections::HashMap;
use std::fmt::Write;

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};

const CODES: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

fn cell_style(buf: &Buffer, x: u16, y: u16) -> Style {
    buf.cell((x, y)).map_or_else(Style::new, ratatui::buffer::Cell::style)
}

fn describe(style: Style) -> String {
    let color = |c: Option<Color>| c.map_or_else(|| "-".to_owned(), |c| c.to_string());
    let mods = style.add_modifier;
    let mut out = format!("fg={} bg={}", color(style.fg), color(style.bg));
    if mods != Modifier::empty() {
        let _ = write!(out, " +{mods:?}");
    }
    out
}

/// Serialize a buffer with a style-code line under every text line.
pub fn annotate(buf: &Buffer) -> String {
    let area = buf.area;
    let mut counts: HashMap<Style, usize> = HashMap::new();
    let mut order: Vec<Style> = Vec::new();
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let s = cell_style(buf, x, y);
            let c = counts.entry(s).or_insert(0);
            if *c == 0 {
                order.push(s);
            }
            *c += 1;
        }
    }
    let common = order.iter().copied().max_by_key(|s| counts[s]).unwrap_or_default();
    let mut codes: HashMap<Style, char> = HashMap::new();
    codes.insert(common, '.');
    let mut next = CODES.chars();
    for s in &order {
        if !codes.contains_key(s) {
            codes.insert(*s, next.next().unwrap_or('?'));
        }
    }
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        let mut text = String::new();
        let mut style_line = String::new();
        for x in area.left()..area.right() {
            let Some(cell) = buf.cell((x, y)) else { continue };
            if cell.symbol().is_empty() {
                continue;
            }
            text.push_str(cell.symbol());
            style_line.push(codes[&cell_style(buf, x, y)]);
        }
        let _ = writeln!(out, "{y:>2}|{}", text.trim_end());
        let style_trimmed = style_line.trim_end_matches('.');
        if !style_trimmed.is_empty() {
            let _ = writeln!(out, "  |{style_trimmed}");
        }
    }
    out.push_str("legend:\n");
    let mut legend: Vec<(char, Style)> = codes.iter().map(|(s, c)| (*c, *s)).collect();
    legend.sort_by_key(|(c, _)| if *c == '.' { ' ' } else { *c });
    for (c, s) in legend {
        let _ = writeln!(out, "  {c} {}", describe(s));
    }
    out
}
