//! Text made safe for a terminal: transcripts may hold escape sequences, control characters and
//! bidirectional-text overrides, which are shown escaped and never sent to the terminal as they
//! are. Every string that reaches a terminal, from every command, goes through this module.

use std::borrow::Cow;
use std::fmt::Write;

/// Bidirectional-text controls (the "Trojan Source" characters): they reorder what a terminal
/// shows, so they are escaped like control characters.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Characters that show as nothing, or let text hide inside other text: zero-width spaces and
/// joiners, the word joiner and invisible operators, the byte-order mark, the soft hyphen, line
/// and paragraph separators, Hangul fillers, variation selectors (except the emoji and text
/// presentation selectors U+FE0E/U+FE0F), and the Unicode tag block (a message that displays as
/// "please summarise README" can carry a whole instruction spelt in tag characters). A tool
/// that shows what was sent escapes them, as it does control characters.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00ad}'
            | '\u{034f}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{17b4}'
            | '\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200d}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{2060}'..='\u{2065}'
            | '\u{206a}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0d}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// Characters every output shows escaped although they are not control characters: bidi
/// controls and invisible characters.
pub fn is_hidden(c: char) -> bool {
    is_bidi_control(c) || is_invisible(c)
}

/// Whether a terminal could act on `c`, or a reader could not see it (C0 except newline and
/// tab, DEL, C1, bidi controls, invisible characters).
pub fn is_unsafe_for_terminal(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_hidden(c)
}

/// Whether `text` holds a character that [`escape_controls`] shows escaped because a reader
/// could not see it (bidi controls and invisible characters; control characters aside).
pub fn has_hidden(text: &str) -> bool {
    !text.is_ascii() && text.chars().any(is_hidden)
}

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

/// `c` as a JSON string escape: `\uXXXX`, or a UTF-16 surrogate pair above U+FFFF.
fn json_escape(c: char) -> String {
    let mut units = [0u16; 2];
    c.encode_utf16(&mut units)
        .iter()
        .map(|u| format!("\\u{u:04x}"))
        .collect()
}

/// A JSON document with every character a terminal could act on written as a `\uXXXX` escape.
/// serde_json already escapes C0 inside strings; DEL, C1 and bidi controls it writes raw. Those
/// only occur inside strings (JSON's own syntax is ASCII), so the result is the same JSON value.
pub fn terminal_safe_json(json: String) -> String {
    if !json.chars().any(is_unsafe_for_terminal) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_unsafe_for_terminal(c) {
            out.push_str(&json_escape(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// A writer that passes JSON through to `inner` with every character a terminal could act
/// on written as a `\uXXXX` escape, as [`terminal_safe_json`] does, without holding the
/// document in memory. A character split across two writes is carried to the next one.
pub struct TerminalSafeWriter<W: std::io::Write> {
    inner: W,
    carry: Vec<u8>,
}

impl<W: std::io::Write> TerminalSafeWriter<W> {
    /// Wrap a writer.
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            carry: Vec::new(),
        }
    }

    /// Write out bytes that form whole characters (invalid UTF-8 is passed as it is).
    /// Printable ASCII, the bulk of any JSON, is skipped over eight bytes at a time; only
    /// other bytes are decoded and checked.
    fn write_chars(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let (mut start, mut i) = (0, 0);
        while i < bytes.len() {
            if let Some(word) = bytes.get(i..i + 8)
                && all_printable_ascii(word)
            {
                i += 8;
                continue;
            }
            let b = bytes[i];
            if (0x20..0x7f).contains(&b) || b == b'\n' || b == b'\t' {
                i += 1;
                continue;
            }
            let len = match b {
                0xf0.. => 4,
                0xe0.. => 3,
                0xc0.. => 2,
                _ => 1,
            };
            let c = bytes
                .get(i..i + len)
                .and_then(|s| std::str::from_utf8(s).ok())
                .and_then(|s| s.chars().next());
            match c {
                Some(c) if is_unsafe_for_terminal(c) => {
                    self.inner.write_all(&bytes[start..i])?;
                    self.inner.write_all(json_escape(c).as_bytes())?;
                    i += len;
                    start = i;
                }
                Some(_) => i += len,
                None => i += 1,
            }
        }
        self.inner.write_all(&bytes[start..])
    }
}

/// Whether all eight bytes are printable ASCII (0x20..0x7e), tested on the word at once.
fn all_printable_ascii(word: &[u8]) -> bool {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let Ok(bytes) = <[u8; 8]>::try_from(word) else {
        return false;
    };
    let x = u64::from_le_bytes(bytes);
    // A byte with its high bit set, below 0x20, or equal to 0x7f (which 0x01 more carries
    // into the high bit) makes the word fall back to the byte loop.
    let non_ascii = x & HIGH;
    let below_space = x.wrapping_sub(LOW * 0x20) & !x & HIGH;
    let del = x.wrapping_add(LOW) & HIGH;
    non_ascii | below_space | del == 0
}

impl<W: std::io::Write> std::io::Write for TerminalSafeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // Finish a character split by the previous write, then write whole characters
        // straight from `buf`, carrying an incomplete sequence at its end.
        let mut buf_start = 0;
        if !self.carry.is_empty() {
            let need = buf.len().min(4 - self.carry.len().min(4));
            let mut head = std::mem::take(&mut self.carry);
            head.extend_from_slice(&buf[..need]);
            let done = match std::str::from_utf8(&head) {
                Ok(_) => head.len(),
                Err(e) if e.error_len().is_none() && e.valid_up_to() == 0 => {
                    self.carry = head;
                    return Ok(buf.len());
                }
                Err(e) if e.error_len().is_none() => e.valid_up_to(),
                Err(_) => head.len(),
            };
            self.write_chars(&head[..done])?;
            // A completed character always covers the carried bytes.
            buf_start = done.saturating_sub(head.len() - need);
        }
        let rest = &buf[buf_start..];
        let complete = match std::str::from_utf8(rest) {
            Ok(_) => rest.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => rest.len(),
        };
        self.write_chars(&rest[..complete])?;
        self.carry.extend_from_slice(&rest[complete..]);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let rest = std::mem::take(&mut self.carry);
        self.inner.write_all(&rest)?;
        self.inner.flush()
    }
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
    let needs = |c: char| (c.is_control() && (single_line || (c != '\n' && c != '\t'))) || is_hidden(c);
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
mod tests {
    use super::*;

    #[test]
    fn the_word_test_agrees_with_the_byte_test_for_every_byte_in_every_place() {
        let printable = |b: u8| (0x20..0x7f).contains(&b);
        for place in 0..8 {
            for b in 0..=u8::MAX {
                for fill in [b'a', b' ', b'~', 0x1f, 0x7f, 0xff] {
                    let mut word = [b'x'; 8];
                    word[(place + 3) % 8] = fill;
                    word[place] = b;
                    assert_eq!(
                        all_printable_ascii(&word),
                        word.iter().all(|&c| printable(c)),
                        "{word:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn long_runs_with_controls_anywhere_are_escaped() {
        use std::io::Write as _;
        for at in 0..40 {
            let mut text = "0123456789abcdefghij0123456789abcdefghij".to_owned();
            text.replace_range(at..=at, "\u{1b}");
            let mut w = TerminalSafeWriter::new(Vec::new());
            w.write_all(text.as_bytes()).unwrap();
            w.flush().unwrap();
            let out = String::from_utf8(w.inner).unwrap();
            assert!(!out.contains('\u{1b}') && out.contains("\\u001b"), "{at}: {out}");
        }
    }

    #[test]
    fn the_streaming_writer_escapes_as_the_whole_document_does_even_across_split_writes() {
        use std::io::Write as _;
        let json = serde_json::to_string(&"a\u{1b}b\u{7f}\u{9b}\u{2067}é😀").unwrap();
        let whole = terminal_safe_json(json.clone());
        for split in 0..=json.len() {
            let mut w = TerminalSafeWriter::new(Vec::new());
            w.write_all(&json.as_bytes()[..split]).unwrap();
            w.write_all(&json.as_bytes()[split..]).unwrap();
            w.flush().unwrap();
            assert_eq!(String::from_utf8(w.inner).unwrap(), whole, "split at {split}");
        }
    }

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
        assert_eq!(String::from_utf8(w.inner).unwrap(), safe);
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
