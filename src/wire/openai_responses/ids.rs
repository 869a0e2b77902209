//! Responses id shaping, with JavaScript's string semantics (strings are sequences of UTF-16
//! code units): the tool-call id normalizer the transcript transform runs, and long replayed
//! item ids.

use super::super::WireModel;
use super::super::transform::ids::{replace_unsafe_id_chars, short_hash, truncate_utf16};
use crate::model::Message;

/// Longest Responses `call_id` / item id part.
const ID_PART_MAX: usize = 64;

/// The Responses providers whose `call_id|item_id` pairs are kept as pairs
/// (`OPENAI_RESPONSES_TOOL_CALL_PROVIDERS`, `CODEX_TOOL_CALL_PROVIDERS` on the Codex route).
fn keeps_item_ids(provider: &str, provider_style: bool) -> bool {
    if provider_style {
        matches!(provider, "openai" | "opencode")
    } else {
        matches!(
            provider,
            "openai" | "opencode" | "azure-openai-responses" | "github-copilot"
        )
    }
}

/// The tool-call id normalizer `convertResponsesMessagesWithStyle` hands to the transcript
/// transform, for a call made by `source` and replayed to `model`.
///
/// Each part keeps `[A-Za-z0-9_-]` (trailing `_` trimmed) and at most 64 units. Providers
/// that keep item ids get `call|fc_item`; an item id from another provider or API is
/// replaced by `fc_<shortHash>`; GitHub Copilot's own item ids get an `fc_` prefix.
pub(crate) fn normalize_tool_call_id(id: &str, source: &Message, model: &WireModel) -> String {
    let provider_style = super::uses_provider_style(model);
    let sanitize = |part: &str| {
        let s = replace_unsafe_id_chars(part);
        if provider_style {
            s
        } else {
            s.trim_end_matches('_').to_string()
        }
    };
    let normalize = |part: &str| {
        truncate_utf16(&sanitize(part), ID_PART_MAX)
            .trim_end_matches('_')
            .to_string()
    };
    let Some((call, item)) = id
        .split_once('|')
        .filter(|_| keeps_item_ids(&model.provider, provider_style))
    else {
        return normalize(id);
    };
    let foreign = || {
        let hashed = format!("fc_{}", short_hash(item));
        truncate_utf16(&hashed, ID_PART_MAX)
    };
    let mut item_id = if source.provider() != Some(model.provider.as_str()) || source.api() != Some(model.api.as_str())
    {
        foreign()
    } else if model.provider == "github-copilot" {
        if provider_style {
            normalize(item)
        } else {
            let s = sanitize(item);
            let candidate = if s.starts_with("fc_") { s } else { format!("fc_{s}") };
            if candidate.encode_utf16().count() > ID_PART_MAX {
                foreign()
            } else {
                candidate
            }
        }
    } else {
        normalize(item)
    };
    if !item_id.starts_with("fc_") {
        item_id = normalize(&format!("fc_{item_id}"));
    }
    format!("{}|{}", normalize(call), item_id)
}

/// `normalizeResponsesReplayItemId`: an id longer than 64 units becomes `<prefix>_<shortHash>`.
pub(crate) fn shorten_item_id(id: &str, prefix: &str) -> String {
    if id.encode_utf16().count() <= ID_PART_MAX {
        id.to_string()
    } else {
        format!("{prefix}_{}", short_hash(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn source(provider: &str, api: &str) -> Message {
        Message::from_value(json!({"role": "assistant", "provider": provider, "api": api, "model": "m"})).unwrap()
    }

    #[test]
    fn pairs_keep_their_call_part_and_get_an_fc_item() {
        let openai = WireModel::new("openai", "openai-responses", "gpt-5");
        let own = source("openai", "openai-responses");
        assert_eq!(normalize_tool_call_id("call_1|fc_1", &own, &openai), "call_1|fc_1");
        assert_eq!(normalize_tool_call_id("call.1|item", &own, &openai), "call_1|fc_item");
        let foreign = source("anthropic", "anthropic-messages");
        assert_eq!(
            normalize_tool_call_id("call_1|fc_1", &foreign, &openai),
            format!("call_1|fc_{}", short_hash("fc_1"))
        );
        let other = WireModel::new("custom-x", "openai-responses", "m");
        assert_eq!(normalize_tool_call_id("call_1|fc_1", &own, &other), "call_1_fc_1");
        assert_eq!(normalize_tool_call_id("toolu_01.x__", &own, &other), "toolu_01_x");
    }

    #[test]
    fn long_item_ids_are_hashed() {
        assert_eq!(shorten_item_id("msg_1", "msg"), "msg_1");
        let long = "m".repeat(65);
        assert_eq!(shorten_item_id(&long, "msg"), format!("msg_{}", short_hash(&long)));
    }
}
