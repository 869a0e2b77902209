//! Redaction for exports that go into public issues: secrets, e-mail addresses and phone
//! numbers become stable placeholders (`[secret:1]`: the same value always gets the same
//! placeholder), image data becomes a size note, long tool output is truncated, and with
//! `all-text` every user and assistant prose string becomes a length-preserving placeholder.

use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;
use serde_json::{Map, Value};

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

struct Pattern {
    kind: &'static str,
    re: Regex,
    /// The capture group holding the secret (0 = the whole match).
    group: usize,
}

fn pattern(kind: &'static str, re: &str, group: usize) -> Pattern {
    Pattern {
        kind,
        re: Regex::new(re).expect("valid redaction pattern"),
        group,
    }
}

/// Ordered: the most specific patterns first, so a key is not half-matched by a looser one.
static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    vec![
        pattern(
            "secret",
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----",
            0,
        ),
        pattern("secret", r"sk-ant-[A-Za-z0-9_\-]{8,}", 0),
        pattern("secret", r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}", 0),
        pattern("secret", r"(?:AKIA|ASIA)[0-9A-Z]{16}\b", 0),
        pattern(
            "secret",
            r#"(?i)(?:aws_?secret_?access_?key|secret_?access_?key|aws_?secret)["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})"#,
            1,
        ),
        pattern("secret", r"(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b", 0),
        pattern("secret", r"github_pat_[A-Za-z0-9_]{20,}\b", 0),
        pattern("secret", r"xox[abposr]-[A-Za-z0-9\-]{10,}\b", 0),
        pattern("secret", r"AIza[0-9A-Za-z_\-]{35}\b", 0),
        pattern(
            "secret",
            r"eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{5,}",
            0,
        ),
        pattern("secret", r"(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{12,}=*)", 1),
        pattern("secret", r"(?i)\b[a-z][a-z0-9+.\-]*://[^/\s:@]+:([^@\s/]+)@", 1),
        pattern(
            "email",
            r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}\b",
            0,
        ),
        pattern(
            "phone",
            r"(?:\+\d{1,3}[\s.\-]?)?\(?\b\d{3}\)?[\s.\-]\d{3}[\s.\-]\d{4}\b",
            0,
        ),
        pattern("phone", r"\+\d{1,3}(?:[\s.\-]\d{2,4}){2,5}\b", 0),
    ]
});

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
        text
    }

    /// Redact every string (and key) of a JSON value in place.
    pub fn value(&mut self, v: &mut Value) {
        if self.mode == Redaction::None {
            return;
        }
        match v {
            Value::String(s) => *s = self.text(s),
            Value::Array(items) => items.iter_mut().for_each(|i| self.value(i)),
            Value::Object(map) => {
                let old = std::mem::take(map);
                for (k, mut val) in old {
                    self.value(&mut val);
                    let key = self.text(&k);
                    map.insert(key, val);
                }
            }
            _ => {}
        }
    }

    /// Redact one transcript message: image data, long tool output, prose (all-text), then
    /// every remaining string.
    pub fn message(&mut self, message: &mut Value) {
        if self.mode == Redaction::None {
            return;
        }
        let role = message.get("role").and_then(Value::as_str).unwrap_or("").to_owned();
        let prose = self.mode == Redaction::AllText && (role == "user" || role == "assistant");
        if let Some(obj) = message.as_object_mut() {
            if prose && let Some(Value::String(s)) = obj.get_mut("content") {
                *s = self.prose(s);
            }
            if let Some(Value::Array(blocks)) = obj.get_mut("content") {
                for block in blocks.iter_mut() {
                    self.block(block, &role, prose);
                }
            }
        }
        self.value(message);
    }

    fn block(&mut self, block: &mut Value, role: &str, prose: bool) {
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
                    *t = format!("{}… [truncated: {total} bytes in all]", &t[..cut]);
                    *self.counts.entry("long tool output").or_default() += 1;
                }
            }
            Some("text") if prose => {
                if let Some(Value::String(t)) = obj.get_mut("text") {
                    *t = self.prose(t);
                }
            }
            Some("thinking") if prose => {
                if let Some(Value::String(t)) = obj.get_mut("thinking") {
                    *t = self.prose(t);
                }
            }
            _ => {}
        }
    }

    /// A length-preserving placeholder: letters → `x`, digits → `0`, the rest kept.
    fn prose(&mut self, text: &str) -> String {
        *self.counts.entry("prose").or_default() += 1;
        text.chars()
            .map(|c| {
                if c.is_alphabetic() {
                    'x'
                } else if c.is_numeric() {
                    '0'
                } else {
                    c
                }
            })
            .collect()
    }
}

/// Replace an image block's `data` with a `WxH mime bytes` note.
fn image_note(obj: &mut Map<String, Value>, counts: &mut BTreeMap<&'static str, usize>) {
    let Some(Value::String(data)) = obj.get("data") else {
        return;
    };
    let summary = crate::model::ImageSummary::of(obj.get("mimeType").and_then(Value::as_str), Some(data));
    let dims = summary.dims.map(|(w, h)| format!("{w}×{h} ")).unwrap_or_default();
    obj.insert(
        "data".into(),
        Value::String(format!("[image: {dims}{} {} bytes]", summary.mime, summary.bytes)),
    );
    *counts.entry("image data").or_default() += 1;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stable_placeholders_per_value() {
        let mut r = Redactor::new(Redaction::Secrets);
        let a = r.text("key sk-ant-api03-abcdefghijklmnop and again sk-ant-api03-abcdefghijklmnop");
        assert_eq!(a, "key [secret:1] and again [secret:1]");
        assert_eq!(
            r.text("mail bob@example.com, call +1 415-555-0100"),
            "mail [email:1], call [phone:1]"
        );
        assert_eq!(r.text("other sk-proj-ZZZZZZZZZZZZZZZZZZZZ"), "other [secret:2]");
        assert_eq!(r.counts()["secret"], 3);
    }

    #[test]
    fn url_passwords_bearer_and_aws_keep_their_context() {
        let mut r = Redactor::new(Redaction::Secrets);
        assert_eq!(
            r.text("postgres://admin:hunter2@db:5432/x"),
            "postgres://admin:[secret:1]@db:5432/x"
        );
        assert_eq!(
            r.text("Authorization: Bearer abcdefghijklmnopqrstuv"),
            "Authorization: Bearer [secret:2]"
        );
        let aws = r.text("AKIAIOSFODNN7EXAMPLE aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        assert_eq!(aws, "[secret:3] aws_secret_access_key=[secret:4]");
    }

    #[test]
    fn images_become_notes_and_prose_keeps_length() {
        let mut r = Redactor::new(Redaction::AllText);
        let png_1x1 =
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
        let mut m = json!({"role": "user", "content": [
            {"type": "text", "text": "Hello World 42"},
            {"type": "image", "data": png_1x1, "mimeType": "image/png"}
        ]});
        r.message(&mut m);
        assert_eq!(m["content"][0]["text"], "xxxxx xxxxx 00");
        assert_eq!(m["content"][1]["data"], "[image: 1×1 image/png 70 bytes]");
        let mut tool = json!({"role": "toolResult", "toolCallId": "call_1", "content": [{"type": "text", "text": "y".repeat(10_000)}]});
        r.message(&mut tool);
        let t = tool["content"][0]["text"].as_str().unwrap();
        assert!(t.len() < 2200 && t.ends_with("[truncated: 10000 bytes in all]"));
        assert_eq!(tool["toolCallId"], "call_1", "structure and ids are kept");
    }
}
