//! A configuration's custom providers applied to a target: `models.providers.<id>` names the
//! provider's API (`api`) and its models' own (`models[].api`, which win), as OpenClaw's model
//! resolution merges the user's providers over the catalog.

use super::OpenClawConfig;
use crate::policy::Target;
use crate::policy::predicates::normalize_provider_id;

/// A target with what the configuration decided, and which field decided each part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The target, its API filled from the configuration where the request left it open.
    pub target: Target,
    /// `(part, configuration field)`, e.g. `("api", "models.providers.lab.api")`.
    pub sources: Vec<(String, String)>,
}

/// The plugin provider a configured custom provider's own `api` names, when a plugin of the
/// release registers a provider of exactly that id (`ollama`, `github-copilot`; not
/// `google-vertex`, which the google plugin resolves as `google`) and the provider itself is
/// not one a plugin owns: OpenClaw then runs that plugin's hooks for the provider.
pub fn api_plugin_provider(config: &OpenClawConfig, provider: &str) -> Option<(String, String)> {
    let wanted = normalize_provider_id(provider);
    let c = crate::policy::providers::catalog();
    if c.id(&wanted).is_some_and(|e| e.plugin.is_some()) {
        return None;
    }
    let providers = config.providers();
    let (id, entry) = providers.iter().find(|(id, _)| normalize_provider_id(id) == wanted)?;
    let api = normalize_provider_id(entry.api.as_deref()?);
    c.id(&api)
        .filter(|e| e.plugin.is_some() && e.registration.as_deref() == Some(api.as_str()))
        .map(|_| (api, format!("models.providers.{id}.api")))
}

/// Resolve `target`'s policy under `config`: a custom provider whose `api` names a plugin's
/// provider gets that plugin's hooks ([`api_plugin_provider`]); the target keeps its name.
/// The unowned fallback then reads the configured model object ([`model_facts`]).
pub fn resolve(
    config: &OpenClawConfig,
    target: &Target,
    rule_set: &crate::rule_set::RuleSet,
    installation: &crate::policy::Installation,
) -> crate::policy::ResolvedPolicy {
    let mut resolved = resolve_owner(config, target, rule_set, installation);
    if let Some(model) = super::model::configured_model(config, &resolved.target) {
        model_facts(&mut resolved, &model);
    }
    resolved
}

/// What the configured model object changes in an unowned fallback policy, as
/// `buildUnownedProviderTransportReplayFallback` (`src/agents/transcript-policy/helpers.ts`)
/// reads `params.model`: on `openai-completions` reasoning is kept in history for a model with
/// `reasoning: true` (`shouldPreserveReasoningContentReplay`); on Anthropic APIs thinking blocks
/// are dropped for `compat.supportsReasoningEffort: false` (`modelDisablesReasoningEffort`),
/// and the Claude checks (`shouldDropClaudeThinkingBlocks`, `bindsClaudeThinkingPrefix`) read
/// `params.canonicalModelId` before the model id. Plugin policies are left as they are.
pub fn model_facts(resolved: &mut crate::policy::ResolvedPolicy, model: &super::ConfiguredModel) {
    use crate::policy::Family;
    use crate::policy::claude::{drops_thinking_blocks, is_prefix_binding};
    let model_id = resolved.target.model_str().to_owned();
    match resolved.family {
        Family::UnownedCompletions => {
            let keeps = model.reasoning || crate::policy::predicates::is_reasoning_content_model(&model_id);
            resolved.policy.drop_reasoning_from_history = (!keeps).then_some(true);
        }
        Family::UnownedAnthropic => {
            let claude_id = model.canonical_model_id().unwrap_or(&model_id);
            resolved.policy.drop_thinking_blocks =
                drops_thinking_blocks(claude_id) || model.disables_reasoning_effort();
            resolved.policy.append_only_runtime_context = is_prefix_binding(claude_id).then_some(true);
        }
        _ => {}
    }
}

/// [`resolve`] before the model object is read: the owner and family only.
fn resolve_owner(
    config: &OpenClawConfig,
    target: &Target,
    rule_set: &crate::rule_set::RuleSet,
    installation: &crate::policy::Installation,
) -> crate::policy::ResolvedPolicy {
    let via = target.provider.as_deref().and_then(|p| api_plugin_provider(config, p));
    match via {
        Some((plugin_provider, _)) => {
            let mut as_plugin = target.clone();
            as_plugin.provider = Some(plugin_provider);
            let mut resolved = crate::policy::resolve_with(&as_plugin, rule_set, installation);
            resolved.target = target.normalized();
            resolved
        }
        None => crate::policy::resolve_with(target, rule_set, installation),
    }
}

/// Apply `config`'s provider entries to `target`. A part the request names is kept.
pub fn apply(config: &OpenClawConfig, target: &Target) -> Applied {
    let mut applied = Applied {
        target: target.clone(),
        sources: Vec::new(),
    };
    let Some(given) = target.provider.as_deref().map(str::trim).filter(|p| !p.is_empty()) else {
        return applied;
    };
    let wanted = normalize_provider_id(given);
    let providers = config.providers();
    let Some((id, provider)) = providers.iter().find(|(id, _)| normalize_provider_id(id) == wanted) else {
        return applied;
    };
    if target.api.as_deref().is_some_and(|a| !a.trim().is_empty()) {
        return applied;
    }
    let model = target.model.as_deref().map(str::trim);
    let from_model = provider
        .models
        .iter()
        .enumerate()
        .find(|(_, m)| Some(m.id.trim()) == model && m.api.is_some());
    let (api, field) = match from_model {
        Some((i, m)) => (m.api.clone(), format!("models.providers.{id}.models[{i}].api")),
        None => (provider.api.clone(), format!("models.providers.{id}.api")),
    };
    if let Some(api) = api.filter(|a| !a.trim().is_empty()) {
        applied.target.api = Some(api);
        applied.sources.push(("api".to_owned(), field));
    }
    applied
}
