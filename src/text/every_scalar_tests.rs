//! Issue 45 finding 13: every Unicode scalar value is either escaped or drawn at the width the
//! layout assumes, in every escaping function (plain text, one-line text, JSON whole and
//! streamed), and the classes come from Unicode properties.

use std::io::Write as _;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::*;

/// Every scalar value, surrogates skipped.
fn scalars() -> impl Iterator<Item = char> {
    (0..=0x10ffff_u32).filter_map(char::from_u32)
}

/// `shown` (what an escaping function made of `before` + `c` + `b`) either keeps `c` raw, and
/// then `c` is safe there and the whole takes the columns of its parts, or holds only ASCII.
fn check_drawn_or_escaped(before: &str, c: char, shown: &str, what: &str) {
    let prev = before.chars().last();
    if shown.contains(c) && !c.is_ascii() {
        assert!(!is_unsafe_after(prev, c), "{what}: U+{:04X} kept raw", c as u32);
        // A presentation selector kept after an emoji makes one grapheme with it, measured as
        // one (two columns for U+FE0F, the emoji presentation); every other character adds
        // its own width.
        let parts = match c {
            '\u{fe0e}' | '\u{fe0f}' => format!("{before}{c}").width() + 1,
            c => before.width() + c.width().unwrap_or(0) + 1,
        };
        assert_eq!(
            shown.width(),
            parts,
            "{what}: U+{:04X} drawn at another width",
            c as u32
        );
    } else if !c.is_ascii() {
        let ascii_tail = shown.strip_prefix(before).unwrap_or(shown);
        assert!(ascii_tail.is_ascii(), "{what}: U+{:04X} shown as {shown:?}", c as u32);
        assert_eq!(ascii_tail.width(), ascii_tail.len(), "{what}: U+{:04X}", c as u32);
    }
}

#[test]
fn every_scalar_is_escaped_or_drawn_at_its_width_in_text() {
    for before in ["a", "❤"] {
        for c in scalars() {
            let text = format!("{before}{c}b");
            check_drawn_or_escaped(before, c, &escape_controls(&text), "escape_controls");
            check_drawn_or_escaped(before, c, &escape_controls_single_line(&text), "single line");
            if c.is_control() && c != '\n' && c != '\t' {
                assert!(escape_controls(&text).is_ascii() || !escape_controls(&text).contains(c));
            }
        }
    }
}

#[test]
fn every_scalar_is_escaped_or_kept_in_json_whole_and_streamed_and_the_value_is_the_same() {
    let all: String = scalars().flat_map(|c| ['a', c]).collect();
    let json = serde_json::to_string(&all).unwrap();
    let whole = terminal_safe_json(json.clone());
    assert_eq!(first_unsafe(&whole), None);
    assert_eq!(serde_json::from_str::<String>(&whole).unwrap(), all);
    let mut w = TerminalSafeWriter::new(Vec::new());
    for chunk in json.as_bytes().chunks(4093) {
        w.write_all(chunk).unwrap();
    }
    w.flush().unwrap();
    let streamed = String::from_utf8(w.into_inner()).unwrap();
    assert_eq!(streamed, whole);
}

#[test]
fn the_classes_follow_the_general_category() {
    let mut counts = [0usize; 2];
    for c in scalars() {
        let category = c.general_category();
        let derived = matches!(
            category,
            GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
                | GeneralCategory::PrivateUse
                | GeneralCategory::Unassigned
        );
        if derived {
            assert!(is_hidden(c), "U+{:04X} ({category:?}) is not escaped", c as u32);
        }
        if is_prepended_concatenation_mark(c) {
            assert!(
                is_hidden(c) && category == GeneralCategory::Format,
                "U+{:04X}",
                c as u32
            );
        }
        counts[usize::from(is_hidden(c))] += 1;
    }
    // Cf, Zl, Zp, Co and Cn of Unicode 18.0, and the few default-ignorables outside Cf.
    assert!(counts[1] > 939_000, "{counts:?}");
}

#[test]
fn every_character_that_joins_a_neighbour_at_another_width_is_escaped() {
    use unicode_segmentation::UnicodeSegmentation;
    for c in scalars().filter(|c| !c.is_control()) {
        let prepends = format!("{c}a").graphemes(true).count() == 1;
        let wide_extend =
            format!("a{c}").graphemes(true).count() == 1 && format!("a{c}").width() != 1 + c.width().unwrap_or(0);
        if prepends || wide_extend {
            assert!(is_hidden(c), "U+{:04X} joins a neighbour and is not escaped", c as u32);
        }
    }
}

#[test]
fn the_code_points_the_fourth_hostile_pass_found_raw_are_escaped() {
    let found = [
        0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6dd, 0x70f, 0x890, 0x891, 0x8e2, 0x2800, 0xfff0, 0xfff8, 0x110bd,
        0x110cd, 0x13430, 0x13438,
    ];
    for u in found {
        let c = char::from_u32(u).unwrap();
        let shown = escape_controls(&format!("x{c}1")).into_owned();
        assert_eq!(shown, format!("x\\u{{{u:x}}}1"), "U+{u:04X}");
    }
    assert_eq!(escape_controls("a\u{fe0f}"), "a\\u{fe0f}");
    assert_eq!(escape_controls("x\u{fe0e}"), "x\\u{fe0e}");
    assert_eq!(escape_controls("\u{fe0f}"), "\\u{fe0f}");
    assert_eq!(
        escape_controls("❤\u{fe0f} ☺\u{fe0e} 1\u{fe0f}\u{20e3}"),
        "❤\u{fe0f} ☺\u{fe0e} 1\u{fe0f}\u{20e3}"
    );
    assert_eq!(
        terminal_safe_json(serde_json::to_string("a\u{fe0f}❤\u{fe0f}").unwrap()),
        "\"a\\ufe0f❤\u{fe0f}\""
    );
}

#[test]
fn padding_and_cutting_count_display_columns() {
    assert_eq!(pad_end("日本", 6), "日本  ");
    assert_eq!(pad_start("e\u{301}", 3), "  e\u{301}");
    assert_eq!(display_width(&pad_end("會話", 10)), 10);
    assert_eq!(cut_end("日本語のセッション", 7), "日本語…");
    assert_eq!(display_width(&cut_end("日本語のセッション", 8)), 7);
    assert_eq!(cut_end("short", 8), "short");
}
