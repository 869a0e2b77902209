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
