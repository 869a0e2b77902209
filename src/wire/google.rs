//! Gemini API (`google-generative-ai`): the `contents` array.
//!
//! Port of the Google transport OpenClaw 2026.9.6 runs for this API: `convertGoogleMessages`
//! of the bundled google plugin (`openclaw/dist/transport-stream-*.mjs`,
//! `extensions/google/transport-stream.ts`) hands the transformed messages to
//! `projectGoogleMessages` (`@openclaw/ai/dist/google-messages-*.mjs`) in its `managed`
//! replay mode, and `materializeGoogleVideoSlots` rewrites video parts before the body is
//! serialized. [`convert`] is both.
//!
//! - `user` → `{role:"user", parts}`: text parts (blank text becomes `" "`), `inlineData`
//!   for any other block (dropped when the model takes no images), a lone `" "` part when
//!   nothing is left.
//! - `assistant` → `{role:"model", parts}`, skipped when no part is left: blank text and
//!   thinking are dropped; thinking of the same model is a `thought:true` part, of another
//!   model plain text; `thoughtSignature` (base64 only) is kept only for turns of the same
//!   provider, API and model; tool calls are `functionCall` parts with coerced object
//!   `args`, an `id` when the turn is the model's own or the model needs ids (Claude and
//!   gpt-oss ids on Gemini-compatible servers), and on Gemini 3 the signature of the same
//!   call replayed earlier, else the `skip_thought_signature_validator` sentinel.
//! - a run of consecutive `toolResult` messages → one `user` content of `functionResponse`
//!   parts (`response.output`, or `response.error` for an error result); images ride in
//!   `functionResponse.parts` on models that take multimodal function responses, else in a
//!   `Tool result image:` user turn after the run.
//! - other roles produce nothing but end a tool-result run; an empty conversation is one
//!   `user` content with a `" "` part.

mod signatures;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use crate::json;
use crate::model::json::{Map, Value};
use regex::Regex;

use signatures::{signature, stable_stringify, stored_signature};

use super::blocks::{block_type, coerce_arguments, payload_text};
use super::tool_result::{media_placeholder, tool_result_text};
use super::{WireInput, WireItem, WireModel};
use crate::model::{Message, Role};
use crate::openclaw::assistant_text::is_blank;
use crate::openclaw::js::js_trim;
use crate::openclaw::js::{join_element, put, truthy};

/// The signature Gemini 3 accepts on a function call whose own signature is unknown.
pub const THOUGHT_SIGNATURE_VALIDATOR_SKIP: &str = "skip_thought_signature_validator";

/// Text that replaces a video the request cannot carry natively.
const VIDEO_SLOT_OMISSION: &str = "(video omitted: native video slot unavailable)";

/// Text that replaces a video block whose MIME type Gemini does not take.
const VIDEO_MIME_OMISSION: &str = "(video omitted: unsupported Google video MIME type)";

/// The video MIME types Gemini takes inline.
const NATIVE_VIDEO_MIME: [&str; 9] = [
    "video/mp4",
    "video/mpeg",
    "video/quicktime",
    "video/avi",
    "video/x-flv",
    "video/mpg",
    "video/webm",
    "video/wmv",
    "video/3gpp",
];

static GEMINI_MAJOR: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?:^|/)gemini(?:-live)?-(\d+)").expect("regex"));
static GEMINI_3_PRO: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|/)gemini-(?:3(?:\.\d+)?-pro|pro-latest)(?:-|$)").expect("regex"));
static GEMINI_3_FLASH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|/)gemini-(?:3(?:\.\d+)?-flash|flash(?:-lite)?-latest)(?:-|$)").expect("regex"));

/// How `projectGoogleMessages` replays a transcript (its `replay` parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replay {
    /// `managed`, the google plugin's transport: trimmed signatures, blank text always
    /// dropped, call signatures replayed by id, name and arguments, video slots materialized.
    Managed,
    /// `signed-parts`, `@openclaw/ai`'s built-in Google providers: signatures as stored,
    /// blank text kept when it carries its own signature, ids of same-route calls, the
    /// validator sentinel on the first call of a turn only, media parts as they are.
    SignedParts,
}

/// Convert prepared messages to the Gemini `contents` array (the managed replay).
pub fn convert(inputs: &[WireInput], model: &WireModel) -> Vec<WireItem> {
    let requires_signature = requires_tool_call_signature(&model.model);
    project(inputs, model, Replay::Managed, requires_signature)
}

/// `projectGoogleMessages` over prepared messages in `replay` mode; `requires_signature`
/// (`requiresToolCallSignature`) is the caller's decision.
pub fn project(inputs: &[WireInput], model: &WireModel, replay: Replay, requires_signature: bool) -> Vec<WireItem> {
    let mut projection = Projection::new(model, replay, requires_signature);
    for input in inputs {
        projection.push(input);
    }
    projection.finish()
}

/// Whether Gemini-compatible requests for `model_id` carry `id` on every function call and
/// response, and the transform rewrites tool-call ids to `[A-Za-z0-9_-]{1,64}`
/// (`requiresGoogleToolCallId`).
pub fn requires_tool_call_id(model_id: &str) -> bool {
    model_id.starts_with("claude-") || model_id.starts_with("gpt-oss-")
}

/// Whether `model_id` is a Gemini 3 Pro or Flash model, which rejects a function call
/// without a thought signature (`requiresToolCallThoughtSignature`). The transform then also
/// keeps the signatures of other models' tool calls.
pub fn requires_tool_call_signature(model_id: &str) -> bool {
    let id = js_trim(model_id).to_lowercase();
    GEMINI_3_PRO.is_match(&id) || GEMINI_3_FLASH.is_match(&id)
}

/// The transport route of a model API: OpenClaw's transport alias of the Gemini API counts
/// as the API itself (`normalizeGoogleTransportRouteApi`).
pub fn route_api(api: &str) -> &str {
    match api {
        "openclaw-google-generative-ai-transport" => "google-generative-ai",
        other => other,
    }
}

/// Whether function responses of `model_id` may carry image parts: Gemini 3 and later, and
/// every model that is not a versioned Gemini (`supportsMultimodalFunctionResponse`).
fn multimodal_function_response(model_id: &str) -> bool {
    GEMINI_MAJOR
        .captures(&model_id.to_lowercase())
        .and_then(|c| c[1].parse::<u64>().ok())
        .is_none_or(|major| major >= 3)
}

/// An `inlineData` part; in the managed replay the omission text when it is a video the
/// request cannot carry (`materializeGoogleVideoSlots` on a part that is not a trusted video
/// slot).
fn inline_part(mime_type: Option<&Value>, data: Option<&Value>, replay: Replay) -> Value {
    let is_video = mime_type
        .and_then(Value::as_str)
        .is_some_and(|m| js_trim(m).to_lowercase().starts_with("video/"));
    if is_video && replay == Replay::Managed {
        return json!({ "text": VIDEO_SLOT_OMISSION });
    }
    let mut inline = Map::new();
    put(&mut inline, "mimeType", mime_type);
    put(&mut inline, "data", data);
    json!({ "inlineData": inline })
}

/// A user video block after the video slot is materialized: inline when Gemini takes its
/// MIME type, else the omission text.
fn video_part(block: &Value) -> Value {
    let mime = block.get("mimeType");
    if mime
        .and_then(Value::as_str)
        .is_some_and(|m| NATIVE_VIDEO_MIME.contains(&m))
    {
        let mut inline = Map::new();
        put(&mut inline, "mimeType", mime);
        put(&mut inline, "data", block.get("data"));
        json!({ "inlineData": inline })
    } else {
        json!({ "text": VIDEO_MIME_OMISSION })
    }
}

/// The state of `projectGoogleMessages` while it walks the messages.
struct Projection<'m> {
    model: &'m WireModel,
    replay: Replay,
    requires_signature: bool,
    requires_id: bool,
    multimodal_response: bool,
    contents: Vec<WireItem>,
    /// `Tool result image:` turns waiting for the end of the tool-result run.
    pending_images: Vec<WireItem>,
    /// Index in `contents` of the user content collecting the current tool-result run.
    active_results: Option<usize>,
    /// Ids of tool calls the model itself made (`sameRouteToolCallIds`).
    own_call_ids: HashSet<String>,
    /// Signatures of earlier function calls, by id, name and arguments.
    replay_signatures: HashMap<String, String>,
}

impl<'m> Projection<'m> {
    fn new(model: &'m WireModel, replay: Replay, requires_signature: bool) -> Self {
        Self {
            model,
            replay,
            requires_signature,
            requires_id: requires_tool_call_id(&model.model),
            multimodal_response: multimodal_function_response(&model.model),
            contents: Vec::new(),
            pending_images: Vec::new(),
            active_results: None,
            own_call_ids: HashSet::new(),
            replay_signatures: HashMap::new(),
        }
    }

    fn push(&mut self, input: &WireInput) {
        let m = &input.message;
        if m.role() != Role::ToolResult {
            self.flush_tool_results();
        }
        match m.role() {
            Role::User => self.user(input),
            Role::Assistant => self.assistant(input),
            Role::ToolResult => self.tool_result(input),
            _ => {}
        }
    }

    fn finish(mut self) -> Vec<WireItem> {
        self.flush_tool_results();
        if self.contents.is_empty() {
            self.contents.push(WireItem {
                value: json!({ "role": "user", "parts": [{ "text": " " }] }),
                source: Default::default(),
            });
        }
        self.contents
    }

    fn flush_tool_results(&mut self) {
        self.contents.append(&mut self.pending_images);
        self.active_results = None;
    }

    /// The message was produced on this very route (provider, transport API, model).
    fn same_route(&self, m: &Message) -> bool {
        m.provider() == Some(self.model.provider.as_str())
            && m.api().map(route_api) == Some(route_api(&self.model.api))
            && m.model() == Some(self.model.model.as_str())
    }

    fn managed(&self) -> bool {
        self.replay == Replay::Managed
    }

    /// A block's signature as this replay keeps it.
    fn signature(&self, value: Option<&Value>) -> Option<String> {
        match self.replay {
            Replay::Managed => signature(value),
            Replay::SignedParts => stored_signature(value),
        }
    }

    fn user(&mut self, input: &WireInput) {
        let m = &input.message;
        let parts = match m.content() {
            Some(Value::String(s)) => vec![json!({ "text": non_empty(s) })],
            content => {
                let blocks = content.and_then(Value::as_array).map_or(&[][..], |a| a.as_slice());
                let mut parts = Vec::new();
                for block in blocks {
                    match block_type(block) {
                        Some("text") => parts.push(json!({ "text": non_empty(payload_text(block.get("text"))) })),
                        Some("video") if self.managed() => parts.push(video_part(block)),
                        _ if self.model.input_images || !self.managed() => {
                            parts.push(inline_part(block.get("mimeType"), block.get("data"), self.replay))
                        }
                        _ => {}
                    }
                }
                if parts.is_empty() {
                    parts.push(json!({ "text": " " }));
                }
                parts
            }
        };
        self.contents.push(WireItem {
            value: Value::object([("role", "user".into()), ("parts", Value::Array(parts.into()))]),
            source: input.source.clone(),
        });
    }

    fn assistant(&mut self, input: &WireInput) {
        let m = &input.message;
        let same = self.same_route(m);
        let blocks = m.content_array().map_or(&[][..], |a| a.as_slice());
        let mut parts = Vec::new();
        let mut next_signatures = Vec::new();
        let mut saw_call = false;
        for block in blocks {
            match block_type(block) {
                Some("text") => {
                    let text = payload_text(block.get("text"));
                    let sig = same.then(|| self.signature(block.get("textSignature"))).flatten();
                    if is_blank(text) && (self.managed() || sig.is_none()) {
                        continue;
                    }
                    let mut part = Map::new();
                    part.insert("text".into(), json!(text));
                    if let Some(sig) = sig {
                        part.insert("thoughtSignature".into(), json!(sig));
                    }
                    parts.push(Value::Object(part));
                }
                Some("thinking") => {
                    let thinking = payload_text(block.get("thinking"));
                    let sig = same.then(|| self.signature(block.get("thinkingSignature"))).flatten();
                    if is_blank(thinking) && (self.managed() || sig.is_none()) {
                        continue;
                    }
                    if !same {
                        parts.push(json!({ "text": thinking }));
                        continue;
                    }
                    let mut part = Map::new();
                    part.insert("thought".into(), json!(true));
                    part.insert("text".into(), json!(thinking));
                    if let Some(sig) = sig {
                        part.insert("thoughtSignature".into(), json!(sig));
                    }
                    parts.push(Value::Object(part));
                }
                Some("toolCall") => {
                    let part = match self.replay {
                        Replay::Managed => self.function_call(block, same, &mut next_signatures),
                        Replay::SignedParts => self.signed_function_call(block, same, saw_call),
                    };
                    saw_call = true;
                    parts.push(part);
                }
                _ => {}
            }
        }
        self.replay_signatures.extend(next_signatures);
        if !parts.is_empty() {
            self.contents.push(WireItem {
                value: Value::object([("role", "model".into()), ("parts", Value::Array(parts.into()))]),
                source: input.source.clone(),
            });
        }
    }

    fn function_call(&mut self, block: &Value, same: bool, next_signatures: &mut Vec<(String, String)>) -> Value {
        let id = block.get("id");
        let name = block.get("name");
        if same && let Some(id) = id.and_then(Value::as_str) {
            self.own_call_ids.insert(id.to_owned());
        }
        let args = coerce_arguments(block.get("arguments"));
        let own = same.then(|| signature(block.get("thoughtSignature"))).flatten();
        let keyed = own.is_some() || (self.requires_signature && same && !self.replay_signatures.is_empty());
        let key = if keyed {
            [join_field(id), join_field(name), stable_stringify(&args)].join("\0")
        } else {
            String::new()
        };
        if let Some(sig) = &own {
            next_signatures.push((key.clone(), sig.clone()));
        }
        let thought_signature = own
            .or_else(|| {
                (self.requires_signature && same)
                    .then(|| self.replay_signatures.get(&key).cloned())
                    .flatten()
            })
            .or_else(|| {
                self.requires_signature
                    .then(|| THOUGHT_SIGNATURE_VALIDATOR_SKIP.to_owned())
            });
        let mut call = Map::new();
        put(&mut call, "name", name);
        call.insert("args".into(), args);
        if same || self.requires_id {
            put(&mut call, "id", id);
        }
        function_call_part(call, thought_signature)
    }

    /// A function call of the signed-parts replay: the call's own signature, else the
    /// validator sentinel on a turn's first call when the model needs one; `id` for calls of
    /// an id made on this route (not on `google-gemini-cli`) or when the model needs ids.
    fn signed_function_call(&mut self, block: &Value, same: bool, saw_call: bool) -> Value {
        let id = block.get("id");
        if same && self.model.provider != "google-gemini-cli" {
            self.own_call_ids.insert(join_field(id));
        }
        let own = same.then(|| stored_signature(block.get("thoughtSignature"))).flatten();
        let thought_signature =
            own.or_else(|| (self.requires_signature && !saw_call).then(|| THOUGHT_SIGNATURE_VALIDATOR_SKIP.to_owned()));
        let mut call = Map::new();
        put(&mut call, "name", block.get("name"));
        call.insert("args".into(), coerce_arguments(block.get("arguments")));
        if self.own_call_ids.contains(&join_field(id)) || self.requires_id {
            put(&mut call, "id", id);
        }
        function_call_part(call, thought_signature)
    }

    fn tool_result(&mut self, input: &WireInput) {
        let m = &input.message;
        let blocks = m.content_array().map_or(&[][..], |a| a.as_slice());
        let text = tool_result_text(blocks);
        let images: Vec<Value> = if self.model.input_images {
            blocks
                .iter()
                .filter(|b| block_type(b) == Some("image") && media_placeholder(std::slice::from_ref(b)).is_some())
                .map(|b| inline_part(b.get("mimeType"), b.get("data"), self.replay))
                .collect()
        } else {
            Vec::new()
        };
        let value = if text.is_empty() {
            media_placeholder(blocks).unwrap_or("").to_owned()
        } else {
            text
        };
        let mut response = Map::new();
        put(&mut response, "name", m.get("toolName"));
        let key = if truthy(m.get("isError")) { "error" } else { "output" };
        response.insert("response".into(), json!({ key: value }));
        if !images.is_empty() && self.multimodal_response {
            response.insert("parts".into(), Value::Array(images.clone().into()));
        }
        let own_call = m.tool_call_id().is_some_and(|id| self.own_call_ids.contains(id));
        if own_call || self.requires_id {
            put(&mut response, "id", m.get("toolCallId"));
        }
        let part = json!({ "functionResponse": response });
        match self.active_results {
            Some(i) => {
                let item = &mut self.contents[i];
                if let Some(parts) = item.value.get_mut("parts").and_then(Value::as_array_mut) {
                    parts.push(part);
                }
                item.source.extend(input.source.iter().copied());
            }
            None => {
                self.active_results = Some(self.contents.len());
                self.contents.push(WireItem {
                    value: Value::object([("role", "user".into()), ("parts", Value::Array(vec![part].into()))]),
                    source: input.source.clone(),
                });
            }
        }
        if !images.is_empty() && !self.multimodal_response {
            let mut parts = vec![json!({ "text": "Tool result image:" })];
            parts.extend(images);
            self.pending_images.push(WireItem {
                value: Value::object([("role", "user".into()), ("parts", Value::Array(parts.into()))]),
                source: input.source.clone(),
            });
        }
    }
}

/// A user text as a part carries it: an empty text becomes `" "`.
fn non_empty(text: &str) -> &str {
    if text.is_empty() { " " } else { text }
}

/// A field as `Array.prototype.join` prints it (`undefined` as the empty string).
fn join_field(value: Option<&Value>) -> String {
    value.map(join_element).unwrap_or_default()
}

/// `{functionCall, thoughtSignature?}`: one call part of a model turn.
fn function_call_part(call: Map, thought_signature: Option<String>) -> Value {
    let mut part = Map::new();
    part.insert("functionCall".into(), Value::Object(call));
    if let Some(sig) = thought_signature {
        part.insert("thoughtSignature".into(), json!(sig));
    }
    Value::Object(part)
}
