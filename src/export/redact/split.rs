//! Secrets split over two text blocks (issue 45 finding 11): a message whose content holds
//! `…export TOKEN=ghp_AbC` and then `dEf…` shows one secret to whoever reads the blocks in turn,
//! though neither block holds all of it. Each boundary between two adjacent text blocks is read
//! as one text (the end of the first block, then the start of the next); a secret found across
//! it, or found in the second block only thanks to the context the first gave (`password=` at
//! the end of one, the value at the start of the next), is replaced in both blocks. An argument
//! vector is read the same way, its strings joined by spaces.

use crate::model::json::{Array, Value};

use super::{LONG_TOKEN, PATTERNS, Redactor, catalogue, looks_random, merged};

/// How many bytes on each side of a boundary are read together.
const WINDOW: usize = 512;

/// One replacement in a block's text: a byte range and the secret it belongs to.
type Edit = (usize, usize, String);

/// Where a part of a split secret sits in its block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// At the start (the rest of a secret the previous block began).
    Start,
    /// At the end (the beginning of a secret the next block ends).
    End,
    /// Anywhere (a value the previous block's context names).
    Within,
}

/// A part of a split secret: its block, where it sits, its text and the whole secret.
#[derive(Debug)]
pub(super) struct Part {
    block: usize,
    place: Place,
    text: String,
    secret: String,
}

/// The parts of the secrets split over adjacent text blocks of `blocks`, found on the text as
/// stored. They are replaced once every string of the message has been redacted
/// ([`Redactor::redact_parts`]), so that no rule loses the context it needs to a placeholder.
pub(super) fn split_parts(blocks: &Array) -> Vec<Part> {
    let texts: Vec<Option<&str>> = blocks.iter().map(block_text).collect();
    let mut parts = Vec::new();
    for (i, pair) in texts.windows(2).enumerate() {
        let [Some(a), Some(b)] = pair else {
            continue;
        };
        let a_from = floor_boundary(a, a.len().saturating_sub(WINDOW));
        let b_to = floor_boundary(b, WINDOW.min(b.len()));
        let joined = format!("{}{}", &a[a_from..], &b[..b_to]);
        let k = a.len() - a_from;
        let alone = spans(&b[..b_to]);
        for (s, e) in spans(&joined) {
            let secret = joined[s..e].to_owned();
            if s < k && e > k {
                parts.push(Part {
                    block: i,
                    place: Place::End,
                    text: joined[s..k].to_owned(),
                    secret: secret.clone(),
                });
                parts.push(Part {
                    block: i + 1,
                    place: Place::Start,
                    text: joined[k..e].to_owned(),
                    secret,
                });
            } else if s >= k && !alone.iter().any(|&(bs, be)| bs <= s - k && e - k <= be) {
                parts.push(Part {
                    block: i + 1,
                    place: Place::Within,
                    text: joined[s..e].to_owned(),
                    secret,
                });
            }
        }
    }
    parts
}

impl Redactor {
    /// Replace the parts [`split_parts`] found, in the blocks as redacted (a part a rule already
    /// replaced is left as it is).
    pub(super) fn redact_parts(&mut self, blocks: &mut Array, parts: Vec<Part>) {
        for part in parts {
            let Some(Value::Object(obj)) = blocks.get_mut(part.block) else {
                continue;
            };
            let Some(text) = obj.get("text").and_then(Value::as_str) else {
                continue;
            };
            let at = match part.place {
                Place::Start => text.starts_with(&part.text).then_some(0),
                Place::End => text.ends_with(&part.text).then(|| text.len() - part.text.len()),
                Place::Within => text.find(&part.text),
            };
            let Some(at) = at else {
                continue;
            };
            let placeholder = self.placeholder("secret", &part.secret);
            let redacted = format!("{}{placeholder}{}", &text[..at], &text[at + part.text.len()..]);
            obj.insert("text".into(), Value::String(redacted.into()));
        }
    }

    /// Redact the secrets an argument vector spells over several of its strings
    /// (`["mysql", "-uroot", "-pS3cret", "app"]`, a Codex `local_shell_call`): the strings are read
    /// joined by spaces, as a shell would run them.
    pub(super) fn argv_secrets(&mut self, items: &mut Array) {
        if !(2..=64).contains(&items.len()) || !items.iter().all(|i| matches!(i, Value::String(_))) {
            return;
        }
        let args: Vec<String> = items.iter().filter_map(Value::as_str).map(str::to_owned).collect();
        let joined = args.join(" ");
        if joined.len() > 8192 {
            return;
        }
        let found = spans(&joined);
        if found.is_empty() {
            return;
        }
        let mut start = 0;
        for (item, arg) in items.iter_mut().zip(&args) {
            let end = start + arg.len();
            let edits: Vec<Edit> = found
                .iter()
                .filter(|&&(s, e)| s < end && e > start)
                .map(|&(s, e)| (s.max(start) - start, e.min(end) - start, joined[s..e].to_owned()))
                .collect();
            if !edits.is_empty() {
                *item = Value::String(self.apply(arg, edits).into());
            }
            start = end + 1;
        }
    }

    /// `text` with each edit's range replaced by its secret's placeholder (overlapping ranges
    /// merged, the first secret naming them).
    fn apply(&mut self, text: &str, mut edits: Vec<Edit>) -> String {
        edits.sort_by_key(|e| (e.0, e.1));
        let ranges = merged(edits.iter().map(|e| (e.0, e.1)).collect());
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (start, end) in ranges {
            let secret = edits
                .iter()
                .find(|e| e.0 == start)
                .map_or("", |e| e.2.as_str())
                .to_owned();
            out.push_str(&text[last..start]);
            out.push_str(&self.placeholder("secret", &secret));
            last = end;
        }
        out.push_str(&text[last..]);
        out
    }
}

/// The text of a text block (`text`, `input_text`, `output_text`).
fn block_text(block: &Value) -> Option<&str> {
    let kind = block.get("type")?.as_str()?;
    matches!(kind, "text" | "input_text" | "output_text")
        .then(|| block.get("text")?.as_str())
        .flatten()
}

/// The largest char boundary of `s` at or below `i`.
fn floor_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Every secret's byte range in `text`, by every secret rule, the catalogue and the entropy
/// check (merged).
fn spans(text: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for p in PATTERNS.iter().filter(|p| p.kind == "secret") {
        for caps in p.re.captures_iter(text) {
            if let Some(m) = caps.get(p.group) {
                found.push((m.start(), m.end()));
            }
        }
    }
    catalogue::CATALOGUE.find(text, &mut found);
    found.extend(
        LONG_TOKEN
            .find_iter(text)
            .filter(|m| looks_random(m.as_str()))
            .map(|m| (m.start(), m.end())),
    );
    merged(found)
}
