//! GitHub Copilot's stream wrapper on `openai-responses` (`wrapCopilotOpenAIResponsesStream`
//! with `sanitizeCopilotReplayResponsePayload`, `extensions/github-copilot/stream.ts` and
//! `connection-bound-ids.ts` of OpenClaw 2026.9.6), which patches `input` before it is sent,
//! walking the items from the last:
//!
//! - a reasoning item with a `null` status loses it; one without a non-empty
//!   `encrypted_content`, or whose status is not `completed`, is dropped, and so is one whose
//!   id is neither an `rs_…` replay id (≤ 64) nor connection-bound (a connection-bound id is
//!   removed instead); when a reasoning item is dropped, the assistant message after it loses
//!   its `id`;
//! - any other item whose `id` looks connection-bound (≥ 24 base64 characters decoding to at
//!   least 16 bytes, not an `rs_`/`msg_`/`fc_` id) gets `fc_`/`msg_` plus the first 16 hex
//!   digits of the id's SHA-256.

use std::sync::LazyLock;

use regex::Regex;
use sha2::{Digest, Sha256};

use crate::model::json::Value;

use super::super::{WireItem, WireModel};

static NATIVE_ITEM_ID: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:rs|msg|fc)_[A-Za-z0-9_-]+$").expect("regex"));
static BASE64_ID: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[A-Za-z0-9+/_-]+=*$").expect("regex"));
static REASONING_REPLAY_ID: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^rs_[A-Za-z0-9_-]+$").expect("regex"));

/// Whether the wrapper patches requests to `model` (provider `github-copilot` on the
/// `openai-responses` API id itself).
pub(super) fn applies(model: &WireModel) -> bool {
    model.provider == "github-copilot" && model.api == "openai-responses"
}

/// `looksLikeConnectionBoundId`.
fn connection_bound(id: &str) -> bool {
    if id.encode_utf16().count() < 24 || NATIVE_ITEM_ID.is_match(id) || !BASE64_ID.is_match(id) {
        return false;
    }
    // What `Buffer.from(id, "base64")` decodes: 6 bits per character before the padding.
    id.trim_end_matches('=').len() * 3 / 4 >= 16
}

/// `deriveReplacementId`.
fn replacement_id(item_type: Option<&str>, id: &str) -> String {
    let prefix = if item_type == Some("function_call") {
        "fc"
    } else {
        "msg"
    };
    let digest = Sha256::digest(id.as_bytes());
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    format!("{prefix}_{hex}")
}

fn str_of<'a>(item: &'a Value, key: &str) -> Option<&'a str> {
    item.get(key).and_then(Value::as_str)
}

/// What happens to a reasoning item.
enum Reasoning {
    Keep,
    RemoveId,
    Drop,
}

fn reasoning(item: &mut Value) -> Reasoning {
    let Some(o) = item.as_object_mut() else {
        return Reasoning::Keep;
    };
    if o.get("status").is_some_and(Value::is_null) {
        o.shift_remove("status");
    }
    let replayable = o
        .get("encrypted_content")
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty())
        && o.get("status").is_none_or(|s| s.as_str() == Some("completed"));
    if !replayable {
        return Reasoning::Drop;
    }
    match o.get("id") {
        None => Reasoning::Keep,
        Some(Value::String(id)) if id.encode_utf16().count() <= 64 && REASONING_REPLAY_ID.is_match(id) => {
            Reasoning::Keep
        }
        Some(Value::String(id)) if connection_bound(id) => Reasoning::RemoveId,
        Some(_) => Reasoning::Drop,
    }
}

/// Patch the `input` items as the wrapper does.
pub(super) fn sanitize(items: &mut Vec<WireItem>) {
    for index in (0..items.len()).rev() {
        let value = &mut items[index].value;
        if !value.is_object() {
            continue;
        }
        if str_of(value, "type") == Some("reasoning") {
            match reasoning(value) {
                Reasoning::Keep => {}
                Reasoning::RemoveId => {
                    value.as_object_mut().map(|o| o.shift_remove("id"));
                }
                Reasoning::Drop => {
                    items.remove(index);
                    if let Some(next) = items.get_mut(index)
                        && str_of(&next.value, "type") == Some("message")
                        && str_of(&next.value, "role") == Some("assistant")
                    {
                        next.value.as_object_mut().map(|o| o.shift_remove("id"));
                    }
                }
            }
            continue;
        }
        let Some(id) = str_of(value, "id").filter(|id| !id.is_empty() && connection_bound(id)) else {
            continue;
        };
        let replacement = replacement_id(str_of(value, "type"), id);
        value["id"] = Value::String(replacement.into());
    }
}

/// Expectations of `matches_openclaw_on_every_oracle_case` are OpenClaw 2026.9.6's own output:
/// `copilot_cases.json` holds message arrays and the `input` `oracle/openclaw_payload.mjs`
/// captured for them on provider `github-copilot` (the plugin's wrapper run).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::WireApi;
    use crate::wire::test_support::{assert_matches_every_case, built, oracle_cases, values};

    #[test]
    fn matches_openclaw_on_every_oracle_case() {
        let cases = oracle_cases(include_str!("copilot_cases.json"), "", 2);
        assert!(cases.iter().all(|c| applies(&c.model)));
        assert_matches_every_case(&cases, |case| {
            values(&built(WireApi::OpenAiResponses, &case.messages, &case.model))
        });
    }

    #[test]
    fn connection_bound_ids_are_long_base64_that_is_not_a_native_id() {
        assert!(connection_bound(&"A".repeat(24)) && !connection_bound(&"A".repeat(23)));
        assert!(!connection_bound(&format!("{}===", "A".repeat(21))));
        assert!(!connection_bound(&format!("fc_{}", "A".repeat(30))));
        assert!(!connection_bound(&format!("{}.x", "A".repeat(30))));
    }
}
