//! The typed view of the fields the policy reads; everything else stays in the raw tree.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value};

/// `models.providers.<id>`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderConfig {
    /// The provider's API (`openai-completions`, `ollama`, …).
    #[serde(default)]
    pub api: Option<String>,
    /// The provider's models.
    #[serde(default)]
    pub models: Vec<ModelConfig>,
    /// Every other field, as written.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// One entry of `models.providers.<id>.models`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelConfig {
    /// Model id.
    #[serde(default)]
    pub id: String,
    /// The model's own API, over the provider's.
    #[serde(default)]
    pub api: Option<String>,
    /// Every other field (`reasoning`, `compat`, `params`, …), as written.
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

/// `plugins`, normalised like `normalizePluginsConfigWithResolverCore`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PluginsConfig {
    /// `plugins.enabled` (default true).
    pub enabled: bool,
    /// `plugins.allow`.
    pub allow: Vec<String>,
    /// `plugins.deny`.
    pub deny: Vec<String>,
    /// `plugins.load.paths`.
    pub load_paths: Vec<String>,
    /// `plugins.entries.<id>.enabled`, where written.
    pub entries: BTreeMap<String, Option<bool>>,
    /// The ids recorded under `plugins.installs`.
    pub installs: Vec<String>,
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// `models.providers`.
pub(super) fn providers(raw: &Value) -> BTreeMap<String, ProviderConfig> {
    raw.pointer("/models/providers")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(id, v)| {
                    serde_json::from_value::<ProviderConfig>(v.clone())
                        .ok()
                        .map(|p| (id.clone(), p))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `plugins`.
pub(super) fn plugins(raw: &Value) -> PluginsConfig {
    let p = raw.get("plugins");
    let get = |k: &str| p.and_then(|p| p.get(k));
    PluginsConfig {
        enabled: get("enabled").and_then(Value::as_bool) != Some(false),
        allow: strings(get("allow")),
        deny: strings(get("deny")),
        load_paths: strings(get("load").and_then(|l| l.get("paths"))),
        entries: get("entries")
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .map(|(id, e)| (id.trim().to_owned(), e.get("enabled").and_then(Value::as_bool)))
                    .collect()
            })
            .unwrap_or_default(),
        installs: get("installs")
            .and_then(Value::as_object)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default(),
    }
}

/// The configuration's own environment entries (`env.vars.<K>` and string `env.<K>`), as
/// `collectConfigEnvVarsByTarget` collects them.
pub(super) fn config_env_vars(raw: &Value) -> Vec<(String, String)> {
    let Some(env) = raw.get("env").and_then(Value::as_object) else {
        return Vec::new();
    };
    let vars = env.get("vars").and_then(Value::as_object).into_iter().flatten();
    let direct = env.iter().filter(|(k, _)| *k != "vars" && *k != "shellEnv");
    vars.chain(direct)
        .filter_map(|(k, v)| {
            let v = v.as_str()?;
            (!v.trim().is_empty() && !k.trim().is_empty()).then(|| (k.trim().to_owned(), v.to_owned()))
        })
        .collect()
}
