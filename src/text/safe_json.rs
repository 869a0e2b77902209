//! JSON made safe for a terminal: every character a terminal could act on, or a reader could
//! not see, written as a `\\uXXXX` escape, so the document is still the same JSON value.

use super::is_unsafe_after;

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
    if super::first_unsafe(&json).is_none() {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    let mut prev = None;
    for c in json.chars() {
        if is_unsafe_after(prev, c) {
            out.push_str(&json_escape(c));
        } else {
            out.push(c);
        }
        prev = Some(c);
    }
    out
}

/// A writer that passes JSON through to `inner` with every character a terminal could act
/// on written as a `\uXXXX` escape, as [`terminal_safe_json`] does, without holding the
/// document in memory. A character split across two writes is carried to the next one.
pub struct TerminalSafeWriter<W: std::io::Write> {
    inner: W,
    carry: Vec<u8>,
    /// The last character written, which decides whether a presentation selector is shown.
    prev: Option<char>,
}

impl<W: std::io::Write> TerminalSafeWriter<W> {
    /// Wrap a writer.
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            carry: Vec::new(),
            prev: None,
        }
    }

    /// The wrapped writer (call `flush` first: a character split at the end is carried).
    pub fn into_inner(self) -> W {
        self.inner
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
                self.prev = Some(char::from(word[7]));
                continue;
            }
            let b = bytes[i];
            if (0x20..0x7f).contains(&b) || b == b'\n' || b == b'\t' {
                i += 1;
                self.prev = Some(char::from(b));
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
            let prev = std::mem::replace(&mut self.prev, c);
            match c {
                Some(c) if is_unsafe_after(prev, c) => {
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
}
