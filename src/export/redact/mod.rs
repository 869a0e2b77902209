//! Redaction for exports that go into public issues: secrets, e-mail addresses and phone
//! numbers become stable placeholders (`[secret:1]`: the same value always gets the same
//! placeholder), image data becomes a size note, long tool output is truncated, and with
//! `all-text` every user and assistant prose string becomes a length-preserving placeholder.

use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

use crate::model::json::{Map, Value};
use regex::Regex;
use serde::Serialize;

mod catalogue;
mod prose;
mod split;

/// How much to redact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Redaction {
    /// Nothing.
    None,
    /// Secrets, e-mail addresses, phone numbers, image data, very long tool output.
    Secrets,
    /// `Secrets`, plus all user and assistant prose.
    AllText,
}

/// Tool output longer than this many bytes is truncated in redacted exports.
pub const MAX_TOOL_OUTPUT_BYTES: usize = 4096;

/// One redaction rule as written in `rules.toml`.
#[derive(Debug, serde::Deserialize)]
struct RuleSpec {
    id: String,
    kind: String,
    pattern: String,
    #[serde(default)]
    group: usize,
    #[cfg_attr(not(test), allow(dead_code))]
    example: String,
}

#[derive(Debug, serde::Deserialize)]
struct RuleFile {
    rule: Vec<RuleSpec>,
}

/// A compiled redaction rule.
struct Pattern {
    /// The rule id (named by the tests).
    #[cfg(test)]
    id: String,
    kind: &'static str,
    re: Regex,
    /// The capture group holding the secret (0 = the whole match).
    group: usize,
    /// A value the rule must redact (checked by the tests).
    #[cfg(test)]
    example: String,
}

/// The redaction rules, kept as data: one entry per token family, most specific first.
const RULES_TOML: &str = include_str!("rules.toml");

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    let file: RuleFile = toml::from_str(RULES_TOML).expect("valid rules.toml");
    file.rule
        .into_iter()
        .map(|r| Pattern {
            kind: match r.kind.as_str() {
                "email" => "email",
                "phone" => "phone",
                "user" => "user",
                "host" => "host",
                _ => "secret",
            },
            re: Regex::new(&r.pattern).unwrap_or_else(|e| panic!("redaction rule {}: {e}", r.id)),
            #[cfg(test)]
            id: r.id,
            group: r.group,
            #[cfg(test)]
            example: r.example,
        })
        .collect()
});

/// JSON object keys that name a secret: their string values are redacted whatever they hold.
static SECRET_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:password|passwd|^pwd$|^pass$|_pass$|^pass_|passphrase|secret|token|api[_\-]?key|apikey|access[_\-]?key|private[_\-]?key|auth[_\-]?key|^auth$|credentials?|^authorization$|cookie|^session(?:[_\-]?id)?$|^sid$|^pin$)")
        .expect("valid key pattern")
});

/// Keys that name a secret whatever its shape: a number, array or object under them goes too
/// (`"pin_password": 4711`, `"credentials": {…}`). Token counts (`totalTokens`) are not among
/// them.
static SECRET_ANY_SHAPE_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:password|passwd|^pwd$|^pass$|_pass$|^pass_|passphrase|secret|^pin$|_pin$|credentials?|^(?:api[_\-]?)?token$|_token$|api[_\-]?key|^session(?:[_\-]?id)?$|cookie)")
        .expect("valid key pattern")
});

/// Long base64/base64url or hex runs, checked for entropy.
static LONG_TOKEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z0-9+/_\-]{32,}={0,2}").expect("valid token pattern"));

/// Whether `text[start..end]` lies inside a placeholder an earlier rule wrote (`[secret:1234]`
/// reads like `secret: 1234` to a rule looking for assignments).
fn placeholder_at(text: &str, start: usize, end: usize) -> bool {
    let Some(open) = text[..start].rfind('[') else {
        return false;
    };
    let Some(close) = text[open..].find(']').map(|i| open + i) else {
        return false;
    };
    close >= end.saturating_sub(1)
        && ["secret", "email", "phone", "user", "host"].iter().any(|kind| {
            let inner = &text[open + 1..close];
            inner
                .strip_prefix(kind)
                .and_then(|r| r.strip_prefix(':'))
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'[' || b == b':'))
        })
}

/// Byte ranges sorted, with overlapping and touching ones merged.
fn merged(mut spans: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    spans.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    for (start, end) in spans {
        match out.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// Shannon entropy in bits per character.
fn entropy(s: &str) -> f64 {
    let mut counts = [0usize; 256];
    for b in s.bytes() {
        counts[usize::from(b)] += 1;
    }
    let n = s.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

/// Whether a long token looks like a random secret: hex of high entropy, or base64 mixing
/// upper case, lower case and digits with high entropy (thresholds as common scanners use).
fn looks_random(token: &str) -> bool {
    let hex = token.bytes().all(|b| b.is_ascii_hexdigit());
    if hex {
        // 32 random hex digits average about 3.6 bits a character; 3.5 missed one key in five.
        return entropy(token) >= 3.0;
    }
    let upper = token.bytes().any(|b| b.is_ascii_uppercase());
    let lower = token.bytes().any(|b| b.is_ascii_lowercase());
    let digit = token.bytes().any(|b| b.is_ascii_digit());
    upper && lower && digit && entropy(token) >= 4.5
}

/// What redacting one message counted, by kind (see [`Redactor::message_tally`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally(Vec<(&'static str, usize)>);

/// Applies one redaction level consistently across a whole export.
#[derive(Debug)]
pub struct Redactor {
    mode: Redaction,
    placeholders: HashMap<(&'static str, String), String>,
    next: BTreeMap<&'static str, usize>,
    counts: BTreeMap<&'static str, usize>,
}

impl Redactor {
    /// A redactor for one export.
    pub fn new(mode: Redaction) -> Self {
        Self {
            mode,
            placeholders: HashMap::new(),
            next: BTreeMap::new(),
            counts: BTreeMap::new(),
        }
    }

    /// The redaction level.
    pub fn mode(&self) -> Redaction {
        self.mode
    }

    /// Redact a message as [`Redactor::message`] does and say what that counted, so that an
    /// identical message (a replay message the rules left as stored) can take the same
    /// result and be counted again ([`Redactor::count_again`]) without being redacted again.
    pub fn message_tally(&mut self, message: &mut Value) -> Tally {
        if self.mode == Redaction::None {
            return Tally::default();
        }
        let before = self.counts.clone();
        self.message(message);
        Tally(
            self.counts
                .iter()
                .filter_map(|(&kind, &n)| {
                    let added = n - before.get(kind).copied().unwrap_or(0);
                    (added > 0).then_some((kind, added))
                })
                .collect(),
        )
    }

    /// Count again what a [`Redactor::message_tally`] counted.
    pub fn count_again(&mut self, tally: &Tally) {
        for &(kind, n) in &tally.0 {
            *self.counts.entry(kind).or_default() += n;
        }
    }

    /// What was redacted, by kind, with counts (every occurrence counted).
    pub fn counts(&self) -> &BTreeMap<&'static str, usize> {
        &self.counts
    }

    fn placeholder(&mut self, kind: &'static str, value: &str) -> String {
        *self.counts.entry(kind).or_default() += 1;
        if let Some(p) = self.placeholders.get(&(kind, value.to_owned())) {
            return p.clone();
        }
        let n = self.next.entry(kind).or_default();
        *n += 1;
        let p = format!("[{kind}:{n}]");
        self.placeholders.insert((kind, value.to_owned()), p.clone());
        p
    }

    /// Redact secrets, e-mail addresses and phone numbers in a string.
    pub fn text(&mut self, input: &str) -> String {
        if self.mode == Redaction::None {
            return input.to_owned();
        }
        let mut text = input.to_owned();
        for p in PATTERNS.iter() {
            if !p.re.is_match(&text) {
                continue;
            }
            let mut out = String::with_capacity(text.len());
            let mut last = 0;
            let matches: Vec<(usize, usize)> =
                p.re.captures_iter(&text)
                    .filter_map(|c| c.get(p.group).map(|m| (m.start(), m.end())))
                    .filter(|&(start, end)| !placeholder_at(&text, start, end))
                    .collect();
            for (start, end) in matches {
                out.push_str(&text[last..start]);
                let secret = text[start..end].to_owned();
                out.push_str(&self.placeholder(p.kind, &secret));
                last = end;
            }
            out.push_str(&text[last..]);
            text = out;
        }
        let mut found = Vec::new();
        catalogue::CATALOGUE.find(&text, &mut found);
        found.retain(|&(start, end)| !placeholder_at(&text, start, end));
        let text = self.replace_spans(text, found);
        self.high_entropy(text)
    }

    /// Replace each of the byte ranges `spans` of `text` (merged where they overlap or touch)
    /// with its secret placeholder.
    fn replace_spans(&mut self, text: String, spans: Vec<(usize, usize)>) -> String {
        if spans.is_empty() {
            return text;
        }
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (start, end) in merged(spans) {
            out.push_str(&text[last..start]);
            out.push_str(&self.placeholder("secret", &text[start..end]));
            last = end;
        }
        out.push_str(&text[last..]);
        out
    }

    /// Replace long random-looking tokens that no rule named.
    fn high_entropy(&mut self, text: String) -> String {
        let hits: Vec<(usize, usize)> = LONG_TOKEN
            .find_iter(&text)
            .filter(|m| looks_random(m.as_str()))
            .map(|m| (m.start(), m.end()))
            .collect();
        if hits.is_empty() {
            return text;
        }
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (start, end) in hits {
            out.push_str(&text[last..start]);
            out.push_str(&self.placeholder("secret", &text[start..end]));
            last = end;
        }
        out.push_str(&text[last..]);
        out
    }

    /// Redact every string (and key) of a JSON value in place.
    pub fn value(&mut self, v: &mut Value) {
        if self.mode == Redaction::None {
            return;
        }
        match v {
            Value::String(s) => *s = self.text(s).into(),
            Value::Array(items) => {
                self.argv_secrets(items);
                items.iter_mut().for_each(|i| self.value(i));
            }
            Value::Object(map) => {
                let old = std::mem::take(map);
                let mut entries = Vec::with_capacity(old.len());
                for (k, mut val) in old {
                    if SECRET_KEY.is_match(&k) {
                        // A key that names a secret: its value goes, whatever it looks like.
                        self.secret_value(&mut val, SECRET_ANY_SHAPE_KEY.is_match(&k));
                    } else {
                        self.value(&mut val);
                    }
                    entries.push((self.text(&k).into(), val));
                }
                // Built in one go (linear however many keys); keys that came out alike would
                // merge as repeated keys do.
                *map = Map::from_entries(entries);
            }
            _ => {}
        }
    }

    /// The value of a secret-named key: a non-empty string is replaced, so is every string of
    /// an array under it; when `any_shape` (the key names a password or credentials, not a
    /// token count), numbers and whole objects go too (a number becomes a placeholder string).
    fn secret_value(&mut self, v: &mut Value, any_shape: bool) {
        match v {
            Value::String(s) if !s.is_empty() => *s = self.placeholder("secret", s).into(),
            Value::Number(n) if any_shape => {
                let text = n.to_string();
                *v = Value::String(self.placeholder("secret", &text).into());
            }
            Value::Array(items) => items.iter_mut().for_each(|i| self.secret_value(i, any_shape)),
            Value::Object(map) if any_shape => {
                for (_, val) in map.iter_mut() {
                    self.secret_value(val, true);
                }
            }
            _ => self.value(v),
        }
    }

    /// Redact one transcript message: image data, long tool output, prose (all-text), then
    /// every remaining string.
    pub fn message(&mut self, message: &mut Value) {
        if self.mode == Redaction::None {
            return;
        }
        let role = message.get("role").and_then(Value::as_str).unwrap_or("").to_owned();
        let parts = match message.get("content") {
            Some(Value::Array(blocks)) => split::split_parts(blocks),
            _ => Vec::new(),
        };
        if let Some(obj) = message.as_object_mut() {
            if self.mode == Redaction::AllText {
                self.all_text(obj);
            }
            if let Some(Value::Array(blocks)) = obj.get_mut("content") {
                for block in blocks.iter_mut() {
                    self.block(block, &role);
                }
            }
        }
        self.value(message);
        if !parts.is_empty()
            && let Some(Value::Array(blocks)) = message.get_mut("content")
        {
            self.redact_parts(blocks, parts);
        }
    }

    /// Image data becomes a note; long tool output is cut.
    fn block(&mut self, block: &mut Value, role: &str) {
        let Some(obj) = block.as_object_mut() else { return };
        match obj.get("type").and_then(Value::as_str) {
            Some("image") => image_note(obj, &mut self.counts),
            Some("text") if role == "toolResult" => {
                if let Some(Value::String(t)) = obj.get_mut("text")
                    && t.len() > MAX_TOOL_OUTPUT_BYTES
                {
                    let total = t.len();
                    let mut cut = 2048.min(total);
                    while !t.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    *t = format!("{}… [truncated: {total} bytes in all]", &t[..cut]).into();
                    *self.counts.entry("long tool output").or_default() += 1;
                }
            }
            _ => {}
        }
    }
}

/// Replace an image block's `data` with a `WxH mime bytes` note.
fn image_note(obj: &mut Map, counts: &mut BTreeMap<&'static str, usize>) {
    let Some(Value::String(data)) = obj.get("data") else {
        return;
    };
    let summary = crate::model::ImageSummary::of(obj.get("mimeType").and_then(Value::as_str), Some(data));
    let dims = summary.dims.map(|(w, h)| format!("{w}×{h} ")).unwrap_or_default();
    obj.insert(
        "data".into(),
        Value::String(format!("[image: {dims}{} {} bytes]", summary.mime, summary.bytes).into()),
    );
    *counts.entry("image data").or_default() += 1;
}

#[cfg(test)]
mod tests;

#[cfg(test)]
#[path = "forms_tests.rs"]
mod forms_tests;
