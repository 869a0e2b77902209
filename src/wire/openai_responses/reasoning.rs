//! Replayed reasoning items: the OpenAI reasoning item a thinking block stores as its
//! `thinkingSignature`, prepared for replay (`prepareOpenAIResponsesReasoningItemForReplay`):
//! its `encrypted_content` survives only when the replay metadata names this very route
//! (provider, API, model, base URL; no session or auth profile in a transcript replay), or,
//! on the Codex route, when the item carries no metadata at all.

use crate::json;
use crate::model::json::Value;

use super::super::WireModel;
use super::super::transform::ids::short_hash;
use super::Policy;

/// `OPENAI_RESPONSES_REASONING_REPLAY_META_KEY`: replay metadata stored inside the item.
const ITEM_META_KEY: &str = "__openclaw_replay";
/// `OPENAI_RESPONSES_REASONING_REPLAY_BLOCK_META_KEY`: replay metadata on the thinking block.
const BLOCK_META_KEY: &str = "openclawReasoningReplay";

/// `buildProviderReplayContext`: who may replay encrypted reasoning. A transcript replay has
/// no session id or auth profile, so those hashes are absent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReplayContext {
    provider: String,
    api: String,
    model: String,
    base_url_hash: Option<String>,
}

impl ReplayContext {
    /// The identity of a request to `model`.
    pub(crate) fn of(model: &WireModel) -> Self {
        let base = model.base_url().trim();
        Self {
            provider: model.provider.clone(),
            api: model.api.clone(),
            model: model.model.clone(),
            base_url_hash: (!base.is_empty()).then(|| short_hash(base)),
        }
    }

    /// `isOpenAIResponsesReasoningReplayMetadata(value) && providerReplayContextMatches`:
    /// `None` when `value` is not replay metadata at all.
    pub(crate) fn matches(&self, value: &Value) -> Option<bool> {
        let o = value.as_object()?;
        let text = |k: &str| o.get(k).and_then(Value::as_str);
        let optional_text = |k: &str| match o.get(k) {
            None => Some(None),
            Some(Value::String(s)) => Some(Some(s.as_str())),
            Some(_) => None,
        };
        let (provider, api, model) = (text("provider")?, text("api")?, text("model")?);
        let (base, session, auth) = (
            optional_text("baseUrlHash")?,
            optional_text("sessionHash")?,
            optional_text("authProfileHash")?,
        );
        let is_metadata = o.get("v").and_then(Value::as_f64) == Some(1.0) && text("source") == Some("openai-responses");
        is_metadata.then(|| {
            provider == self.provider
                && api == self.api
                && model == self.model
                && base == self.base_url_hash.as_deref()
                && session.is_none()
                && auth.is_none()
        })
    }
}

/// A thinking block's stored reasoning item, prepared for replay; `None` when the block
/// carries none.
pub(super) fn reasoning_item(block: &Value, model: &WireModel, policy: &Policy) -> Option<Value> {
    let signature = block
        .get("thinkingSignature")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())?;
    if !policy.provider_style && !signature.starts_with('{') {
        return None;
    }
    let Ok(Value::Object(mut item)) = serde_json::from_str::<Value>(signature) else {
        return None;
    };
    if item.get("type").and_then(Value::as_str) != Some("reasoning") {
        return None;
    }
    let block_meta = block
        .as_object()
        .filter(|b| b.contains_key(BLOCK_META_KEY))
        .map(|b| b.get(BLOCK_META_KEY).and_then(|m| policy.replay.matches(m)));
    let raw_meta = item.shift_remove(ITEM_META_KEY);
    if item.contains_key("encrypted_content") {
        let matched = match block_meta {
            Some(block) => block == Some(true),
            None => raw_meta.as_ref().and_then(|m| policy.replay.matches(m)) == Some(true),
        };
        let unattributed = block_meta.is_none() && raw_meta.is_none() && policy.provider_style;
        if !(matched || unattributed) {
            item = match strip_encrypted_content(Value::Object(item)) {
                Value::Object(o) => o,
                _ => return None,
            };
        }
    }
    if !item.get("summary").is_some_and(Value::is_array) {
        item.insert("summary".into(), json!([]));
    }
    if !policy.replay_item_ids {
        item.shift_remove("id");
    } else if !policy.provider_style
        && model.provider == "github-copilot"
        && !item
            .get("id")
            .and_then(Value::as_str)
            .is_some_and(|id| !id.is_empty() && id.encode_utf16().count() <= 64)
    {
        return None;
    }
    Some(Value::Object(item))
}

/// `stripEncryptedReasoningContentFields`: every `encrypted_content` removed, at any depth,
/// except inside `compaction` items.
fn strip_encrypted_content(value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(strip_encrypted_content).collect()),
        Value::Object(o) if o.get("type").and_then(Value::as_str) == Some("compaction") => Value::Object(o),
        Value::Object(o) => Value::Object(
            o.into_iter()
                .filter(|(k, _)| k != "encrypted_content")
                .map(|(k, v)| (k, strip_encrypted_content(v)))
                .collect(),
        ),
        other => other,
    }
}
