//! The wire payload of a replay: which messages are converted (the stored transcript or the
//! projection), for which API, and how each payload item traces back to stored messages.

use serde::Serialize;

use super::{Payload, WireApi, WireModel, build, build_from, build_naive};
use crate::hygiene::ReplayMessage;
use crate::model::{Message, StoredMessage};
use crate::policy::Target;
use crate::policy::config::OpenClawConfig;
use crate::replay::Replay;

/// Which messages the payload is built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WireStage {
    /// The stored transcript as it is, without hygiene: what a naive client would send.
    Stored,
    /// The replay projection (history rules and stream-time steps): what OpenClaw sends.
    Replay,
}

impl WireStage {
    /// The stage's name as the command line spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            WireStage::Stored => "stored",
            WireStage::Replay => "replay",
        }
    }
}

/// Why no payload can be built for a replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// The target names no model API (neither given nor recorded in the session).
    #[error("no model API for the payload: give --api (one of {})", known_apis())]
    NoApi,
    /// The target's API has no converter.
    #[error("no wire converter for the API `{0}`{hint}; replaylens builds payloads for {known}", hint = api_hint(.0), known = known_apis())]
    UnknownApi(String),
}

fn known_apis() -> String {
    WireApi::ALL.iter().map(|a| a.id()).collect::<Vec<_>>().join(", ")
}

/// What OpenClaw 2026.9.6 sends instead, for API ids it accepts but routes to no transport of
/// their own (`oracle/openclaw_payload.mjs` answers "no converter" for both).
fn api_hint(api: &str) -> &'static str {
    match api {
        "google-gemini-cli" => {
            " (OpenClaw sends provider google-gemini-cli models through google-generative-ai: give --api google-generative-ai)"
        }
        "github-copilot" => {
            " (OpenClaw's GitHub Copilot models use anthropic-messages for Claude, openai-completions for Gemini, openai-responses for GPT)"
        }
        _ => "",
    }
}

/// A payload together with the provenance of each item down to the stored transcript
/// ([`WirePayload::replay`], [`WirePayload::stored`]).
#[derive(Debug, Clone, PartialEq)]
pub struct WirePayload {
    /// Which messages were converted.
    pub stage: WireStage,
    /// The model the payload was built for.
    pub model: WireModel,
    /// The payload.
    pub payload: Payload,
    /// At the replay stage, the stored indices of every item one after the other: item `i`'s
    /// are `stored_flat[stored_at[i]..stored_at[i + 1]]` (at the stored stage an item's
    /// source is already its stored indices, and both are empty).
    stored_flat: Vec<usize>,
    stored_at: Vec<usize>,
}

/// The API and model a payload for `target` is built for, with no configuration.
pub fn wire_target(target: &Target) -> Result<(WireApi, WireModel), WireError> {
    wire_target_with(target, None)
}

/// The API and model a payload for `target` is built for under the user's configuration:
/// a custom provider it declares gets its configured model object
/// ([`crate::policy::config::configured_model`]), any other target the catalog model.
pub fn wire_target_with(target: &Target, config: Option<&OpenClawConfig>) -> Result<(WireApi, WireModel), WireError> {
    let api_id = target.api.as_deref().ok_or(WireError::NoApi)?;
    let provider = target.provider.as_deref().unwrap_or("");
    let api = WireApi::for_target(provider, api_id).ok_or_else(|| WireError::UnknownApi(api_id.to_string()))?;
    let model_id = target.model.as_deref().unwrap_or("");
    let model = match config.and_then(|c| crate::policy::config::configured_model(c, target)) {
        Some(configured) => WireModel::configured(api_id, model_id, &configured),
        None => WireModel::new(provider, api_id, model_id),
    };
    Ok((api, model))
}

/// The API and model a replay's payload is built for (its configuration included).
pub fn wire_model(r: &Replay<'_>) -> Result<(WireApi, WireModel), WireError> {
    wire_target_with(&r.resolved.target, r.options.config.as_deref())
}

impl WirePayload {
    /// The payload a naive client would send for the stored transcript: converted as it is,
    /// without hygiene or the transport's repairs (item sources are stored indices).
    pub fn of_stored(api: WireApi, model: WireModel, messages: &[&Message]) -> Self {
        Self {
            stage: WireStage::Stored,
            payload: build_naive(api, messages, &model),
            model,
            stored_flat: Vec::new(),
            stored_at: Vec::new(),
        }
    }

    /// The payload of a projection: `messages[i]` came from the stored messages `sources[i]`.
    pub fn of_projection(api: WireApi, model: WireModel, messages: &[&Message], sources: &[&[usize]]) -> Self {
        let payload = build(api, messages, &model);
        Self::traced(model, payload, |i| sources.get(i).copied().unwrap_or_default())
    }

    /// A replay-stage payload whose input message `i` came from the stored messages
    /// `sources(i)`.
    fn traced<'a>(model: WireModel, payload: Payload, sources: impl Fn(usize) -> &'a [usize]) -> Self {
        let mut stored_flat = Vec::with_capacity(payload.items.len());
        let mut stored_at = Vec::with_capacity(payload.items.len() + 1);
        stored_at.push(0);
        for item in &payload.items {
            let mut stored: Vec<usize> = item.source.iter().flat_map(|&i| sources(i).iter().copied()).collect();
            stored.sort_unstable();
            stored.dedup();
            stored_flat.extend(stored);
            stored_at.push(stored_flat.len());
        }
        stored_flat.shrink_to_fit();
        Self {
            stage: WireStage::Replay,
            model,
            payload,
            stored_flat,
            stored_at,
        }
    }

    /// The replay indices item `i` came from (`[]` at the stored stage, for an item the
    /// transport added, or past the end).
    pub fn replay(&self, i: usize) -> &[usize] {
        match self.stage {
            WireStage::Stored => &[],
            WireStage::Replay => self.payload.items.get(i).map_or(&[], |item| &item.source),
        }
    }

    /// The stored indices item `i` came from (`[]` for a synthesized item or past the end).
    pub fn stored(&self, i: usize) -> &[usize] {
        match self.stage {
            WireStage::Stored => self.payload.items.get(i).map_or(&[], |item| &item.source),
            WireStage::Replay => match (self.stored_at.get(i), self.stored_at.get(i + 1)) {
                (Some(&start), Some(&end)) => &self.stored_flat[start..end],
                _ => &[],
            },
        }
    }
}

/// Build the payload of `stage` for the replay's target (its configuration included).
pub fn payload_of(r: &Replay<'_>, stage: WireStage) -> Result<WirePayload, WireError> {
    let config = r.options.config.as_deref();
    match stage {
        WireStage::Stored => stored_payload_with(&r.transcript.messages, &r.resolved.target, config),
        WireStage::Replay => {
            let (api, model) = wire_target_with(&r.resolved.target, config)?;
            let projected = &r.projection.messages;
            let messages: Vec<&Message> = projected.iter().map(|m| m.message.as_ref()).collect();
            let sources: Vec<&[usize]> = projected.iter().map(|m| m.source.as_slice()).collect();
            Ok(WirePayload::of_projection(api, model, &messages, &sources))
        }
    }
}

/// The stored-stage payload of a stored transcript's messages for `target` (the stored
/// side alone: no replay needs to exist).
pub fn stored_payload(stored: &[StoredMessage<'_>], target: &Target) -> Result<WirePayload, WireError> {
    stored_payload_with(stored, target, None)
}

/// [`stored_payload`] under the user's configuration ([`wire_target_with`]).
pub fn stored_payload_with(
    stored: &[StoredMessage<'_>],
    target: &Target,
    config: Option<&OpenClawConfig>,
) -> Result<WirePayload, WireError> {
    let (api, model) = wire_target_with(target, config)?;
    let messages: Vec<&Message> = stored.iter().map(|m| m.message.as_ref()).collect();
    Ok(WirePayload::of_stored(api, model, &messages))
}

/// The replay-stage payload of a projection's messages for `target`, consuming them: the
/// stored transcript need not be held any more, each message sent as it is moves into the
/// converter's input, and the projection's list is freed before the conversion runs.
pub fn replay_payload(projected: Vec<ReplayMessage<'_>>, target: &Target) -> Result<WirePayload, WireError> {
    replay_payload_with(projected, target, None)
}

/// [`replay_payload`] under the user's configuration ([`wire_target_with`]).
pub fn replay_payload_with(
    projected: Vec<ReplayMessage<'_>>,
    target: &Target,
    config: Option<&OpenClawConfig>,
) -> Result<WirePayload, WireError> {
    let (api, model) = wire_target_with(target, config)?;
    let mut flat = Vec::with_capacity(projected.len());
    let mut at = Vec::with_capacity(projected.len() + 1);
    at.push(0);
    let messages = projected.into_iter().map(|m| {
        flat.extend(m.source);
        at.push(flat.len());
        m.message
    });
    let payload = build_from(api, messages, &model);
    Ok(WirePayload::traced(model, payload, |i| {
        match (at.get(i), at.get(i + 1)) {
            (Some(&start), Some(&end)) => &flat[start..end],
            _ => &[],
        }
    }))
}
