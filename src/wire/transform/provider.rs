//! `@openclaw/ai`'s own transcript transform (`transformMessages`,
//! `packages/ai/src/transcript-transform.ts`, inherited from pi-ai) and its provider wrapper
//! `transformProviderMessages`: used by the OpenAI Chat Completions and Mistral transports,
//! and by the Bedrock plugin (`transformMessages` from the plugin SDK).
//!
//! Unlike OpenClaw's runtime transform it relocates another model's async tool results to
//! their call, trims ids, synthesizes `No result provided` results itself (no details marker,
//! always), never drops reasoning-only `length` turns, and replaces images for text-only
//! models.

use std::collections::{HashMap, HashSet};

use crate::json;
use crate::model::json::Value;

use crate::model::Message;
use crate::openclaw::js::js_trim;
use crate::openclaw::js::truthy;
use crate::wire::WireInput;
use crate::wire::blocks::block_type;
use crate::wire::tool_result::has_media_payload;

use super::claude::{ThinkingReplayMode, thinking_replay_mode};
use super::common::{
    FAILED_ASSISTANT_REPLAY_TEXT, FailedReplay, failed_replay, project_text, project_thinking, text_block, with_field,
};
use super::ids::Normalizer;
use super::transport::{Target, remove_key, source_ref, strictly_same_model};

/// `NON_VISION_USER_IMAGE_PLACEHOLDER`
pub const USER_IMAGE_PLACEHOLDER: &str = "(image omitted: model does not support images)";
/// `NON_VISION_TOOL_IMAGE_PLACEHOLDER`
pub const TOOL_IMAGE_PLACEHOLDER: &str = "(tool image omitted: model does not support images)";

/// `replaceImagesWithPlaceholder`: each image with a payload becomes the placeholder text
/// (never twice in a row); an image without one disappears.
fn replace_images(content: &[Value], placeholder: &str) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(content.len());
    for block in content {
        if block_type(block) != Some("image") {
            out.push(block.clone());
            continue;
        }
        let repeated = out.last().is_some_and(|p| {
            block_type(p) == Some("text") && p.get("text").and_then(Value::as_str) == Some(placeholder)
        });
        if has_media_payload(block) && !repeated {
            out.push(text_block(placeholder));
        }
    }
    out
}

/// The id of a tool-call-like block, trimmed (`block.id.trim()`).
fn trimmed_id(block: &Value) -> Option<&str> {
    block.get("id").and_then(Value::as_str).map(js_trim)
}

/// `transformAssistant`.
fn transform_assistant(
    message: &Message,
    target: &Target<'_>,
    id_map: &mut HashMap<String, String>,
    normalize: &mut Option<&mut Normalizer<'_>>,
) -> Message {
    let mode = thinking_replay_mode(&source_ref(message), &target.replay_ref());
    let same = mode == ThinkingReplayMode::Preserve || strictly_same_model(message, target);
    let blocks: Vec<Value> = match message.content() {
        Some(Value::String(s)) => vec![text_block(s)],
        Some(Value::Array(a)) => a.to_vec(),
        _ => Vec::new(),
    };
    let mut content = Vec::with_capacity(blocks.len());
    for block in blocks {
        match block_type(&block) {
            Some("thinking") => content.extend(project_thinking(&block, mode, same)),
            Some("text") => content.push(project_text(&block, same)),
            // Every other block is read as a tool call (upstream throws on one without an id).
            _ => {
                let Some(trimmed) = trimmed_id(&block).map(str::to_owned) else {
                    content.push(block);
                    continue;
                };
                let original = block.get("id").and_then(Value::as_str).unwrap_or_default().to_owned();
                let mut out = block;
                if same {
                    if trimmed != original {
                        set_id(&mut out, &trimmed);
                    }
                    content.push(out);
                    continue;
                }
                remove_key(&mut out, "thoughtSignature");
                remove_key(&mut out, "async");
                let id = match normalize.as_deref_mut() {
                    Some(n) => n(&trimmed, message),
                    None => trimmed.clone(),
                };
                if id != trimmed {
                    id_map.insert(trimmed.clone(), id.clone());
                }
                if id != original {
                    set_id(&mut out, &id);
                }
                content.push(out);
            }
        }
    }
    with_field(message, "content", Value::Array(content.into()))
}

fn set_id(block: &mut Value, id: &str) {
    if let Some(obj) = block.as_object_mut() {
        obj.insert("id".into(), Value::String(id.to_owned().into()));
    }
}

/// `transformMessages(messages, model, normalizeToolCallId)`.
pub fn transform(
    inputs: Vec<WireInput>,
    target: Target<'_>,
    supports_images: bool,
    mut normalize: Option<&mut Normalizer<'_>>,
) -> Vec<WireInput> {
    let source = relocate_async_results(inputs, &target);
    let mut id_map: HashMap<String, String> = HashMap::new();
    let mut result: Vec<WireInput> = Vec::with_capacity(source.len());
    // Pending calls as (id, name); async calls wait for the end of the transcript.
    let mut pending: Vec<(Option<String>, Option<Value>)> = Vec::new();
    let mut pending_async: Vec<(Option<String>, Option<Value>)> = Vec::new();
    let mut answered: HashSet<String> = HashSet::new();

    let flush = |pending: &mut Vec<(Option<String>, Option<Value>)>,
                 answered: &mut HashSet<String>,
                 result: &mut Vec<WireInput>| {
        for (id, name) in pending.drain(..) {
            if id.as_ref().is_some_and(|id| answered.contains(id)) {
                continue;
            }
            let mut m = crate::model::json::Map::new();
            m.insert("role".into(), json!("toolResult"));
            if let Some(id) = id {
                m.insert("toolCallId".into(), Value::String(id.into()));
            }
            if let Some(name) = name {
                m.insert("toolName".into(), name);
            }
            m.insert("content".into(), json!([text_block("No result provided")]));
            m.insert("isError".into(), Value::Bool(true));
            result.push(WireInput {
                message: Message::from_map(m),
                source: Default::default(),
            });
        }
        answered.clear();
    };

    for input in source {
        let WireInput { mut message, source } = input;
        if matches!(message.content(), None | Some(Value::Null)) {
            message.set("content", json!([]));
        }
        if message.is_assistant() {
            let failed = failed_replay(&message, false);
            let message = transform_assistant(&message, &target, &mut id_map, &mut normalize);
            flush(&mut pending, &mut answered, &mut result);
            match failed {
                FailedReplay::Drop => continue,
                FailedReplay::Marker => {
                    result.push(WireInput {
                        message: with_field(&message, "content", json!([text_block(FAILED_ASSISTANT_REPLAY_TEXT)])),
                        source,
                    });
                    continue;
                }
                FailedReplay::Keep => {}
            }
            for block in message.content_array().into_iter().flatten() {
                if block_type(block) != Some("toolCall") {
                    continue;
                }
                let call = (
                    block.get("id").and_then(Value::as_str).map(str::to_owned),
                    block.get("name").cloned(),
                );
                if truthy(block.get("async")) {
                    // A Map keyed by id: a later call of the same id replaces the earlier one in place.
                    match pending_async.iter_mut().find(|(id, _)| *id == call.0) {
                        Some(slot) => *slot = call,
                        None => pending_async.push(call),
                    }
                } else {
                    pending.push(call);
                }
            }
            result.push(WireInput { message, source });
            continue;
        }
        if !supports_images && let Some(Value::Array(content)) = message.content() {
            let placeholder = if message.is_user() {
                USER_IMAGE_PLACEHOLDER
            } else {
                TOOL_IMAGE_PLACEHOLDER
            };
            let replaced = replace_images(content, placeholder);
            message.set("content", Value::Array(replaced.into()));
        }
        if message.is_tool_result() {
            if let Some(raw) = message.str_field("toolCallId").map(str::to_owned) {
                let trimmed = js_trim(&raw).to_owned();
                let id = id_map.get(&trimmed).cloned().unwrap_or(trimmed);
                if id != raw {
                    message.set("toolCallId", Value::String(id.clone().into()));
                }
                pending_async.retain(|(pid, _)| pid.as_deref() != Some(id.as_str()));
                answered.insert(id);
            }
        } else {
            flush(&mut pending, &mut answered, &mut result);
        }
        result.push(WireInput { message, source });
    }
    pending.append(&mut pending_async);
    flush(&mut pending, &mut answered, &mut result);
    result
}

/// The pre-pass of `transformMessages`: a result of another model's async call moves to just
/// after the assistant turn that made it.
fn relocate_async_results(inputs: Vec<WireInput>, target: &Target<'_>) -> Vec<WireInput> {
    let mut owners: HashMap<String, usize> = HashMap::new();
    let mut relocated: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut moved: HashSet<usize> = HashSet::new();
    for (i, input) in inputs.iter().enumerate() {
        let m = &input.message;
        if m.is_assistant() {
            let same = strictly_same_model(m, target);
            for block in m.content_array().into_iter().flatten() {
                if block_type(block) != Some("toolCall") {
                    continue;
                }
                let Some(id) = trimmed_id(block) else { continue };
                if truthy(block.get("async")) && !same {
                    owners.insert(id.to_owned(), i);
                } else {
                    owners.remove(id);
                }
            }
        } else if m.is_tool_result()
            && let Some(id) = m.str_field("toolCallId").map(js_trim)
            && let Some(owner) = owners.remove(id)
        {
            relocated.entry(owner).or_default().push(i);
            moved.insert(i);
        }
    }
    if moved.is_empty() {
        return inputs;
    }
    let mut slots: Vec<Option<WireInput>> = inputs.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(slots.len());
    for i in 0..slots.len() {
        if moved.contains(&i) {
            continue;
        }
        if let Some(input) = slots[i].take() {
            out.push(input);
        }
        for &r in relocated.get(&i).map_or(&[][..], |a| a.as_slice()) {
            if let Some(input) = slots[r].take() {
                out.push(input);
            }
        }
    }
    out
}

/// `IMAGE_OMISSION` of `transformProviderMessages`.
const IMAGE_OMISSION: &str = "(image omitted: model does not support images)";

/// `VIDEO_OMISSION` of `transformProviderMessages`: no model object of replaylens takes
/// video input, so every video block with data becomes this text.
const VIDEO_OMISSION: &str = "(video omitted: provider does not support video input)";

/// `transformProviderMessages`: user turns keep text and (on vision models) images; any
/// other block becomes the video or image omission text when it carries data, then
/// `transformMessages`.
pub fn transform_provider(
    inputs: Vec<WireInput>,
    target: Target<'_>,
    supports_images: bool,
    normalize: Option<&mut Normalizer<'_>>,
) -> Vec<WireInput> {
    let projected = inputs
        .into_iter()
        .map(|mut input| {
            if input.message.is_user()
                && let Some(content) = input.message.content_array()
            {
                let mut out: Vec<Value> = Vec::with_capacity(content.len());
                for block in content {
                    let t = block_type(block);
                    if t == Some("text") || (t == Some("image") && supports_images) {
                        out.push(block.clone());
                        continue;
                    }
                    let omission = if t == Some("video") {
                        VIDEO_OMISSION
                    } else {
                        IMAGE_OMISSION
                    };
                    let repeated = out.last().is_some_and(|p| {
                        block_type(p) == Some("text") && p.get("text").and_then(Value::as_str) == Some(omission)
                    });
                    if has_media_payload(block) && !repeated {
                        out.push(text_block(omission));
                    }
                }
                input.message.set("content", Value::Array(out.into()));
            }
            input
        })
        .collect();
    transform(projected, target, supports_images, normalize)
}
