//! OpenClaw 2026.9.6's `isSilentReplyPayloadText(text, "NO_REPLY")`
//! (`src/auto-reply/tokens.ts`): whether an assistant text is a silent reply.
//!
//! Silent is any of:
//! - the token alone, repeated or not (`NO_REPLY`, `no_reply`, `NO_REPLY NO_REPLY`), also after
//!   removing leading and trailing punctuation (`NO_REPLY.`, `**NO_REPLY**`);
//! - a JSON string whose value trims to the token (`"NO_REPLY"`);
//! - a JSON object whose only key is `action` with a string value trimming to the token;
//! - reasoning followed by the token: closed `<think>…</think>` blocks then the token (or a
//!   silent-intent sentence such as `I will stay quiet.` ending in the token), an unclosed
//!   `<thinking>` or a `Thinking:` line then the token, a silent-intent last line, or a bare
//!   reasoning placeholder.
//!
//! Case-insensitive, as upstream. `NO_REPLY` inside an ordinary answer is not silent.

use std::sync::LazyLock;

use crate::model::json::Value;
use regex::Regex;

use super::js::js_trim;

/// The silent-reply token.
pub const SILENT_REPLY_TOKEN: &str = "NO_REPLY";

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("valid silent-reply pattern")
}

static EXACT: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^\s*NO_REPLY(?:\s+NO_REPLY)*\s*$"));
static LEADING_PUNCTUATION: LazyLock<Regex> = LazyLock::new(|| re(r"^\p{P}+"));
static TRAILING_PUNCTUATION: LazyLock<Regex> = LazyLock::new(|| re(r"\p{P}+$"));
static FINAL_TOKEN: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)(?:^|[\s*.])NO_REPLY\s*$"));
static SILENT_INTENT: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"(?i)^\s*(?:i|i'll|i\s+will|i'm|i\s+am|we|we'll|we\s+will|the\s+assistant|assistant|the\s+bot|bot|openclaw)\s+",
        r"(?:(?:will\s+)?(?:stay|remain|keep|be)\s+(?:quiet|silent)",
        r"(?:\s+(?:here|for\s+now|on\s+this|in\s+this\s+(?:chat|thread|channel|conversation)))?",
        r"|(?:do\s+not|don't|dont|will\s+not|won't|would\s+not|should\s+not)\s+(?:reply|respond)",
        r"(?:\s+(?:here|for\s+now|on\s+this|in\s+this\s+(?:chat|thread|channel|conversation)))?",
        r"|(?:have|has)\s+nothing\s+(?:to|for)\s+(?:say|add|reply|respond))(?:[.!?]+)?\s*$",
    ))
});
static SUBSTANTIVE_ANSWER_CUE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:answer|here(?:'s|\s+is)|tell\s+them|you\s+(?:should|can|could|need|must)|please|try|use|send|service\s+is|resolved|retry|yes|no,|sure)\b",
    )
});
static BARE_REASONING_PLACEHOLDER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)^\s*(?:(?:internal|private)\s+)?(?:reasoning|thinking|thoughts?|analysis)(?:\s+notes?)?\s*$")
});
const REASONING_TAG: &str = r"(?:(?:antml:|mm:)?(?:think(?:ing)?|thought)|antthinking)";
static TAGGED_REASONING_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)^\s*<\s*{REASONING_TAG}\b[^<>]*>[\s\S]*?<\s*/\s*{REASONING_TAG}\s*>\s*"
    ))
});
static OPEN_REASONING_PREFIX: LazyLock<Regex> = LazyLock::new(|| re(&format!(r"(?i)^\s*<\s*{REASONING_TAG}\b[^<>]*>")));
static PLAIN_REASONING_PREFIX: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)^\s*(?:think(?:ing)?|thought|analysis|reasoning)\s*:?\r?\n"));

/// `stripEdgePunctuation`: leading and trailing Unicode punctuation removed.
fn strip_edge_punctuation(text: &str) -> &str {
    let start = LEADING_PUNCTUATION.find(text).map_or(0, |m| m.end());
    let end = TRAILING_PUNCTUATION.find(text).map_or(text.len(), |m| m.start());
    if start >= end { "" } else { &text[start..end] }
}

/// `isSilentReplyText`: the token alone (repeated or not), also inside edge punctuation unless
/// `exact` (OpenClaw 2026.6.x).
fn is_token_only(text: &str, exact: bool) -> bool {
    !text.is_empty() && (EXACT.is_match(text) || (!exact && EXACT.is_match(strip_edge_punctuation(js_trim(text)))))
}

/// `isSilentReplyJsonStringText`.
fn is_json_string(text: &str) -> bool {
    let trimmed = js_trim(text);
    trimmed.len() >= 2
        && trimmed.starts_with('"')
        && trimmed.ends_with('"')
        && trimmed.contains(SILENT_REPLY_TOKEN)
        && matches!(serde_json::from_str::<Value>(trimmed), Ok(Value::String(s)) if js_trim(&s) == SILENT_REPLY_TOKEN)
}

/// `isSilentReplyEnvelopeText`: `{"action": "NO_REPLY"}` and nothing else.
fn is_action_envelope(text: &str) -> bool {
    let trimmed = js_trim(text);
    if !(trimmed.starts_with('{') && trimmed.ends_with('}') && trimmed.contains(SILENT_REPLY_TOKEN)) {
        return false;
    }
    match serde_json::from_str::<Value>(trimmed) {
        Ok(Value::Object(map)) => {
            map.len() == 1 && map.get("action").and_then(Value::as_str).map(js_trim) == Some(SILENT_REPLY_TOKEN)
        }
        _ => false,
    }
}

/// `stripFinalSilentToken`: the text without a final token, or `None` when there is none.
fn strip_final_token(text: &str) -> Option<String> {
    let stripped = FINAL_TOKEN.replace(text, "");
    let stripped = js_trim(&stripped).to_owned();
    (stripped != js_trim(text)).then_some(stripped)
}

/// `hasSilentIntentFinalSilentToken`.
fn silent_intent_then_token(text: &str) -> bool {
    strip_final_token(text).is_some_and(|rest| rest.is_empty() || SILENT_INTENT.is_match(&rest))
}

/// `hasPlainReasoningFinalSilentToken`.
fn plain_reasoning_then_token(text: &str) -> bool {
    let Some(rest) = strip_final_token(text) else {
        return false;
    };
    if rest.is_empty() || SILENT_INTENT.is_match(&rest) {
        return true;
    }
    let lines: Vec<&str> = rest
        .split('\n')
        .map(|l| js_trim(l.strip_suffix('\r').unwrap_or(l)))
        .filter(|l| !l.is_empty())
        .collect();
    let intent_last = match lines.split_last() {
        Some((last, previous)) if !previous.is_empty() => {
            SILENT_INTENT.is_match(last) && !SUBSTANTIVE_ANSWER_CUE.is_match(&previous.join("\n"))
        }
        _ => false,
    };
    intent_last || BARE_REASONING_PLACEHOLDER.is_match(&rest)
}

/// `isReasoningPrefixedSilentReplyText`.
fn is_reasoning_prefixed(text: &str, exact: bool) -> bool {
    let trimmed = js_trim(text);
    if trimmed.is_empty() {
        return false;
    }
    let mut rest = trimmed;
    while let Some(m) = TAGGED_REASONING_PREFIX.find(rest).filter(|m| !m.is_empty()) {
        rest = &rest[m.end()..];
    }
    if rest.len() != trimmed.len() {
        return is_token_only(rest, exact) || silent_intent_then_token(rest);
    }
    for prefix in [&*OPEN_REASONING_PREFIX, &*PLAIN_REASONING_PREFIX] {
        if let Some(m) = prefix.find(trimmed) {
            let after = &trimmed[m.end()..];
            return is_token_only(after, exact) || plain_reasoning_then_token(after);
        }
    }
    false
}

/// `isSilentReplyPayloadText(text, "NO_REPLY")`.
pub fn is_silent_reply_payload(text: &str) -> bool {
    is_silent_reply_payload_as(text, false)
}

/// [`is_silent_reply_payload`]; with `exact` (OpenClaw 2026.6.x, switch
/// `silent-token-exact`) the token surrounded by punctuation (`NO_REPLY.`) is not silent.
pub fn is_silent_reply_payload_as(text: &str, exact: bool) -> bool {
    is_token_only(text, exact) || is_json_string(text) || is_action_envelope(text) || is_reasoning_prefixed(text, exact)
}

#[cfg(test)]
mod tests {
    use super::is_silent_reply_payload as silent;

    #[test]
    fn token_forms_are_silent() {
        for t in [
            "NO_REPLY",
            "  \n NO_REPLY \t",
            "no_reply",
            "No_Reply",
            "NO_REPLY.",
            "NO_REPLY!",
            "**NO_REPLY**",
            "NO_REPLY NO_REPLY",
            "NO_REPLY\n\nNO_REPLY",
            "\"NO_REPLY\"",
            r#"{"action":"NO_REPLY"}"#,
            r#" { "action" : " NO_REPLY " } "#,
        ] {
            assert!(silent(t), "{t:?}");
        }
    }

    #[test]
    fn reasoning_then_token_is_silent() {
        for t in [
            "<think>the user said thanks</think>\nNO_REPLY",
            "<thinking>I have nothing to add\nNO_REPLY",
            "Thinking:\nI will stay quiet.\nNO_REPLY",
            "<think>x</think> I will stay quiet here. NO_REPLY",
            "Analysis:\nreasoning notes\nNO_REPLY",
        ] {
            assert!(silent(t), "{t:?}");
        }
    }

    #[test]
    fn answers_mentioning_the_token_are_not_silent() {
        for t in [
            "",
            "Sure. NO_REPLY",
            "`NO_REPLY`",
            "Reply NO_REPLY if nothing changed.",
            r#"{"action":"NO_REPLY","why":"x"}"#,
            r#"{"act":"NO_REPLY"}"#,
            "I will answer NO_REPLY later",
            "Thinking:\nHere is the answer: use retry.\nI will stay quiet.\nNO_REPLY",
        ] {
            assert!(!silent(t), "{t:?}");
        }
    }
}
