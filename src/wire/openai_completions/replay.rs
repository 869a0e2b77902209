//! `applyCompletionsReplay` (`openai-completions-stream-*.mjs`): what replayed assistant
//! messages may carry on the provider. On Google endpoints every tool call gets a Gemini
//! thought signature (`injectToolCallThoughtSignatures`); then the reasoning fields are kept
//! as OpenRouter reads them, kept as `reasoning_content` for providers that replay it, or
//! removed (`sanitizeCompletionsReasoningReplayFields`).

use std::collections::{HashMap, HashSet};

use crate::json;
use crate::model::json::{Map, Value};

use super::super::google::requires_tool_call_signature;
use super::super::{WireInput, WireItem, WireModel};
use super::compat::{Compat, ThinkingFormat};
use crate::openclaw::js::js_trim;

/// `GEMINI_THOUGHT_SIGNATURE_VALIDATOR_SKIP`.
const GEMINI_SKIP_SIGNATURE: &str = "skip_thought_signature_validator";
/// The reasoning fields a Chat Completions assistant message may replay.
const REASONING_FIELDS: [&str; 4] = ["reasoning_details", "reasoning_content", "reasoning", "reasoning_text"];
/// Models whose `reasoning_content` is replayed whatever the provider: `@openclaw/ai`'s
/// `REASONING_CONTENT_REPLAY_MODEL_IDS` (`openai-completions-stream`, 17 ids). OpenClaw's
/// transcript policy has its own list of that name without the two DeepSeek V4 ids
/// (`policy::predicates`); both are the release's, not a copy kept by hand.
const REASONING_CONTENT_MODELS: [&str; 17] = [
    "deepseek-v4-flash",
    "deepseek-v4-pro",
    "kimi-for-coding",
    "kimi-k2.5",
    "kimi-k2.6",
    "kimi-k2.7-code",
    "kimi-k2.7-code-highspeed",
    "kimi-k3",
    "kimi-k2-thinking",
    "kimi-k2-thinking-turbo",
    "mimo-v2-pro",
    "mimo-v2-omni",
    "mimo-v2.5",
    "mimo-v2.5-pro",
    "mimo-v2.6-flash",
    "mimo-v2.6-pro",
    "mimo-v2.6-pro-ultraspeed",
];

/// `applyCompletionsReplay`: Gemini thought signatures, then the reasoning fields the
/// provider accepts on replayed assistant messages.
pub(super) fn apply_replay(items: &mut [WireItem], inputs: &[WireInput], model: &WireModel, compat: &Compat) {
    inject_thought_signatures(items, inputs, model, compat);
    let openrouter = compat.thinking_format == ThinkingFormat::OpenRouter && openrouter_keeps_reasoning(model);
    let reasoning_content = keeps_reasoning_content(model, compat);
    for item in items.iter_mut().filter(|it| it.value["role"] == "assistant") {
        let Value::Object(record) = &mut item.value else {
            continue;
        };
        if openrouter {
            sanitize_openrouter_reasoning(record);
        } else if reasoning_content {
            if record.get("reasoning_content").is_some_and(|v| !v.is_string()) {
                record.shift_remove("reasoning_content");
            }
            for field in ["reasoning_details", "reasoning", "reasoning_text"] {
                record.shift_remove(field);
            }
        } else {
            for field in REASONING_FIELDS {
                record.shift_remove(field);
            }
        }
    }
}

/// `shouldPreserveOpenRouterReasoningReplay`: not for Anthropic or xAI models on OpenRouter.
fn openrouter_keeps_reasoning(model: &WireModel) -> bool {
    if model.provider != "openrouter" {
        return true;
    }
    let id = model.model.trim().to_lowercase();
    !(id.starts_with("anthropic/") || id.starts_with("x-ai/"))
}

/// `shouldPreserveReasoningContentReplay`.
fn keeps_reasoning_content(model: &WireModel, compat: &Compat) -> bool {
    let trusted =
        model.reasoning && model.provider.trim().to_lowercase() != "openai" && openrouter_keeps_reasoning(model);
    compat.requires_reasoning_content
        || matches!(compat.thinking_format, ThinkingFormat::DeepSeek | ThinkingFormat::Zai)
        || trusted
        || reasoning_model_candidates(&model.model)
            .iter()
            .any(|c| REASONING_CONTENT_MODELS.contains(&c.as_str()))
}

/// `getReasoningContentReplayModelIdCandidates`: the last path segment, its colon parts and
/// each without a `-free` / `-paid` / `-trial` tier suffix.
pub(super) fn reasoning_model_candidates(model_id: &str) -> Vec<String> {
    let normalized = model_id.trim().to_lowercase();
    if normalized.is_empty() {
        return Vec::new();
    }
    let last = normalized
        .split('/')
        .rfind(|s| !s.is_empty())
        .unwrap_or(&normalized)
        .to_string();
    let mut candidates = vec![last.clone()];
    let colon: Vec<&str> = last.split(':').filter(|s| !s.is_empty()).collect();
    if colon.len() > 1 {
        candidates.push(colon[0].to_string());
        candidates.push(colon[colon.len() - 1].to_string());
    }
    for index in 0..candidates.len() {
        let candidate = candidates[index].clone();
        if let Some(stripped) = ["-free", "-paid", "-trial"]
            .iter()
            .find_map(|suffix| candidate.strip_suffix(suffix).filter(|s| !s.is_empty()))
        {
            candidates.push(stripped.to_string());
        }
    }
    let mut seen = HashSet::new();
    candidates.retain(|c| !c.is_empty() && seen.insert(c.clone()));
    candidates
}

/// `sanitizeOpenRouterReasoningReplayFields`.
fn sanitize_openrouter_reasoning(record: &mut Map) {
    match record.get("reasoning_details").cloned() {
        Some(Value::String(details)) => {
            if !details.is_empty() && !record.get("reasoning").is_some_and(Value::is_string) {
                record.insert("reasoning".into(), Value::String(details));
            }
            record.shift_remove("reasoning_details");
        }
        Some(Value::Array(_)) | None => {}
        Some(_) => {
            record.shift_remove("reasoning_details");
        }
    }
    for field in ["reasoning", "reasoning_content"] {
        if record.get(field).is_some_and(|v| v.as_str().is_none_or(str::is_empty)) {
            record.shift_remove(field);
        }
    }
    if let Some(Value::String(text)) = record.get("reasoning_text").cloned()
        && !text.is_empty()
        && !record.get("reasoning").is_some_and(Value::is_string)
        && !record.get("reasoning_content").is_some_and(Value::is_string)
    {
        record.insert("reasoning".into(), Value::String(text));
    }
    record.shift_remove("reasoning_text");
}

/// `hasGoogleCompatThoughtSignatureTruncationFootprint`: an ellipsis, or base64 of a length
/// no encoder produces.
fn looks_truncated(signature: &str) -> bool {
    signature.contains('\u{2026}')
        || signature.contains("...")
        || (!signature.is_empty()
            && signature
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
            && !signature.encode_utf16().count().is_multiple_of(4))
}

/// `injectToolCallThoughtSignatures`: on Google endpoints each tool call carries
/// `extra_content.google.thought_signature`: the call's own signature when this model made
/// it, else (Gemini 3) the validator-skip sentinel.
fn inject_thought_signatures(items: &mut [WireItem], inputs: &[WireInput], model: &WireModel, compat: &Compat) {
    let google =
        model.provider == "google" || matches!(compat.endpoint_class, "google-generative-ai" | "google-vertex");
    if !google {
        return;
    }
    let fallback = requires_tool_call_signature(&model.model).then_some(GEMINI_SKIP_SIGNATURE);
    let mut by_id: HashMap<&str, &str> = HashMap::new();
    for input in inputs.iter().filter(|inp| inp.message.is_assistant()) {
        let same_route = model.produced(&input.message);
        for block in input
            .message
            .blocks()
            .filter(|b| b.str_field("type") == Some("toolCall"))
        {
            let (Some(id), Some(sig)) = (
                block.str_field("id"),
                block.str_field("thoughtSignature").filter(|s| !s.is_empty()),
            ) else {
                continue;
            };
            if same_route {
                by_id.insert(id, sig);
            } else if let Some(f) = fallback {
                by_id.insert(id, f);
            }
        }
    }
    if by_id.is_empty() && fallback.is_none() {
        return;
    }
    for item in items.iter_mut() {
        let Some(calls) = item.value.get_mut("tool_calls").and_then(Value::as_array_mut) else {
            continue;
        };
        for call in calls {
            let Some(id) = call.get("id").and_then(Value::as_str) else {
                continue;
            };
            let mut sig = by_id.get(id).copied().or(fallback);
            if sig.is_some_and(|s| !s.is_empty() && looks_truncated(js_trim(s))) {
                sig = fallback;
            }
            let Some(sig) = sig.filter(|s| !s.is_empty()) else {
                continue;
            };
            let Value::Object(call) = call else { continue };
            if !call.contains_key("extra_content") {
                call.insert("extra_content".into(), json!({}));
            }
            let extra = call.get_mut("extra_content").expect("inserted above");
            if !extra.is_object() {
                *extra = json!({});
            }
            let google = extra
                .as_object_mut()
                .map(|e| e.entry("google").or_insert_with(|| json!({})));
            if let Some(google) = google {
                if !google.is_object() {
                    *google = json!({});
                }
                google["thought_signature"] = Value::String(sig.to_string().into());
            }
        }
    }
}
