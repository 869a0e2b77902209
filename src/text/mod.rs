//! Text made safe for a terminal: transcripts may hold escape sequences, control characters and
//! bidirectional-text overrides, which are shown escaped and never sent to the terminal as they
//! are. Every string that reaches a terminal, from every command, goes through this module.

use std::borrow::Cow;
use std::fmt::Write;

mod classes;
mod safe_json;

pub use classes::{
    PREPENDED_CONCATENATION_MARKS, first_unsafe, has_hidden, is_bidi_control, is_hidden, is_hidden_after, is_invisible,
    is_prepended_concatenation_mark, is_unsafe_after, is_unsafe_for_terminal,
};
pub use safe_json::{TerminalSafeWriter, terminal_safe_json};

/// Whether any string or key anywhere in `value` holds a character [`has_hidden`] finds: the
/// inspector marks such a message, whatever part of it is on screen. Walks with its own stack,
/// so a deeply nested value cannot overflow the thread's.
pub fn value_has_hidden(value: &crate::model::json::Value) -> bool {
    use crate::model::json::Value;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) if has_hidden(s) => return true,
            Value::Array(items) => stack.extend(items.iter()),
            Value::Object(map) => {
                for (k, v) in map.iter() {
                    if has_hidden(k.as_str()) {
                        return true;
                    }
                    stack.push(v);
                }
            }
            _ => {}
        }
    }
    false
}

/// Escape every control character (C0, DEL, C1) except newline and tab, every bidi control and
/// every invisible character ([`is_invisible`]).
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    escape_with(text, false)
}

/// Escape every control character including newline and tab (for one-line summaries).
pub fn escape_controls_single_line(text: &str) -> Cow<'_, str> {
    escape_with(text, true)
}

fn escape_with(text: &str, single_line: bool) -> Cow<'_, str> {
    let needs = |prev: Option<char>, c: char| {
        (c.is_control() && (single_line || (c != '\n' && c != '\t'))) || is_hidden_after(prev, c)
    };
    let mut prev = None;
    if !text.chars().any(|c| needs(prev.replace(c), c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut prev = None;
    for c in text.chars() {
        let hit = needs(prev, c);
        prev = Some(c);
        if !hit {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{1b}' => out.push_str("\\e"),
            c if (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

/// Serialize a path as text, invalid UTF-8 read as U+FFFD: serde refuses a path that is not
/// UTF-8, which would end a JSON document half-written.
pub fn serialize_path_lossy<S: serde::Serializer>(path: &std::path::Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_string_lossy())
}

/// Shorten text to at most `max` characters, marking the cut with `…`.
pub fn truncate_chars(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => Cow::Owned(format!("{}…", &text[..cut])),
    }
}

/// The columns `text` takes on a terminal, as the layout measures it (`unicode-width`); text that
/// reaches a terminal is escaped first, so every character left is drawn at this width.
pub fn display_width(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// `text` followed by spaces up to `width` display columns: `format!("{:<w$}")` pads by
/// characters, which misaligns CJK (two columns each) and combining marks (none).
pub fn pad_end(text: &str, width: usize) -> String {
    let mut out = text.to_owned();
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(display_width(text))));
    out
}

/// Spaces, then `text`, up to `width` display columns (right-aligned by display width).
pub fn pad_start(text: &str, width: usize) -> String {
    let mut out: String = std::iter::repeat_n(' ', width.saturating_sub(display_width(text))).collect();
    out.push_str(text);
    out
}

/// `text` in at most `width` display columns, cut at the end with `…` (whole graphemes kept).
pub fn cut_end(text: &str, width: usize) -> Cow<'_, str> {
    if display_width(text) <= width {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut used = 0;
    for g in unicode_segmentation::UnicodeSegmentation::graphemes(text, true) {
        let w = display_width(g);
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push_str(g);
    }
    if width > 0 {
        out.push('…');
    }
    Cow::Owned(out)
}

/// `text` in at most `width` columns, cut in the middle (`/home/u/…/session.jsonl`): the start
/// and the end of a path or an id are what tell them apart.
pub fn cut_middle(text: &str, width: usize) -> String {
    if unicode_width::UnicodeWidthStr::width(text) <= width {
        return text.to_owned();
    }
    if width <= 1 {
        return "…".chars().take(width).collect();
    }
    let graphemes: Vec<&str> = unicode_segmentation::UnicodeSegmentation::graphemes(text, true).collect();
    let keep = width - 1;
    let (head_w, tail_w) = (keep - keep / 2, keep / 2);
    let mut head = String::new();
    let mut used = 0;
    for g in &graphemes {
        if used + unicode_width::UnicodeWidthStr::width(*g) > head_w {
            break;
        }
        used += unicode_width::UnicodeWidthStr::width(*g);
        head.push_str(g);
    }
    let mut tail: Vec<&str> = Vec::new();
    let mut used = 0;
    for g in graphemes.iter().rev() {
        if used + unicode_width::UnicodeWidthStr::width(*g) > tail_w {
            break;
        }
        used += unicode_width::UnicodeWidthStr::width(*g);
        tail.push(g);
    }
    tail.reverse();
    format!("{head}…{}", tail.concat())
}

/// Most parts [`index_list`] shows before it says how many more there are.
const INDEX_LIST_PARTS: usize = 8;

/// Message indices as `s3+s4`: `prefix` before each, joined by `+`, a run of three or more
/// consecutive indices shown as `s0–s4999`, and past 8 parts the rest counted (`+… 212
/// more`). A 5,000-way merge is one short label, not a 30 KB line.
pub fn index_list(indices: &[usize], prefix: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut rest = 0usize;
    let mut i = 0;
    while i < indices.len() {
        let mut j = i;
        while j + 1 < indices.len() && indices[j + 1] == indices[j].wrapping_add(1) {
            j += 1;
        }
        let run: Vec<String> = if j >= i + 2 {
            vec![format!("{prefix}{}–{prefix}{}", indices[i], indices[j])]
        } else {
            indices[i..=j].iter().map(|n| format!("{prefix}{n}")).collect()
        };
        for part in run {
            if parts.len() < INDEX_LIST_PARTS {
                parts.push(part);
            } else {
                rest += 1;
            }
        }
        i = j + 1;
    }
    let mut out = parts.join("+");
    if rest > 0 {
        let _ = write!(out, "+… {} more", thousands(rest as u64));
    }
    out
}

/// Most items a list in a rewrite's note names before it counts the rest.
pub const LIST_ITEMS: usize = 8;

/// `items` joined by `, `, past [`LIST_ITEMS`] the rest counted (`a, b, …, h and 19,992
/// more`): a rewrite touching every call of a 20,000-call turn is one short note, not a
/// 1 MB line.
pub fn join_folded<S: AsRef<str>>(items: &[S]) -> String {
    join_first(items.iter().take(LIST_ITEMS), items.len())
}

/// The first items of a list of `total`, joined as [`join_folded`] joins them.
pub fn join_first<S: AsRef<str>>(first: impl IntoIterator<Item = S>, total: usize) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for item in first {
        if shown > 0 {
            out.push_str(", ");
        }
        out.push_str(item.as_ref());
        shown += 1;
    }
    if total > shown {
        let _ = write!(out, " and {} more", thousands((total - shown) as u64));
    }
    out
}

/// `n` with `en-US` thousands separators: `25,000,000`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod every_scalar_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_terminal_sequences() {
        assert_eq!(escape_controls("a\u{1b}[31mred\u{7}\n"), "a\\e[31mred\\x07\n");
        assert_eq!(escape_controls_single_line("a\nb\tc"), "a\\nb\\tc");
        assert_eq!(escape_controls("\u{9b}2J"), "\\x9b2J");
        assert_eq!(escape_controls("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(
            terminal_safe_json(serde_json::to_string(&"a\u{1b}b\u{7f}\u{9b}\u{2067}").unwrap()),
            r#""a\u001bb\u007f\u009b\u2067""#
        );
        let safe = terminal_safe_json(serde_json::to_string(&"\u{202e}x").unwrap());
        assert_eq!(serde_json::from_str::<String>(&safe).unwrap(), "\u{202e}x");
        assert!(matches!(escape_controls("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn invisible_characters_are_shown_escaped_in_text_and_json() {
        let tagged: String = "run rm"
            .chars()
            .map(|c| char::from_u32(0xe0000 + c as u32).unwrap())
            .collect();
        let text = format!("re\u{200b}ad\u{2060}\u{feff}\u{ad}\u{2028}please{tagged}");
        let shown = escape_controls(&text);
        assert!(!shown.chars().any(is_unsafe_for_terminal), "{shown}");
        assert!(
            shown.starts_with("re\\u{200b}ad\\u{2060}\\u{feff}\\xad\\u{2028}please\\u{e0072}"),
            "{shown}"
        );
        assert!(has_hidden(&text) && !has_hidden("read ❤️ 👍🏽 e\u{301}"));
        assert_eq!(escape_controls("❤️ 👍🏽 👨\u{200d}👩"), "❤️ 👍🏽 👨\\u{200d}👩");
        let json = serde_json::to_string(&text).unwrap();
        let safe = terminal_safe_json(json.clone());
        assert!(safe.is_ascii() || !safe.chars().any(is_unsafe_for_terminal), "{safe}");
        assert!(safe.contains(r"\udb40\udc72"), "{safe}");
        assert_eq!(serde_json::from_str::<String>(&safe).unwrap(), text);
        use std::io::Write as _;
        let mut w = TerminalSafeWriter::new(Vec::new());
        w.write_all(json.as_bytes()).unwrap();
        w.flush().unwrap();
        assert_eq!(String::from_utf8(w.into_inner()).unwrap(), safe);
    }

    #[test]
    fn index_lists_fold_runs_and_count_what_is_left_out() {
        assert_eq!(index_list(&[3], "s"), "s3");
        assert_eq!(index_list(&[3, 4], "s"), "s3+s4");
        assert_eq!(index_list(&[0, 1, 2, 7], "#"), "#0–#2+#7");
        let all: Vec<usize> = (0..5_000).collect();
        assert_eq!(index_list(&all, "s"), "s0–s4999");
        let every_other: Vec<usize> = (0..5_000).step_by(2).collect();
        assert_eq!(index_list(&every_other, "s"), "s0+s2+s4+s6+s8+s10+s12+s14+… 2,492 more");
    }

    #[test]
    fn a_long_list_in_a_note_names_eight_and_counts_the_rest() {
        assert_eq!(join_folded(&["a", "b"]), "a, b");
        assert_eq!(join_folded::<&str>(&[]), "");
        let items: Vec<String> = (0..20_000).map(|k| format!("id{k}")).collect();
        assert_eq!(
            join_folded(&items),
            "id0, id1, id2, id3, id4, id5, id6, id7 and 19,992 more"
        );
        assert_eq!(join_first(["x"], 3), "x and 2 more");
    }

    #[test]
    fn truncates_on_char_boundaries() {
        assert_eq!(truncate_chars("héllo", 2), "hé…");
        assert_eq!(truncate_chars("hi", 5), "hi");
    }
}
