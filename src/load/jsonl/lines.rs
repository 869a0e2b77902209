//! Splitting a JSONL stream into lines and parsing them: lines are read in order into
//! batches, each batch is parsed across cores (the pure part, and most of the work), and the
//! parsed lines are handed to the [`Builder`] in file order.

use std::io::{BufRead, Read};
use std::path::Path;

use crate::model::json::Value;
use rayon::prelude::*;

use super::Builder;
use crate::load::error::LoadError;
use crate::load::json_parse::{JsonError, parse_value};
use crate::load::limits::Limits;

/// One physical line, split off the stream.
pub(super) struct RawLine<'b> {
    pub(super) number: usize,
    pub(super) bytes: &'b [u8],
    pub(super) terminated: bool,
}

/// Lines are parsed in batches of about this many bytes, across cores.
pub(super) const BATCH_BYTES: usize = 4 << 20;

/// Lines are parsed in batches of at most this many lines.
pub(super) const BATCH_LINES: usize = 4096;

/// Feed every line of a stream to a builder.
/// A line longer than `limits.max_line_bytes` is an error (nothing that large is buffered).
///
/// Lines are read in order into a batch; the batch is parsed across cores (parsing is
/// pure and most of the work), then handed to the builder in order, so the session and its
/// diagnostics are exactly those of a line-by-line read.
pub(crate) fn read_lines(
    path: &Path,
    reader: impl BufRead,
    builder: &mut Builder<'_>,
    limits: &Limits,
) -> Result<(), LoadError> {
    read_lines_after(path, reader, builder, limits, 0).map(|_| ())
}

/// [`read_lines`] for a stream that continues a file whose first `before` lines were already
/// read: its lines are numbered from `before + 1`. Returns the number of the last line read
/// (`before` when the stream is empty).
pub(crate) fn read_lines_after(
    path: &Path,
    mut reader: impl BufRead,
    builder: &mut Builder<'_>,
    limits: &Limits,
    before: usize,
) -> Result<usize, LoadError> {
    let mut batch = Batch::default();
    let mut number = before;
    loop {
        let start = batch.bytes.len();
        let n = (&mut reader)
            .take(limits.max_line_bytes.saturating_add(1))
            .read_until(b'\n', &mut batch.bytes)
            .map_err(|e| crate::load::limits::read_error(path, e, limits))?;
        if n == 0 {
            break;
        }
        number += 1;
        if n as u64 > limits.max_line_bytes {
            return Err(LoadError::LineTooLong {
                path: path.to_owned(),
                line: number,
                limit_mib: limits.line_mib(),
            });
        }
        let terminated = batch.bytes.last() == Some(&b'\n');
        batch.lines.push((number, start..batch.bytes.len(), terminated));
        if batch.bytes.len() >= BATCH_BYTES || batch.lines.len() >= BATCH_LINES {
            batch.feed(builder)?;
        }
    }
    batch.feed(builder)?;
    Ok(number)
}

/// Lines read but not yet handed to the builder: their bytes, one after another, and each
/// line's number, byte range and whether it ended with a newline.
#[derive(Default)]
struct Batch {
    bytes: Vec<u8>,
    lines: Vec<(usize, std::ops::Range<usize>, bool)>,
}

impl Batch {
    /// Parse the batch across cores, hand the lines to the builder in order, and empty it.
    fn feed(&mut self, builder: &mut Builder<'_>) -> Result<(), LoadError> {
        let bytes = &self.bytes;
        let parse =
            |(number, range, _): &(usize, std::ops::Range<usize>, bool)| parse_line(*number, &bytes[range.clone()]);
        let parsed: Vec<ParsedLine> = if self.lines.len() > 1 {
            self.lines.par_iter().map(parse).collect()
        } else {
            self.lines.iter().map(parse).collect()
        };
        for ((number, range, terminated), line) in self.lines.iter().zip(parsed) {
            builder.push(
                RawLine {
                    number: *number,
                    bytes: &bytes[range.clone()],
                    terminated: *terminated,
                },
                line,
            )?;
        }
        self.bytes.clear();
        self.lines.clear();
        Ok(())
    }
}

/// One line, parsed off the builder (pure, so lines can be parsed in parallel).
pub(super) enum ParsedLine {
    /// Only whitespace.
    Blank,
    /// A JSON value; `lossy` when invalid UTF-8 was read as U+FFFD first, `surrogates` when
    /// lone UTF-16 surrogate escapes were.
    Value {
        value: Value,
        lossy: bool,
        surrogates: bool,
    },
    /// Not JSON.
    Invalid {
        error: JsonError,
        lossy: bool,
        has_cr: bool,
        len: usize,
    },
}

/// The JSON value of line `number` (its bytes as read, ending included), decoded and parsed
/// exactly as the loader reads it; `None` when it is blank or not JSON.
pub(crate) fn line_value(number: usize, line: &[u8]) -> Option<Value> {
    match parse_line(number, line) {
        ParsedLine::Value { value, .. } => Some(value),
        ParsedLine::Blank | ParsedLine::Invalid { .. } => None,
    }
}

/// Trim a line's ending (and a leading byte-order mark on line 1), decode it as OpenClaw
/// does and parse it.
fn parse_line(number: usize, line: &[u8]) -> ParsedLine {
    let mut bytes = line;
    while let Some((last, rest)) = bytes.split_last() {
        if *last == b'\n' || *last == b'\r' {
            bytes = rest;
        } else {
            break;
        }
    }
    // OpenClaw reads the file as UTF-8 text and trims it before splitting lines, so a
    // byte-order mark before the first line is ignored.
    if number == 1 {
        bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return ParsedLine::Blank;
    }
    // Invalid UTF-8 is decoded with U+FFFD, as Node's `readFile(…, "utf8")` does.
    let lossy_text;
    let lossy = std::str::from_utf8(bytes).is_err();
    if lossy {
        lossy_text = String::from_utf8_lossy(bytes).into_owned();
        bytes = lossy_text.as_bytes();
    }
    let parsed = parse_value(bytes);
    // `JSON.parse` accepts a lone surrogate escape (`"\ud800"`); a Rust string cannot hold
    // one. Rather than skip the line (and cut the branch there), read each as U+FFFD.
    if parsed.is_err()
        && let Some(fixed) = lone_surrogates_replaced(bytes)
        && let Ok(value) = parse_value(&fixed)
    {
        return ParsedLine::Value {
            value,
            lossy,
            surrogates: true,
        };
    }
    match parsed {
        Ok(value) => ParsedLine::Value {
            value,
            lossy,
            surrogates: false,
        },
        Err(error) => ParsedLine::Invalid {
            error,
            lossy,
            has_cr: bytes.contains(&b'\r'),
            len: bytes.len(),
        },
    }
}

/// `bytes` with every `\uXXXX` escape of a lone UTF-16 surrogate (a high one not followed by
/// a low one, or a low one on its own) replaced by `\ufffd`; `None` when there is none.
pub(crate) fn lone_surrogates_replaced(bytes: &[u8]) -> Option<Vec<u8>> {
    let unit = |at: usize| -> Option<u16> {
        let hex = bytes.get(at..at + 6)?;
        if hex[0] != b'\\' || hex[1] != b'u' {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(&hex[2..]).ok()?, 16).ok()
    };
    let mut out: Option<Vec<u8>> = None;
    let (mut i, mut copied) = (0, 0);
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(u) = unit(i) else {
            i += 2;
            continue;
        };
        let high = (0xd800..0xdc00).contains(&u);
        let low = (0xdc00..0xe000).contains(&u);
        if high && unit(i + 6).is_some_and(|next| (0xdc00..0xe000).contains(&next)) {
            i += 12;
            continue;
        }
        if high || low {
            let o = out.get_or_insert_with(Vec::new);
            o.extend_from_slice(&bytes[copied..i]);
            o.extend_from_slice(b"\\ufffd");
            copied = i + 6;
        }
        i += 6;
    }
    let mut o = out?;
    o.extend_from_slice(&bytes[copied..]);
    Some(o)
}

#[cfg(test)]
mod surrogate_tests {
    use super::*;

    #[test]
    fn lone_surrogates_become_replacement_characters_and_pairs_stay() {
        let line = br#"{"a":"x\ud800y","b":"\udc00","c":"\ud83d\ude00","d":"\\ud800","e":"\ud800\u0041"}"#;
        let fixed = lone_surrogates_replaced(line).unwrap();
        assert_eq!(
            std::str::from_utf8(&fixed).unwrap(),
            r#"{"a":"x\ufffdy","b":"\ufffd","c":"\ud83d\ude00","d":"\\ud800","e":"\ufffd\u0041"}"#
        );
        assert!(lone_surrogates_replaced(br#"{"c":"\ud83d\ude00","d":"\\ud800"}"#).is_none());
        match parse_line(2, line) {
            ParsedLine::Value { value, surrogates, .. } => {
                assert!(surrogates);
                assert_eq!(value["a"].as_str(), Some("x\u{fffd}y"));
                assert_eq!(value["c"].as_str(), Some("😀"));
                assert_eq!(value["d"].as_str(), Some("\\ud800"));
            }
            _ => panic!("the line is read"),
        }
    }
}
