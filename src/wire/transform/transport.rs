//! OpenClaw's own pre-conversion transform, `transformTransportMessages`
//! (`src/agents/transport-message-transform.ts`, installed into `@openclaw/ai` by the runtime
//! host): used by the Anthropic Messages, Google Generative AI and OpenAI Responses transports.
//!
//! 1. Every assistant turn is projected for the target: thinking kept, turned into text or
//!    dropped by the model-bound replay mode and the same-model test; another model's tool
//!    calls lose `async` and `thoughtSignature` and get the transport's id normalization,
//!    which later results of the same id follow. Synthetic missing results get the transport's
//!    text (`No result provided`, `aborted` on Responses).
//! 2. Reasoning-only `length` turns are dropped; failed turns are dropped or replayed as a
//!    marker (`resolveFailedAssistantReplay`).
//! 3. On APIs that need every call answered (or after a cross-model async call), the pairing
//!    repair runs once more with `erroredAssistantResultPolicy: "drop"`.

use std::collections::HashMap;

use crate::json;
use crate::model::json::Value;

use crate::model::Message;
use crate::openclaw::js::truthy;
use crate::openclaw::pairing::classify::{ErroredPolicy, Item, Options, plan, tool_calls};
use crate::openclaw::synthetic::{SYNTHETIC_MARKER, is_synthetic_result};
use crate::wire::blocks::block_type;
use crate::wire::openai_responses::RESPONSES_APIS;
use crate::wire::{WireInput, WireModel};

use super::claude::{ReplayRef, ThinkingReplayMode, thinking_replay_mode};
use super::common::{
    FAILED_ASSISTANT_REPLAY_TEXT, FailedReplay, as_record, failed_replay, is_reasoning_only_length_turn, project_text,
    project_thinking, text_block, with_field,
};
use super::ids::Normalizer;

/// APIs whose transport repairs tool-result pairing (`SYNTHETIC_TOOL_RESULT_APIS`): these
/// and the Responses APIs.
const SYNTHETIC_TOOL_RESULT_APIS: [&str; 5] = [
    "anthropic-messages",
    "openclaw-anthropic-messages-transport",
    "bedrock-converse-stream",
    "google-generative-ai",
    "openclaw-google-generative-ai-transport",
];

/// The text of a synthetic missing result on `api`: `aborted` on the Responses APIs
/// (`OPENAI_RESPONSES_ABORTED_OUTPUT_APIS`), else `No result provided`.
pub fn synthetic_result_text(api: &str) -> &'static str {
    if RESPONSES_APIS.contains(&api) {
        "aborted"
    } else {
        "No result provided"
    }
}

/// The transport's options to `transformTransportMessages`.
#[derive(Debug, Clone, Copy, Default)]
pub struct TransportOptions {
    /// `normalizeSameModelToolCallIds` (GitHub Copilot Responses).
    pub normalize_same_model_ids: bool,
    /// `preserveCrossModelToolCallThoughtSignature` (Gemini 3 on Google).
    pub preserve_cross_model_thought_signature: bool,
}

/// The target model as the transform sees it.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    /// `model.provider`
    pub provider: &'a str,
    /// `model.api`
    pub api: &'a str,
    /// `model.id`
    pub id: &'a str,
    /// `model.params.canonicalModelId`, when configured.
    pub canonical_id: Option<&'a str>,
}

impl<'a> Target<'a> {
    /// The target of `model`, as configured.
    pub fn of(model: &'a WireModel) -> Self {
        Self {
            provider: &model.provider,
            api: &model.api,
            id: &model.model,
            canonical_id: model.canonical_model_id.as_deref(),
        }
    }

    /// The replay-mode view of the target.
    pub fn replay_ref(&self) -> ReplayRef<'a> {
        ReplayRef {
            provider: Some(self.provider),
            api: Some(self.api),
            model_id: Some(self.id),
            response_model_id: None,
            canonical_model_id: self.canonical_id,
        }
    }
}

/// The replay-mode view of a source assistant turn.
pub fn source_ref(m: &Message) -> ReplayRef<'_> {
    ReplayRef {
        provider: m.str_field("provider"),
        api: m.str_field("api"),
        model_id: m.str_field("model"),
        response_model_id: m.str_field("responseModel"),
        canonical_model_id: None,
    }
}

/// `msg.provider === model.provider && msg.api === model.api && msg.model === model.id`.
pub fn strictly_same_model(m: &Message, target: &Target<'_>) -> bool {
    m.str_field("provider") == Some(target.provider)
        && m.str_field("api") == Some(target.api)
        && m.str_field("model") == Some(target.id)
}

/// `transformTransportMessages(messages, model, normalizeToolCallId, options)`.
pub fn transform(
    inputs: Vec<WireInput>,
    target: Target<'_>,
    mut normalize: Option<&mut Normalizer<'_>>,
    options: TransportOptions,
) -> Vec<WireInput> {
    let allow_synthetic = SYNTHETIC_TOOL_RESULT_APIS.contains(&target.api) || RESPONSES_APIS.contains(&target.api);
    let synthetic_text = synthetic_result_text(target.api);
    let mut id_map: HashMap<String, String> = HashMap::new();
    let mut cross_model_async = false;

    let transformed: Vec<Message> = inputs
        .iter()
        .map(|input| {
            let msg = &input.message;
            match msg.str_field("role") {
                Some("user") => msg.clone(),
                Some("toolResult") => {
                    let mut result = if is_synthetic_result(msg) && !is_exact_text(msg.content(), synthetic_text) {
                        let mut details = msg.get("details").and_then(as_record).cloned().unwrap_or_default();
                        details.insert(SYNTHETIC_MARKER.to_owned().into(), Value::Bool(true));
                        let mut r = with_field(msg, "content", json!([text_block(synthetic_text)]));
                        r.set("details", Value::Object(details));
                        r
                    } else {
                        msg.clone()
                    };
                    if let Some(id) = msg.str_field("toolCallId")
                        && let Some(mapped) = id_map.get(id)
                        && mapped != id
                    {
                        result.set("toolCallId", Value::String(mapped.clone().into()));
                    }
                    result
                }
                Some("assistant") => transform_assistant(
                    msg,
                    &target,
                    &mut normalize,
                    &options,
                    &mut id_map,
                    &mut cross_model_async,
                ),
                _ => msg.clone(),
            }
        })
        .collect();

    let requires_pairing = allow_synthetic || cross_model_async;
    let mut kept: Vec<WireInput> = Vec::with_capacity(inputs.len());
    for (input, message) in inputs.into_iter().zip(transformed) {
        let original = &input.message;
        if is_reasoning_only_length_turn(original) {
            continue;
        }
        let message = match failed_replay(original, requires_pairing) {
            FailedReplay::Drop => continue,
            FailedReplay::Marker => with_field(&message, "content", json!([text_block(FAILED_ASSISTANT_REPLAY_TEXT)])),
            FailedReplay::Keep => message,
        };
        kept.push(WireInput {
            message,
            source: input.source,
        });
    }
    if !requires_pairing {
        return kept;
    }
    repair_pairing(kept, synthetic_text)
}

/// `content` is exactly `[{type:"text", text}]`.
fn is_exact_text(content: Option<&Value>, text: &str) -> bool {
    match content {
        Some(Value::Array(a)) if a.len() == 1 => {
            block_type(&a[0]) == Some("text") && a[0].get("text").and_then(Value::as_str) == Some(text)
        }
        _ => false,
    }
}

/// One assistant turn of `transformTransportMessages`.
fn transform_assistant(
    msg: &Message,
    target: &Target<'_>,
    normalize: &mut Option<&mut Normalizer<'_>>,
    options: &TransportOptions,
    id_map: &mut HashMap<String, String>,
    cross_model_async: &mut bool,
) -> Message {
    let mode = thinking_replay_mode(&source_ref(msg), &target.replay_ref());
    let same = mode == ThinkingReplayMode::Preserve || strictly_same_model(msg, target);
    let source: Vec<&Value> = match msg.content() {
        Some(Value::Array(a)) => a.iter().collect(),
        Some(v @ Value::Object(_)) => vec![v],
        _ => Vec::new(),
    };
    let mut content = Vec::with_capacity(source.len());
    for block in source {
        match block_type(block) {
            Some("thinking") => content.extend(project_thinking(block, mode, same)),
            Some("text") => content.push(project_text(block, same)),
            Some("toolCall") => {
                let mut call = block.clone();
                if !same && truthy(block.get("async")) {
                    *cross_model_async = true;
                    remove_key(&mut call, "async");
                }
                if !same && truthy(block.get("thoughtSignature")) && !options.preserve_cross_model_thought_signature {
                    remove_key(&mut call, "thoughtSignature");
                }
                if (!same || options.normalize_same_model_ids)
                    && let Some(n) = normalize.as_deref_mut()
                    && let Some(id) = block.get("id").and_then(Value::as_str)
                {
                    let normalized = n(id, msg);
                    if normalized != id {
                        id_map.insert(id.to_owned(), normalized.clone());
                        if let Some(obj) = call.as_object_mut() {
                            obj.insert("id".into(), Value::String(normalized.into()));
                        }
                    }
                }
                content.push(call);
            }
            _ => content.push(block.clone()),
        }
    }
    // A turn whose blocks all come through as they were is passed on as it is, shared with
    // the replay rather than copied.
    if let Some(Value::Array(stored)) = msg.content()
        && *stored.as_slice() == content[..]
    {
        return msg.clone();
    }
    with_field(msg, "content", Value::Array(content.into()))
}

/// `delete block[key]`, keeping the order of the other keys.
pub fn remove_key(block: &mut Value, key: &str) {
    if let Some(obj) = block.as_object_mut() {
        obj.shift_remove(key);
    }
}

/// `repairToolUseResultPairing(messages, {erroredAssistantResultPolicy: "drop",
/// missingToolResultText})`, keeping provenance; a synthesized result has no source.
/// (`preserveUnframedToolResults` only comes with a Responses compaction window, which is
/// not replayed here.)
pub fn repair_pairing(inputs: Vec<WireInput>, missing_text: &str) -> Vec<WireInput> {
    let view: Vec<&Message> = inputs.iter().map(|i| &i.message).collect();
    let opts = Options {
        errored: ErroredPolicy::Drop,
        missing_text,
    };
    let Some(planned) = plan(&view, &opts) else {
        return inputs;
    };
    // Upstream's synthetic result takes the call's name as it is (`toolName ?? "unknown"`),
    // while the history port trims it: the names are put back here. Each frame's output is its
    // assistant, then one result per call occurrence, in order.
    let mut frame_calls: Vec<Option<String>> = Vec::new();
    let mut position = 0;
    let copy_sources = planned.copy_sources(|of| inputs.get(of).map(|i| i.source.to_vec()));
    let mut slots: Vec<Option<WireInput>> = inputs.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(planned.items.len());
    for item in planned.items {
        match item {
            Item::Kept { index, change, .. } => {
                if let Some(mut input) = slots.get_mut(index).and_then(Option::take) {
                    if let Some((message, _)) = change {
                        input.message = message;
                    }
                    let calls = tool_calls(&input.message);
                    if input.message.is_assistant() && !calls.is_empty() {
                        frame_calls = calls.iter().map(|c| c.name.map(str::to_owned)).collect();
                        position = 0;
                    } else if input.message.is_tool_result() && position < frame_calls.len() {
                        position += 1;
                    }
                    out.push(input);
                }
            }
            Item::Copy { message, of, .. } => out.push(WireInput {
                message,
                source: copy_sources.get(&of).map(|s| s[..].into()).unwrap_or_default(),
            }),
            Item::Synthetic { mut message, .. } => {
                if let Some(name) = frame_calls.get(position) {
                    message.set(
                        "toolName",
                        Value::String(name.clone().unwrap_or_else(|| "unknown".to_owned()).into()),
                    );
                    position += 1;
                }
                out.push(WireInput {
                    message,
                    source: Default::default(),
                });
            }
        }
    }
    out
}
