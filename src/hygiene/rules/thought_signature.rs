//! `thought-signature`: strip Gemini `thought_signature` / `thoughtSignature` values that are
//! not valid for the target (OpenClaw's `stripThoughtSignatures`).

use crate::model::json::Value;

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::{Message, StopReason};
use crate::policy::ThoughtSignatureOptions;

use crate::hygiene::helpers::thinking_blocks::{describe_block, with_content};

static INFO: RuleInfo = RuleInfo {
    id: "thought-signature",
    summary: "strip Gemini `thought_signature` / `thoughtSignature` values that are not valid for the target",
    explanation: "Gemini replays its reasoning state as base64 `thought_signature` bytes on content blocks; a \
        value minted elsewhere (a Claude message id such as `msg_…`, or any non-base64 text) makes Gemini \
        reject the request with \"Corrupted thought signature\". OpenClaw's stripThoughtSignatures runs on \
        every block of every assistant turn with array content whose stopReason is not `error`, unless the \
        policy sets preserveSignatures. Without sanitizeThoughtSignatures options \
        only a string `thought_signature` starting with `msg_` is removed. With allowBase64Only \
        (Google APIs; OpenRouter-style routes to Gemini models) `thought_signature` is removed unless it \
        is a string that is valid base64: trimmed, inner whitespace removed, only `[A-Za-z0-9+/=_-]`, \
        base64url when it contains `-` or `_` (else standard base64), decoding to at least one byte, and \
        re-encoding to the same text ignoring trailing `=`. A present non-string value (number, null, \
        object) is removed; a missing field is not a change. includeCamelCase applies the same test to \
        `thoughtSignature`. `thinkingSignature` is never touched. Only the named field is removed; the \
        block and its other fields keep their order. The published page says OpenAI targets get \"no \
        thought signature stripping\", but OpenClaw's code applies the default `msg_` test to every \
        target without preserveSignatures, and so does this rule (a `msg_` value is never a valid \
        signature anywhere).",
    families: "every target whose policy does not preserve signatures (not Anthropic / Bedrock); the base64 \
        test on Google Gemini and OpenRouter-style Gemini routes",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › OpenRouter Gemini · stripThoughtSignatures",
};

/// The `thought-signature` rule.
pub struct ThoughtSignature;

impl Rule for ThoughtSignature {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        !ctx.resolved.policy.preserve_signatures
    }

    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let options = ctx.resolved.policy.sanitize_thought_signatures;
        work.modify_each(INFO.id, rewrites, |_, m| stripped(m, options));
    }
}

/// Why a signature value must go, or `None` when it stays.
fn strip_reason(value: &Value, options: Option<ThoughtSignatureOptions>) -> Option<&'static str> {
    match options {
        Some(o) if o.allow_base64_only => match value {
            Value::String(s) if is_base64_signature(s) => None,
            Value::String(_) => Some("not base64"),
            _ => Some("not a string"),
        },
        _ => match value {
            Value::String(s) if s.starts_with("msg_") => Some("a Claude message id (msg_…), not a thought signature"),
            _ => None,
        },
    }
}

impl ThoughtSignature {
    /// Whether OpenClaw's `stripThoughtSignatures` makes `block` of `m` anew (a new object, even
    /// when no field goes: with `allowBase64Only` an absent `thought_signature` counts as invalid),
    /// for the compaction checkpoint of the image pass (`blank-text`).
    pub fn rebuilds_block(ctx: &Context<'_>, m: &Message, block: &Value) -> bool {
        let policy = &ctx.resolved.policy;
        if policy.preserve_signatures || !m.is_assistant() || m.stop_reason() == Some(StopReason::Error) {
            return false;
        }
        let Some(obj) = block.as_object() else { return false };
        let options = policy.sanitize_thought_signatures;
        if options.is_some_and(|o| o.allow_base64_only) {
            return true;
        }
        let camel = options.is_some_and(|o| o.include_camel_case);
        let fields: &[&str] = if camel {
            &["thought_signature", "thoughtSignature"]
        } else {
            &["thought_signature"]
        };
        fields
            .iter()
            .any(|f| obj.get(f).is_some_and(|v| strip_reason(v, options).is_some()))
    }
}

fn stripped(m: &Message, options: Option<ThoughtSignatureOptions>) -> Option<(Message, String)> {
    if !m.is_assistant() || m.stop_reason() == Some(StopReason::Error) {
        return None;
    }
    let content = m.content_array()?;
    let camel = options.is_some_and(|o| o.include_camel_case);
    let mut next = content.clone();
    let mut notes = Vec::new();
    for (i, block) in next.iter_mut().enumerate() {
        let name = describe_block(block, i);
        let Some(obj) = block.as_object_mut() else { continue };
        let fields: &[&str] = if camel {
            &["thought_signature", "thoughtSignature"]
        } else {
            &["thought_signature"]
        };
        for field in fields {
            let Some(reason) = obj.get(field).and_then(|v| strip_reason(v, options)) else {
                continue;
            };
            obj.shift_remove(field);
            notes.push(format!("stripped {field} of {name}: {reason}"));
        }
    }
    if notes.is_empty() {
        return None;
    }
    Some((with_content(m, next), notes.join("; ")))
}

/// The base64 test of `stripThoughtSignatures` (Node `Buffer` decode, then re-encode and compare
/// ignoring trailing `=`).
pub fn is_base64_signature(value: &str) -> bool {
    let compact: String = value.trim().chars().filter(|c| !c.is_whitespace()).collect();
    if compact.is_empty()
        || !compact
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_' | b'-'))
    {
        return false;
    }
    let url = compact.contains('-') || compact.contains('_');
    let body = compact.trim_end_matches('=');
    let mut bits: u32 = 0;
    let mut nbits = 0;
    let mut bytes = 0usize;
    let mut last = 0u32;
    for b in body.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'-' | b'_' if url => {
                if b == b'-' {
                    62
                } else {
                    63
                }
            }
            b'+' | b'/' if !url => {
                if b == b'+' {
                    62
                } else {
                    63
                }
            }
            // An inner `=`, or a character of the other alphabet, never re-encodes identically.
            _ => return false,
        };
        last = u32::from(v);
        bits = (bits << 6) | last;
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            bytes += 1;
            bits &= (1 << nbits) - 1;
        }
    }
    // One dangling character is dropped by the decoder; leftover bits must be zero to
    // re-encode to the same text.
    let leftover_ok = match body.len() % 4 {
        1 => false,
        2 => last & 0b1111 == 0,
        3 => last & 0b11 == 0,
        _ => true,
    };
    bytes > 0 && leftover_ok
}

#[cfg(test)]
mod tests {
    use super::is_base64_signature;

    #[test]
    fn base64_test_matches_node_round_trip() {
        assert!(is_base64_signature("AAEC"));
        assert!(is_base64_signature(" QUJD\nREVG "));
        assert!(is_base64_signature("QQ=="));
        assert!(is_base64_signature("QQ"));
        assert!(is_base64_signature("a-_b"));
        assert!(!is_base64_signature("QR"), "non-zero leftover bits");
        assert!(!is_base64_signature("QUJDR"), "one dangling character");
        assert!(is_base64_signature("msg_abc"), "valid base64url by the Node round trip");
        assert!(!is_base64_signature("ab+c-d"), "mixed alphabets");
        assert!(!is_base64_signature("QQ==QQ"));
        assert!(!is_base64_signature("not base64!"));
        assert!(!is_base64_signature("   "));
        assert!(!is_base64_signature("Q"));
    }
}
