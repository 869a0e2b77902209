//! The model object OpenClaw resolves for a custom provider the configuration declares: what
//! `resolveModelAsync` (`src/agents/embedded-agent-runner/model.ts`) returns for
//! `models.providers.<id>` when no catalog or plugin provider of that id exists, through
//! `buildInlineProviderModels` (`src/agents/embedded-agent-runner/model.inline-provider.ts`) for
//! a declared model and `buildConfiguredFallbackModel` for any other id of that provider.
//!
//! Only the fields the replay and the payload read are kept: `reasoning`, `input`, `compat`,
//! `params` and `baseUrl`. The policy reads them in `buildUnownedProviderTransportReplayFallback`
//! (`src/agents/transcript-policy/helpers.ts`), the transports in their converters
//! (`resolveOpenAICompletionsCompat`, `getCompat` of `@openclaw/ai`).

use serde_json::{Map, Value};

use super::OpenClawConfig;
use crate::policy::Target;
use crate::policy::predicates::normalize_provider_id;

/// The resolved model object of a configured custom provider, reduced to what replay reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfiguredModel {
    /// The provider id as the configuration writes it, trimmed (the model object's
    /// `provider`: `buildInlineProviderModels` keeps the key's spelling).
    pub provider: String,
    /// The configuration field it came from: `models.providers.<id>.models[<i>]` for a
    /// declared model, `models.providers.<id>` for another model of that provider.
    pub field: String,
    /// `reasoning` (a configured model without it, or an undeclared one, is `false`).
    pub reasoning: bool,
    /// `input` includes `"image"` (default `["text"]`).
    pub input_images: bool,
    /// The model's own `compat`, as written (`buildInlineProviderModels` spreads the model
    /// entry; the provider's fields are not merged into it).
    pub compat: Map<String, Value>,
    /// `params`, as written (`canonicalModelId`, …).
    pub params: Map<String, Value>,
    /// `baseUrl` as the transport receives it (the model's, else the provider's; Anthropic's
    /// without a trailing `/v1`).
    pub base_url: Option<String>,
}

impl ConfiguredModel {
    /// `compat.supportsReasoningEffort === false` (`modelDisablesReasoningEffort`).
    pub fn disables_reasoning_effort(&self) -> bool {
        self.compat.get("supportsReasoningEffort") == Some(&Value::Bool(false))
    }

    /// `params.canonicalModelId` when it is a string: the id OpenClaw's Claude model checks
    /// read instead of the model id (`resolveClaudeModelIdentity`).
    pub fn canonical_model_id(&self) -> Option<&str> {
        self.params.get("canonicalModelId").and_then(Value::as_str)
    }

    /// A boolean `compat` flag, when written.
    pub fn compat_flag(&self, key: &str) -> Option<bool> {
        self.compat.get(key).and_then(Value::as_bool)
    }

    /// A string `compat` field, when written.
    pub fn compat_str(&self, key: &str) -> Option<&str> {
        self.compat.get(key).and_then(Value::as_str)
    }
}

fn object(v: Option<&Value>) -> Map<String, Value> {
    v.and_then(Value::as_object).cloned().unwrap_or_default()
}

/// `baseUrl` as OpenClaw's Anthropic transport configuration normalizes it: a trailing `/v1`
/// (and slashes) removed on `anthropic-messages`, as the resolved model object shows it.
fn transport_base_url(base_url: &str, api: &str) -> String {
    let trimmed = base_url.trim();
    if api == "anthropic-messages" {
        let no_slash = trimmed.trim_end_matches('/');
        return no_slash.strip_suffix("/v1").unwrap_or(no_slash).to_owned();
    }
    trimmed.to_owned()
}

/// The model object for `target` when its provider is a custom provider `config` declares
/// (a provider id the release's catalog does not know); `None` otherwise, and for a catalog
/// provider (its catalog model decides; the configuration's `api` is read by
/// [`super::apply`]).
pub fn configured_model(config: &OpenClawConfig, target: &Target) -> Option<ConfiguredModel> {
    let wanted = normalize_provider_id(target.provider.as_deref()?);
    if wanted.is_empty() || crate::policy::providers::catalog().id(&wanted).is_some() {
        return None;
    }
    let raw = config.raw.pointer("/models/providers")?.as_object()?;
    let (id, provider) = raw.iter().find(|(id, _)| normalize_provider_id(id) == wanted)?;
    let provider = provider.as_object()?;
    let model_id = target.model.as_deref().map(str::trim).unwrap_or_default();
    let models = provider.get("models").and_then(Value::as_array);
    let declared = models.and_then(|ms| {
        ms.iter()
            .enumerate()
            .find(|(_, m)| m.get("id").and_then(Value::as_str).map(str::trim) == Some(model_id))
    });
    let provider_api = provider.get("api").and_then(Value::as_str);
    let api = declared
        .and_then(|(_, m)| m.get("api").and_then(Value::as_str))
        .or(provider_api)
        .or(target.api.as_deref())
        .unwrap_or_default();
    let base_url = declared
        .and_then(|(_, m)| m.get("baseUrl").and_then(Value::as_str))
        .or_else(|| provider.get("baseUrl").and_then(Value::as_str))
        .map(|u| transport_base_url(u, api));
    let input_images = |m: Option<&Value>| {
        m.and_then(|m| m.get("input"))
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|i| i.as_str() == Some("image")))
    };
    Some(match declared {
        Some((i, m)) => ConfiguredModel {
            provider: id.trim().to_owned(),
            field: format!("models.providers.{id}.models[{i}]"),
            reasoning: m.get("reasoning").and_then(Value::as_bool) == Some(true),
            input_images: input_images(Some(m)),
            compat: object(m.get("compat")),
            params: object(m.get("params")),
            base_url,
        },
        None => ConfiguredModel {
            provider: id.trim().to_owned(),
            field: format!("models.providers.{id}"),
            reasoning: false,
            input_images: false,
            compat: Map::new(),
            params: Map::new(),
            base_url,
        },
    })
}

/// `agents.defaults.imageMaxDimensionPx` as `resolveImageSanitizationLimits`
/// (`src/agents/image-sanitization.ts`) reads it: a finite number, floored, at least 1.
pub fn image_max_dimension_px(config: &OpenClawConfig) -> Option<u32> {
    let n = config.raw.pointer("/agents/defaults/imageMaxDimensionPx")?.as_f64()?;
    n.is_finite().then(|| n.floor().clamp(1.0, f64::from(u32::MAX)) as u32)
}
