//! A structural diff of two JSON messages for reports: only the changed paths, with a few
//! unchanged sibling lines of context, long values elided in the middle with their length,
//! and word-level marks inside changed strings.
//!
//! A line reads `- content[0].text: "…"`: a sign (` ` context, `-` stored side, `+` replay
//! side), the path from the message root, and the value in JSON notation. Inside a changed
//! string the words that differ are marked; renderers choose the notation (Markdown uses
//! `[-removed-]` and `{+added+}`, see [`Line::to_text`]).

use std::fmt::Write;

pub mod row;
mod text;

use crate::model::json::{Key, Map, Value};
use similar::{Algorithm, DiffOp, capture_diff_slices};

use text::{whole, word_pieces};

/// Which side a line shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    /// Unchanged, shown for context.
    Context,
    /// The stored value (removed or replaced).
    Removed,
    /// The replay value (added or replacing).
    Added,
    /// A run of unchanged lines left out (only with [`Options::folds`]); the line's value
    /// says how many.
    Folded,
}

impl Sign {
    /// The diff prefix: ` `, `-` or `+`.
    pub fn prefix(self) -> char {
        match self {
            Self::Context => ' ',
            Self::Removed => '-',
            Self::Added => '+',
            Self::Folded => '⋯',
        }
    }
}

/// What part of a changed string a piece is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// Text both sides share (or a whole value).
    Same,
    /// Words only the stored side has.
    Removed,
    /// Words only the replay side has.
    Added,
}

/// A piece of a rendered value, in JSON notation, possibly elided in the middle:
/// `head … N chars … tail`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// What the piece is.
    pub mark: Mark,
    /// The text (all of it when nothing is elided).
    pub head: String,
    /// Characters of the original left out between `head` and `tail` (0: none).
    pub elided: usize,
    /// The text after the elision.
    pub tail: String,
}

impl Piece {
    fn same(text: impl Into<String>) -> Self {
        Self {
            mark: Mark::Same,
            head: text.into(),
            elided: 0,
            tail: String::new(),
        }
    }
}

/// One line of a diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Context, stored side or replay side.
    pub sign: Sign,
    /// The path from the message root (`content[0].text`; `$` for the root itself).
    pub path: String,
    /// The value, in pieces.
    pub value: Vec<Piece>,
}

impl Line {
    /// The line as plain text: `- path: value`, elisions as `… 4,112 chars …`, changed words
    /// as `[-removed-]` and `{+added+}`.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        out.push(self.sign.prefix());
        out.push(' ');
        if self.sign == Sign::Folded {
            self.value.iter().for_each(|p| out.push_str(&p.head));
            return out;
        }
        out.push_str(if self.path.is_empty() { "$" } else { &self.path });
        out.push_str(": ");
        for p in &self.value {
            let (open, close) = match p.mark {
                Mark::Same => ("", ""),
                Mark::Removed => ("[-", "-]"),
                Mark::Added => ("{+", "+}"),
            };
            out.push_str(open);
            out.push_str(&p.head);
            if p.elided > 0 {
                let _ = write!(out, "… {} chars …", thousands(p.elided));
                out.push_str(&p.tail);
            }
            out.push_str(close);
        }
        out
    }
}

/// How much to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Unchanged lines kept around each change.
    pub context: usize,
    /// Longest value shown whole, in characters; longer ones are elided in the middle.
    pub width: usize,
    /// Characters of unchanged text kept on each side of a change inside a string.
    pub around: usize,
    /// Whether a run of unchanged lines left out is marked by a [`Sign::Folded`] line
    /// (`⋯ 4 unchanged`), as the inspector shows it; reports leave runs out silently.
    pub folds: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            context: 2,
            width: 120,
            around: 40,
            folds: false,
        }
    }
}

/// Fewest characters an elision leaves out.
const MIN_ELIDED: usize = 40;

/// Middles of changed strings longer than this (in bytes) are not diffed word by word.
const WORD_DIFF_MAX_BYTES: usize = 16 * 1024;

/// The changed paths between two values, with `options.context` unchanged lines around each.
pub fn diff(old: &Value, new: &Value, options: &Options) -> Vec<Line> {
    let mut d = Differ {
        options,
        lines: Vec::new(),
    };
    match (old, new) {
        // The root is never replaced as a whole, however much differs.
        (Value::Object(a), Value::Object(b)) => d.object("", a, b),
        _ => d.value("", old, new),
    }
    with_context(d.lines, options.context, options.folds)
}

/// A whole value as lines of one sign: one line per top-level key of an object (the value
/// itself for anything else), each elided to `options.width`.
pub fn listing(value: &Value, sign: Sign, options: &Options) -> Vec<Line> {
    listing_except(value, None, sign, options)
}

/// Like [`listing`], leaving out the top-level keys whose value `except` has too.
pub fn listing_except(value: &Value, except: Option<&Value>, sign: Sign, options: &Options) -> Vec<Line> {
    match value {
        Value::Object(map) => map
            .iter()
            .filter(|(k, v)| except.and_then(|e| e.get(k.as_str())) != Some(*v))
            .map(|(k, v)| Line {
                sign,
                path: key_path("", k),
                value: vec![whole(v, options.width)],
            })
            .collect(),
        v => vec![Line {
            sign,
            path: String::new(),
            value: vec![whole(v, options.width)],
        }],
    }
}

/// `n` with thousands separators: `4,112`.
pub fn thousands(n: usize) -> String {
    crate::text::thousands(n as u64)
}

struct Differ<'o> {
    options: &'o Options,
    lines: Vec<Line>,
}

impl Differ<'_> {
    fn push(&mut self, sign: Sign, path: &str, v: &Value) {
        let width = if sign == Sign::Context {
            self.options.width.min(80)
        } else {
            self.options.width
        };
        self.lines.push(Line {
            sign,
            path: path.to_owned(),
            value: vec![whole(v, width)],
        });
    }

    fn value(&mut self, path: &str, old: &Value, new: &Value) {
        if old == new {
            self.push(Sign::Context, path, new);
            return;
        }
        match (old, new) {
            (Value::Object(a), Value::Object(b)) if !mostly_different(a, b) => self.object(path, a, b),
            (Value::Array(a), Value::Array(b)) => self.array(path, a, b),
            (Value::String(a), Value::String(b)) => self.string(path, a, b),
            _ => {
                self.push(Sign::Removed, path, old);
                self.push(Sign::Added, path, new);
            }
        }
    }

    fn object(&mut self, path: &str, a: &Map, b: &Map) {
        let old_keys: Vec<&str> = a.keys().map(Key::as_str).collect();
        let new_keys: Vec<&str> = b.keys().map(Key::as_str).collect();
        let (a, b) = (a.lookup(), b.lookup());
        for op in capture_diff_slices(Algorithm::Myers, &old_keys, &new_keys) {
            let (removed, added) = match op {
                DiffOp::Equal { old_index, len, .. } => {
                    for k in &old_keys[old_index..old_index + len] {
                        if let (Some(old), Some(new)) = (a.get(k), b.get(k)) {
                            self.value(&key_path(path, k), old, new);
                        }
                    }
                    continue;
                }
                DiffOp::Delete { old_index, old_len, .. } => (old_index..old_index + old_len, 0..0),
                DiffOp::Insert { new_index, new_len, .. } => (0..0, new_index..new_index + new_len),
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => (old_index..old_index + old_len, new_index..new_index + new_len),
            };
            // A key that moved within the object is compared where it used to be.
            for k in &old_keys[removed] {
                let Some(old) = a.get(k) else { continue };
                match b.get(k) {
                    Some(nv) => self.value(&key_path(path, k), old, nv),
                    None => self.push(Sign::Removed, &key_path(path, k), old),
                }
            }
            for k in &new_keys[added] {
                if !a.contains_key(k)
                    && let Some(new) = b.get(k)
                {
                    self.push(Sign::Added, &key_path(path, k), new);
                }
            }
        }
    }

    fn array(&mut self, path: &str, a: &[Value], b: &[Value]) {
        let old_keys: Vec<String> = a.iter().map(|v| serde_json::to_string(v).unwrap_or_default()).collect();
        let new_keys: Vec<String> = b.iter().map(|v| serde_json::to_string(v).unwrap_or_default()).collect();
        for op in capture_diff_slices(Algorithm::Myers, &old_keys, &new_keys) {
            match op {
                DiffOp::Equal {
                    old_index,
                    new_index,
                    len,
                } => {
                    for k in 0..len {
                        self.push(
                            Sign::Context,
                            &index_path(path, old_index + k, new_index + k),
                            &b[new_index + k],
                        );
                    }
                }
                DiffOp::Delete { old_index, old_len, .. } => {
                    for (i, v) in a.iter().enumerate().skip(old_index).take(old_len) {
                        self.push(Sign::Removed, &index_path(path, i, i), v);
                    }
                }
                DiffOp::Insert { new_index, new_len, .. } => {
                    for (j, v) in b.iter().enumerate().skip(new_index).take(new_len) {
                        self.push(Sign::Added, &index_path(path, j, j), v);
                    }
                }
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => self.replaced(
                    path,
                    (old_index, &a[old_index..old_index + old_len]),
                    (new_index, &b[new_index..new_index + new_len]),
                ),
            }
        }
    }

    /// A run of elements replaced by another: each new element is paired, in order, with the
    /// old element of the same kind (a content block of the same `type`) that shares most of
    /// its fields among the next [`PAIRING_WINDOW`] of its kind, and compared with it; the
    /// others are removed or added. The window keeps a run of thousands (every tool call of a
    /// turn with its id rewritten) linear.
    fn replaced(&mut self, path: &str, (o, old): (usize, &[Value]), (n, new): (usize, &[Value])) {
        let mut pairs = Vec::new();
        let mut from = 0;
        for (j, nv) in new.iter().enumerate() {
            let best = (from..old.len())
                .filter(|&i| kind(&old[i]) == kind(nv))
                .take(PAIRING_WINDOW)
                .max_by_key(|&i| (shared_fields(&old[i], nv), std::cmp::Reverse(i)));
            if let Some(i) = best {
                pairs.push((i, j));
                from = i + 1;
            }
        }
        let (mut i, mut j) = (0, 0);
        for (pi, pj) in pairs.into_iter().chain([(old.len(), new.len())]) {
            for (k, v) in old.iter().enumerate().take(pi).skip(i) {
                self.push(Sign::Removed, &index_path(path, o + k, o + k), v);
            }
            for (k, v) in new.iter().enumerate().take(pj).skip(j) {
                self.push(Sign::Added, &index_path(path, n + k, n + k), v);
            }
            if pi < old.len() && pj < new.len() {
                self.value(&index_path(path, o + pi, n + pj), &old[pi], &new[pj]);
            }
            (i, j) = (pi + 1, pj + 1);
        }
    }

    fn string(&mut self, path: &str, a: &str, b: &str) {
        let (old, new) = word_pieces(a, b, self.options);
        for (sign, value) in [(Sign::Removed, old), (Sign::Added, new)] {
            self.lines.push(Line {
                sign,
                path: path.to_owned(),
                value,
            });
        }
    }
}

/// How many old elements of its kind a replaced element is compared with, at most.
const PAIRING_WINDOW: usize = 64;

/// Whether two objects differ in most of their keys (then shown replaced as a whole).
fn mostly_different(a: &Map, b: &Map) -> bool {
    let (la, lb) = (a.lookup(), b.lookup());
    let union = a.len() + b.keys().filter(|k| !la.contains_key(k)).count();
    let differing =
        a.iter().filter(|(k, v)| lb.get(k) != Some(v)).count() + b.keys().filter(|k| !la.contains_key(k)).count();
    union >= 4 && differing * 3 > union * 2
}

/// How many top-level fields two objects share with equal values.
fn shared_fields(a: &Value, b: &Value) -> usize {
    crate::openclaw::work::examined(1);
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            let b = b.lookup();
            a.iter().filter(|(k, v)| b.get(k) == Some(*v)).count()
        }
        _ => 0,
    }
}

/// What kind of element a value is, for pairing replaced array elements.
fn kind(v: &Value) -> (u8, Option<&str>) {
    match v {
        Value::Null => (0, None),
        Value::Bool(_) => (1, None),
        Value::Number(_) => (2, None),
        Value::String(_) => (3, None),
        Value::Array(_) => (4, None),
        Value::Object(m) => (5, m.get("type").and_then(Value::as_str)),
    }
}

fn key_path(path: &str, key: &str) -> String {
    let plain = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '-'));
    if !plain {
        format!("{path}[{}]", serde_json::to_string(key).unwrap_or_default())
    } else if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// `path[i]`, or `path[i→j]` for an element whose index changed.
fn index_path(path: &str, old: usize, new: usize) -> String {
    if old == new {
        format!("{path}[{new}]")
    } else {
        format!("{path}[{old}→{new}]")
    }
}

/// Keep the changed lines and `context` unchanged lines on each side of a change; with
/// `folds`, each run left out becomes one [`Sign::Folded`] line saying how long it was.
fn with_context(lines: Vec<Line>, context: usize, folds: bool) -> Vec<Line> {
    let mut keep = vec![false; lines.len()];
    for (i, l) in lines.iter().enumerate() {
        if l.sign != Sign::Context {
            let lo = i.saturating_sub(context);
            let hi = (i + context).min(lines.len() - 1);
            keep[lo..=hi].iter_mut().for_each(|k| *k = true);
        }
    }
    if folds {
        // A fold marker takes a line: a run of one is shown instead.
        for i in 0..keep.len() {
            let alone =
                !keep[i] && (i == 0 || keep[i - 1]) && keep.get(i + 1).is_none_or(|k| *k) && keep.iter().any(|k| *k);
            if alone {
                keep[i] = true;
            }
        }
    }
    let mut out = Vec::new();
    let mut skipped = 0;
    for (l, k) in lines.into_iter().zip(keep) {
        if !k {
            skipped += 1;
            continue;
        }
        if folds && skipped > 0 {
            out.push(folded(skipped));
        }
        skipped = 0;
        out.push(l);
    }
    if folds && skipped > 0 && !out.is_empty() {
        out.push(folded(skipped));
    }
    out
}

/// The marker of `n` unchanged lines left out.
fn folded(n: usize) -> Line {
    Line {
        sign: Sign::Folded,
        path: String::new(),
        value: vec![Piece::same(format!("{} unchanged", thousands(n)))],
    }
}

#[cfg(test)]
mod tests;
