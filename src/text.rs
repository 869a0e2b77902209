//! Text made safe for a terminal: transcripts may hold escape sequences and control
//! characters, which are shown escaped and never sent to the terminal as they are.

use std::borrow::Cow;
use std::fmt::Write;

/// Escape every control character (C0, DEL, C1) except newline and tab.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    escape_with(text, false)
}

/// Escape every control character including newline and tab (for one-line summaries).
pub fn escape_controls_single_line(text: &str) -> Cow<'_, str> {
    escape_with(text, true)
}

fn escape_with(text: &str, single_line: bool) -> Cow<'_, str> {
    let needs = |c: char| c.is_control() && (single_line || (c != '\n' && c != '\t'));
    if !text.chars().any(needs) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !needs(c) {
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

/// Shorten text to at most `max` characters, marking the cut with `…`.
pub fn truncate_chars(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => Cow::Owned(format!("{}…", &text[..cut])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_terminal_sequences() {
        assert_eq!(escape_controls("a\u{1b}[31mred\u{7}\n"), "a\\e[31mred\\x07\n");
        assert_eq!(escape_controls_single_line("a\nb\tc"), "a\\nb\\tc");
        assert_eq!(escape_controls("\u{9b}2J"), "\\x9b2J");
        assert!(matches!(escape_controls("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn truncates_on_char_boundaries() {
        assert_eq!(truncate_chars("héllo", 2), "hé…");
        assert_eq!(truncate_chars("hi", 5), "hi");
    }
}
