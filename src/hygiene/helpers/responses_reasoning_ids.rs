//! OpenAI Responses replay helpers used by `responses-reasoning`: replayable reasoning
//! signatures (`rs_…` items), `call_…|fc_…` id pairs, their normalization, and the
//! Responses `textSignature` phase.

use crate::model::json::Value;
use sha2::{Digest, Sha256};

use crate::model::ModelRef;
use crate::policy::Target;

/// The longest `call_id` / item id OpenAI Responses accepts.
pub const ID_MAX_LENGTH: usize = 64;

/// The `rs_…` id of an OpenAI reasoning item stored as a thinking signature: a JSON object
/// (or a string holding one, trimmed, `{…}`) whose `id` starts with `rs_` and whose `type` is
/// `reasoning` or starts with `reasoning.`.
pub fn reasoning_item_id(sig: Option<&Value>) -> Option<String> {
    let parsed;
    let obj = match sig? {
        Value::String(s) => {
            let t = s.trim();
            if !t.starts_with('{') || !t.ends_with('}') {
                return None;
            }
            parsed = serde_json::from_str::<Value>(t).ok()?;
            parsed.as_object()?.clone()
        }
        Value::Object(o) => o.clone(),
        _ => return None,
    };
    let id = obj.get("id").and_then(Value::as_str).unwrap_or("");
    let ty = obj.get("type").and_then(Value::as_str).unwrap_or("");
    (id.starts_with("rs_") && (ty == "reasoning" || ty.starts_with("reasoning."))).then(|| id.to_owned())
}

/// A `thinking` block whose `thinkingSignature` is a replayable OpenAI reasoning item; its id.
pub fn replayable_reasoning(block: &Value) -> Option<String> {
    if block.get("type").and_then(Value::as_str) != Some("thinking") {
        return None;
    }
    reasoning_item_id(block.get("thinkingSignature"))
}

/// A tool-call block as the Responses helpers see it (`toolCall`, `toolUse`, `functionCall`)
/// with a string `id`; that id.
pub fn responses_tool_call_id(block: &Value) -> Option<&str> {
    match block.get("type").and_then(Value::as_str) {
        Some("toolCall" | "toolUse" | "functionCall") => block.get("id").and_then(Value::as_str),
        _ => None,
    }
}

/// Split `call_x|fc_y` at the first `|` (only when both sides are non-empty).
pub fn split_pairing(id: &str) -> (&str, Option<&str>) {
    match id.find('|') {
        Some(sep) if sep > 0 && sep < id.len() - 1 => (&id[..sep], Some(&id[sep + 1..])),
        _ => (id, None),
    }
}

fn matches_shape(value: &str, prefix: &str) -> bool {
    let max_tail = if prefix == "call_" { 59 } else { 61 };
    value.strip_prefix(prefix).is_some_and(|tail| {
        (1..=max_tail).contains(&tail.len())
            && tail
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    })
}

/// Whether an id needs normalizing: the call part is not `call_[A-Za-z0-9_-]{1,59}`, or an
/// item part exists and is not `fc_[A-Za-z0-9_-]{1,61}`.
pub fn should_normalize(id: &str) -> bool {
    let (call, item) = split_pairing(id);
    !matches_shape(call, "call_") || item.is_some_and(|i| !matches_shape(i, "fc_"))
}

fn sha256_hex10(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest.iter().take(5).map(|b| format!("{b:02x}")).collect()
}

/// One id part shaped to `prefix` + a safe tail + `_` + 10 hex digits of its SHA-256, at most
/// 64 characters; a part that already has the shape is only trimmed.
fn normalize_part(value: &str, prefix: &str) -> String {
    let trimmed = value.trim();
    if matches_shape(trimmed, prefix) {
        return trimmed.to_owned();
    }
    let raw_tail = trimmed.strip_prefix(prefix).unwrap_or(trimmed);
    let hash_suffix = format!("_{}", sha256_hex10(if trimmed.is_empty() { prefix } else { trimmed }));
    let max_tail = ID_MAX_LENGTH - prefix.len();
    // JavaScript replaces each UTF-16 unit outside the alphabet by `_`.
    let mut safe = String::new();
    for c in raw_tail.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            safe.push(c);
        } else {
            safe.extend(std::iter::repeat_n('_', c.len_utf16()));
        }
    }
    let safe = safe.trim_matches('_');
    let keep = (max_tail.saturating_sub(hash_suffix.len())).max(1);
    let clipped: String = safe.chars().take(keep).collect();
    let base = if clipped.is_empty() { "id".to_owned() } else { clipped };
    let tail: String = format!("{base}{hash_suffix}").chars().take(max_tail).collect();
    format!("{prefix}{tail}")
}

/// `normalizeOpenAIResponsesFunctionCallId` (newest): the call part is shaped from the whole
/// pair (so a pair always gets a fresh hashed call id), the item part from the item id.
pub fn normalize_function_call_id(id: &str) -> String {
    normalize_function_call_id_as(id, false)
}

/// [`normalize_function_call_id`]; with `call_part_only` (OpenClaw up to 2026.7), the call part
/// of a `call|item` pair is rebuilt from the call part alone, not from the whole pair.
pub fn normalize_function_call_id_as(id: &str, call_part_only: bool) -> String {
    let (call, item) = split_pairing(id);
    match item {
        None => normalize_part(call, "call_"),
        Some(item) if call_part_only => format!("{}|{}", normalize_part(call, "call_"), normalize_part(item, "fc_")),
        Some(item) => format!(
            "{}|{}",
            normalize_part(&format!("{call}|{item}"), "call_"),
            normalize_part(item, "fc_")
        ),
    }
}

/// The Responses `phase` of a `{v:1, phase}` text signature.
pub fn text_signature_phase(sig: &Value) -> Option<&'static str> {
    let s = sig.as_str()?;
    if !s.starts_with('{') {
        return None;
    }
    let v: Value = serde_json::from_str(s).ok()?;
    if v.get("v").and_then(Value::as_f64) != Some(1.0) {
        return None;
    }
    match v.get("phase").and_then(Value::as_str) {
        Some("commentary") => Some("commentary"),
        Some("final_answer") => Some("final_answer"),
        _ => None,
    }
}

fn part_differs(a: Option<&str>, b: Option<&str>) -> bool {
    match (
        a.map(str::trim).filter(|s| !s.is_empty()),
        b.map(str::trim).filter(|s| !s.is_empty()),
    ) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

/// Whether two model selections differ in provider, API or model id. A part unknown on
/// either side never counts as a change (pi `model_change` entries carry no API).
pub fn models_differ(a: &ModelRef, b: &ModelRef) -> bool {
    part_differs(a.provider.as_deref(), b.provider.as_deref())
        || part_differs(a.api.as_deref(), b.api.as_deref())
        || part_differs(a.model.as_deref(), b.model.as_deref())
}

/// The target as a model selection.
pub fn target_model(t: &Target) -> ModelRef {
    ModelRef {
        provider: t.provider.clone(),
        api: t.api.clone(),
        model: t.model.clone(),
    }
}

/// `provider/api/model` for details (`?` for an unknown part).
pub fn describe_model(m: &ModelRef) -> String {
    let p = |s: &Option<String>| s.clone().unwrap_or_else(|| "?".to_owned());
    format!("{}/{}/{}", p(&m.provider), p(&m.api), p(&m.model))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn reasoning_signatures_are_rs_items() {
        assert_eq!(
            reasoning_item_id(Some(&json!(
                r#" {"id":"rs_1","type":"reasoning","encrypted_content":"x"} "#
            ))),
            Some("rs_1".to_owned())
        );
        assert_eq!(
            reasoning_item_id(Some(&json!({"id": "rs_2", "type": "reasoning.encrypted"}))),
            Some("rs_2".to_owned())
        );
        assert_eq!(
            reasoning_item_id(Some(&json!(r#"{"id":"msg_1","type":"reasoning"}"#))),
            None
        );
        assert_eq!(
            reasoning_item_id(Some(&json!(r#"{"id":"rs_1","type":"message"}"#))),
            None
        );
        assert_eq!(
            reasoning_item_id(Some(&json!("rs_1"))),
            None,
            "a bare id is not an item"
        );
        assert_eq!(reasoning_item_id(Some(&json!("{broken"))), None);
    }

    #[test]
    fn up_to_2026_7_the_call_part_is_rebuilt_from_itself() {
        // What openclaw@2026.7.35's normalizeOpenAIResponsesToolCallIds made of `call_1|item_2`.
        assert_eq!(
            normalize_function_call_id_as("call_1|item_2", true),
            "call_1|fc_item_2_6a9722cdf5"
        );
        assert_eq!(
            normalize_function_call_id_as("call_1|item_2", false),
            normalize_function_call_id("call_1|item_2")
        );
    }

    #[test]
    fn pairs_split_and_normalize() {
        assert_eq!(split_pairing("call_1|fc_1"), ("call_1", Some("fc_1")));
        assert_eq!(split_pairing("|fc_1"), ("|fc_1", None));
        assert_eq!(split_pairing("call_1|"), ("call_1|", None));
        assert!(!should_normalize("call_abc|fc_def"));
        assert!(!should_normalize("call_abc"));
        assert!(should_normalize("toolu_01"));
        assert!(should_normalize("call_abc|item_def"));
        assert!(should_normalize(&format!("call_{}", "a".repeat(60))));
        let n = normalize_function_call_id("toolu_01.x");
        assert_eq!(n, format!("call_toolu_01_x_{}", sha256_hex10("toolu_01.x")));
        let long = format!("call_{}", "b".repeat(80));
        let n = normalize_function_call_id(&long);
        assert_eq!(n.len(), 64);
        assert!(n.starts_with("call_bbbb") && n.ends_with(&sha256_hex10(&long)));
        let n = normalize_function_call_id("call_1|item_2");
        assert_eq!(
            n,
            format!(
                "call_1_item_2_{}|fc_item_2_{}",
                sha256_hex10("call_1|item_2"),
                sha256_hex10("item_2")
            )
        );
        assert_eq!(
            normalize_part("  ", "call_"),
            format!("call_id_{}", sha256_hex10("call_"))
        );
    }

    #[test]
    fn phases_and_model_differences() {
        assert_eq!(
            text_signature_phase(&json!(r#"{"v":1,"id":"msg_1","phase":"commentary"}"#)),
            Some("commentary")
        );
        assert_eq!(text_signature_phase(&json!("msg_1")), None);
        let m = |p: &str, a: Option<&str>, id: &str| ModelRef {
            provider: Some(p.into()),
            api: a.map(Into::into),
            model: Some(id.into()),
        };
        assert!(models_differ(
            &m("openai", Some("openai-responses"), "gpt-5"),
            &m("openai", Some("openai-responses"), "gpt-5.1")
        ));
        assert!(!models_differ(
            &m("openai", None, "gpt-5"),
            &m("openai", Some("openai-responses"), "gpt-5")
        ));
        assert_eq!(describe_model(&m("openai", None, "gpt-5")), "openai/?/gpt-5");
    }
}
