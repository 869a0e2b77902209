//! Values as text for the JSON diff: JSON escaping, elision in the middle with the length
//! left out, and the word-level pieces of a changed string.

use crate::model::json::Value;
use similar::{ChangeTag, TextDiff};

use super::{MIN_ELIDED, Mark, Options, Piece, WORD_DIFF_MAX_BYTES};

/// A JSON string's escaped body (no quotes).
fn escaped(s: &str) -> String {
    let quoted = serde_json::to_string(s).unwrap_or_default();
    quoted[1..quoted.len() - 1].to_owned()
}

/// Byte offset of the `n`th character (or the end).
fn char_offset(s: &str, n: usize) -> usize {
    s.char_indices().nth(n).map_or(s.len(), |(i, _)| i)
}

/// A raw text as a piece, keeping `head` and `tail` characters around an elided middle.
fn elide(mark: Mark, text: &str, head: usize, tail: usize) -> Piece {
    let chars = text.chars().count();
    // Eliding a few characters saves less than the note costs in reading.
    if chars <= head + tail + MIN_ELIDED {
        return Piece {
            mark,
            head: escaped(text),
            elided: 0,
            tail: String::new(),
        };
    }
    let h = char_offset(text, head);
    let t = char_offset(text, chars - tail);
    Piece {
        mark,
        head: escaped(&text[..h]),
        elided: chars - head - tail,
        tail: escaped(&text[t..]),
    }
}

/// A whole value in compact JSON, elided in the middle when longer than `width`.
pub(super) fn whole(v: &Value, width: usize) -> Piece {
    let width = width.max(24);
    if let Value::String(s) = v {
        let mut p = elide(Mark::Same, s, width - 24, 16);
        p.head.insert(0, '"');
        if p.elided > 0 {
            p.tail.push('"');
        } else {
            p.head.push('"');
        }
        return p;
    }
    let text = serde_json::to_string(v).unwrap_or_default();
    let chars = text.chars().count();
    if chars <= width + MIN_ELIDED {
        return Piece::same(text);
    }
    let (head, tail) = (width - 20, 12);
    let h = char_offset(&text, head);
    let t = char_offset(&text, chars - tail);
    Piece {
        mark: Mark::Same,
        head: text[..h].to_owned(),
        elided: chars - head - tail,
        tail: text[t..].to_owned(),
    }
}

/// The pieces of both sides of a changed string: the shared prefix and suffix trimmed to
/// `around` characters, the words in between marked (or the whole middle, when long).
pub(super) fn word_pieces(a: &str, b: &str, options: &Options) -> (Vec<Piece>, Vec<Piece>) {
    let (pre, suf) = common_ends(a, b);
    let (ma, mb) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    let mut runs: Vec<(ChangeTag, String)> = Vec::new();
    if ma.len() + mb.len() <= WORD_DIFF_MAX_BYTES {
        for change in TextDiff::from_words(ma, mb).iter_all_changes() {
            match runs.last_mut() {
                Some((tag, text)) if *tag == change.tag() => text.push_str(change.value()),
                _ => runs.push((change.tag(), change.value().to_owned())),
            }
        }
    } else {
        runs.push((ChangeTag::Delete, ma.to_owned()));
        runs.push((ChangeTag::Insert, mb.to_owned()));
    }
    let whole_change = pre == 0 && suf == 0 && runs.iter().all(|(t, _)| *t != ChangeTag::Equal);
    let around = options.around;
    let side = |keep: ChangeTag| -> Vec<Piece> {
        let mut out = vec![Piece::same("\"")];
        if pre > 0 {
            out.push(elide(Mark::Same, &a[..pre], 0, around));
        }
        for (tag, text) in &runs {
            let piece = match *tag {
                ChangeTag::Equal => elide(Mark::Same, text, around, around),
                t if t != keep => continue,
                // A whole string replaced needs no word marks.
                _ if whole_change => elide(Mark::Same, text, options.width.saturating_sub(40).max(20), 16),
                ChangeTag::Delete => elide(Mark::Removed, text, options.width / 2, 16),
                ChangeTag::Insert => elide(Mark::Added, text, options.width / 2, 16),
            };
            out.push(piece);
        }
        if suf > 0 {
            out.push(elide(Mark::Same, &a[a.len() - suf..], around, 0));
        }
        out.push(Piece::same("\""));
        merge_same(out)
    };
    (side(ChangeTag::Delete), side(ChangeTag::Insert))
}

/// Join adjacent unelided `Same` pieces.
fn merge_same(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::with_capacity(pieces.len());
    for p in pieces {
        match out.last_mut() {
            Some(last) if last.mark == Mark::Same && p.mark == Mark::Same && last.elided == 0 => {
                last.head.push_str(&p.head);
                last.elided = p.elided;
                last.tail = p.tail;
            }
            Some(last) if last.mark == Mark::Same && p.mark == Mark::Same && p.elided == 0 => {
                last.tail.push_str(&p.head);
            }
            _ => out.push(p),
        }
    }
    out
}

/// Byte lengths of the common prefix and suffix of two strings, moved to word boundaries
/// (so the changed words are whole) when one is near, never overlapping.
fn common_ends(a: &str, b: &str) -> (usize, usize) {
    let first_diff = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i);
    let pre = back_to_word_start(a, first_diff);
    let max_suf = (a.len() - pre).min(b.len() - pre);
    let mut suf = a
        .bytes()
        .rev()
        .zip(b.bytes().rev())
        .take(max_suf)
        .take_while(|(x, y)| x == y)
        .count();
    // The suffix bytes are the same on both sides: a boundary in `a` is one in `b`.
    while suf > 0 && !a.is_char_boundary(a.len() - suf) {
        suf -= 1;
    }
    (pre, a.len() - forward_to_word_end(a, a.len() - suf))
}

/// Move a cut back to the start of the word it falls in (at most 64 characters back).
fn back_to_word_start(s: &str, at: usize) -> usize {
    if at == 0 || at >= s.len() || s[..at].ends_with(char::is_whitespace) {
        return at;
    }
    let before = &s[..at];
    before
        .char_indices()
        .rev()
        .take(64)
        .find(|(_, c)| c.is_whitespace())
        .map_or(if before.chars().count() <= 64 { 0 } else { at }, |(i, c)| {
            i + c.len_utf8()
        })
}

/// Move a cut forward to the end of the word it falls in (at most 64 characters on).
fn forward_to_word_end(s: &str, at: usize) -> usize {
    let after = &s[at..];
    if at == s.len() || after.starts_with(char::is_whitespace) || s[..at].ends_with(char::is_whitespace) {
        return at;
    }
    after
        .char_indices()
        .take(64)
        .find(|(_, c)| c.is_whitespace())
        .map_or(if after.chars().count() <= 64 { s.len() } else { at }, |(i, _)| at + i)
}
