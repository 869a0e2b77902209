//! Thought signatures as each replay keeps them, and the replay key of a function call.

use crate::model::json::Value;
use crate::openclaw::js::js_trim;

/// A Gemini thought signature as the managed replay keeps it: trimmed, padded base64
/// (`sanitizeGeminiThoughtSignature`).
pub(super) fn signature(value: Option<&Value>) -> Option<String> {
    let trimmed = js_trim(value?.as_str()?);
    (!trimmed.is_empty() && is_padded_base64(trimmed)).then(|| trimmed.to_owned())
}

/// A thought signature as the signed-parts replay keeps it: base64 of a length divisible by 4,
/// untrimmed (`resolveThoughtSignature`).
pub(super) fn stored_signature(value: Option<&Value>) -> Option<String> {
    let value = value?.as_str()?;
    (!value.trim_end_matches('=').is_empty() && is_padded_base64(value)).then(|| value.to_owned())
}

/// Standard base64 with at most two `=` of padding and a length divisible by 4.
fn is_padded_base64(value: &str) -> bool {
    let body = value.trim_end_matches('=');
    value.len().is_multiple_of(4)
        && value.len() - body.len() <= 2
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// `stableStringifyGoogleToolCallValue`: JSON with object keys sorted, for replay keys.
pub(super) fn stable_stringify(value: &Value) -> String {
    match value {
        Value::Array(items) => format!("[{}]", items.iter().map(stable_stringify).collect::<Vec<_>>().join(",")),
        Value::Object(object) => {
            let mut keys: Vec<&str> = object.keys().map(|k| k.as_str()).collect();
            keys.sort();
            let fields: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", Value::String(k.into()), stable_stringify(&object[k])))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        other => other.to_string(),
    }
}
