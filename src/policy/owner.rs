//! Who owns a target's replay policy, read from the release's provider ids
//! ([`super::providers::Catalog::ids`], written by `oracle/openclaw_targets.mjs` from what
//! `resolveProviderRuntimePlugin` answers), and what replaylens knows of the user's installed
//! ClawHub plugins.
//!
//! OpenClaw's `normalizeProviderId` only trims and lowercases; an id reaches a plugin through the
//! plugin registry (`findProviderRuntimeRegistrationInRegistry`: registration ids, `aliases`,
//! `hookAliases`), and a hook alias only when the plugin is loaded for the lookup, which a model
//! id does (`resolveOwningPluginIdsForModelRef`: `vendor/…` loads the owner of `vendor`, a bare
//! id the plugins whose `modelSupport.modelPrefixes` it starts with).

use std::collections::BTreeSet;

use serde::Serialize;

use super::providers::{Catalog, Origin, catalog};

/// What replaylens knows of the ClawHub plugins the user's OpenClaw has.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Installation {
    /// Nothing (only a session): a ClawHub plugin is assumed installed, and the answer says so.
    #[default]
    Unknown,
    /// From the user's OpenClaw state: the plugin ids installed or loaded beside the bundled ones.
    Known(BTreeSet<String>),
}

impl Installation {
    /// An installation with no ClawHub plugin (a plain OpenClaw).
    pub fn plain() -> Installation {
        Installation::Known(BTreeSet::new())
    }
}

/// Who owns a target's replay policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Ownership {
    /// A plugin the release ships (bundled) or that npm publishes.
    Plugin {
        /// Plugin id.
        plugin: String,
        /// The provider registration whose hooks run.
        registration: String,
        /// Where the plugin comes from.
        origin: Origin,
    },
    /// A ClawHub plugin the user's state says is installed.
    Clawhub {
        /// Plugin id.
        plugin: String,
        /// The provider registration whose hooks run.
        registration: String,
    },
    /// A ClawHub plugin assumed installed: nothing says whether it is.
    AssumedClawhub {
        /// Plugin id.
        plugin: String,
        /// The provider registration whose hooks run.
        registration: String,
    },
    /// A ClawHub plugin the user's state does not have: the unowned fallback applies.
    MissingClawhub {
        /// Plugin id.
        plugin: String,
    },
    /// No plugin owns the provider: the unowned fallback.
    Unowned,
}

impl Ownership {
    /// The registration whose policy hook runs, when a plugin is (or is assumed) present.
    pub fn registration(&self) -> Option<&str> {
        match self {
            Ownership::Plugin { registration, .. }
            | Ownership::Clawhub { registration, .. }
            | Ownership::AssumedClawhub { registration, .. } => Some(registration),
            Ownership::MissingClawhub { .. } | Ownership::Unowned => None,
        }
    }

    /// The plugin, present or not.
    pub fn plugin(&self) -> Option<&str> {
        match self {
            Ownership::Plugin { plugin, .. }
            | Ownership::Clawhub { plugin, .. }
            | Ownership::AssumedClawhub { plugin, .. }
            | Ownership::MissingClawhub { plugin } => Some(plugin),
            Ownership::Unowned => None,
        }
    }

    /// One line for people: `plugin anthropic (bundled)`, `ClawHub plugin moonshot (assumed
    /// installed)`, `unowned fallback (ClawHub plugin moonshot not installed)`, …
    pub fn describe(&self) -> String {
        match self {
            Ownership::Plugin { plugin, origin, .. } => format!("plugin {plugin} ({})", origin.id()),
            Ownership::Clawhub { plugin, .. } => format!("ClawHub plugin {plugin} (installed)"),
            Ownership::AssumedClawhub { plugin, .. } => format!("ClawHub plugin {plugin} (assumed installed)"),
            Ownership::MissingClawhub { plugin } => {
                format!("unowned fallback (ClawHub plugin {plugin} not installed)")
            }
            Ownership::Unowned => "unowned fallback".to_owned(),
        }
    }
}

/// Ids replaylens takes for ClawHub plugins' own aliases: the flat resolver's alias list
/// (`docs/providers.md`), for the plugins the release publishes on ClawHub only. The release
/// itself resolves none of them.
const CLAWHUB_ALIASES: [(&str, &str); 11] = [
    ("z.ai", "zai"),
    ("z-ai", "zai"),
    ("bedrock", "amazon-bedrock"),
    ("aws-bedrock", "amazon-bedrock"),
    ("opencode-zen", "opencode"),
    ("kimi-code", "kimi"),
    ("kimi-coding", "kimi"),
    ("moonshotai", "moonshot"),
    ("moonshot-ai", "moonshot"),
    ("bytedance", "volcengine"),
    ("doubao", "volcengine"),
];

/// The ClawHub provider a normalised id stands for under [`CLAWHUB_ALIASES`].
pub fn clawhub_alias(id: &str) -> Option<&'static str> {
    CLAWHUB_ALIASES.iter().find(|(a, _)| *a == id).map(|(_, c)| *c)
}

/// The provider a normalised id names: the registration the release resolves it to whatever the
/// model, the ClawHub provider it is taken as an alias of, else the id itself. Two ids naming
/// the same provider keep a session's API and model.
pub fn canonical_provider(id: &str) -> String {
    let c = catalog();
    c.id(id)
        .filter(|e| e.plugin.is_some())
        .and_then(|e| e.registration.clone())
        .or_else(|| clawhub_alias(id).map(str::to_owned))
        .unwrap_or_else(|| id.to_owned())
}

/// Who owns the policy of a normalised provider id for `model`, given the installation.
pub fn owner(provider: &str, model: &str, installation: &Installation) -> Ownership {
    owner_in(catalog(), provider, model, installation)
}

/// [`owner`] against a given catalog.
pub fn owner_in(c: &Catalog, provider: &str, model: &str, installation: &Installation) -> Ownership {
    let clawhub = |plugin: &str, registration: &str| match installation {
        Installation::Unknown => Ownership::AssumedClawhub {
            plugin: plugin.to_owned(),
            registration: registration.to_owned(),
        },
        Installation::Known(set) if set.contains(plugin) => Ownership::Clawhub {
            plugin: plugin.to_owned(),
            registration: registration.to_owned(),
        },
        Installation::Known(_) => Ownership::MissingClawhub {
            plugin: plugin.to_owned(),
        },
    };
    let Some(entry) = c.id(provider) else {
        return match clawhub_alias(provider) {
            Some(canonical) => clawhub(canonical, canonical),
            None => Ownership::Unowned,
        };
    };
    let owned = match (&entry.plugin, &entry.model_plugin) {
        (Some(plugin), _) => Some((plugin, &entry.registration)),
        (None, Some(plugin)) if model_loads(c, model, plugin) => Some((plugin, &entry.model_as)),
        _ => None,
    };
    let Some((plugin, registration)) = owned else {
        return if entry.source == "clawhub-only" {
            clawhub(&entry.id, &entry.id)
        } else {
            Ownership::Unowned
        };
    };
    let registration = registration.as_deref().unwrap_or(provider);
    match c
        .providers
        .iter()
        .find(|p| p.plugin.as_deref() == Some(plugin.as_str()))
    {
        // A stand-in plays a ClawHub plugin in the oracle: a user has it only when installed.
        Some(p) if p.origin == Origin::StandIn => clawhub(plugin, registration),
        found => Ownership::Plugin {
            plugin: plugin.clone(),
            registration: registration.to_owned(),
            origin: found.map_or(Origin::Bundled, |p| p.origin),
        },
    }
}

/// Whether `model` makes OpenClaw load `plugin` for the owner lookup: `vendor/…` loads the
/// owner of `vendor`, a bare id the plugins whose model prefixes it starts with.
fn model_loads(c: &Catalog, model: &str, plugin: &str) -> bool {
    let m = model.trim();
    match m.split_once('/') {
        Some((vendor, _)) => {
            let vendor = vendor.trim().to_lowercase();
            c.id(&vendor).and_then(|e| e.plugin.as_deref()) == Some(plugin)
        }
        None => c
            .model_prefixes
            .get(plugin)
            .is_some_and(|prefixes| prefixes.iter().any(|p| m.starts_with(p.as_str()))),
    }
}

/// "OpenClaw 2026.9.6 has no route for …" when the release throws before sending anything for
/// this normalised API or provider (a legacy API id, a provider whose stream surface it does not
/// ship).
pub fn no_route(provider: &str, api: &str) -> Option<String> {
    let c = catalog();
    let say =
        |what: &str, id: &str, why: &str| format!("OpenClaw {} has no route for the {what} `{id}`: {why}", c.openclaw);
    if let Some(why) = c.no_route.apis.get(api) {
        return Some(say("API", api, why));
    }
    c.no_route
        .providers
        .get(provider)
        .map(|why| say("provider", provider, why))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plugin_of(provider: &str, model: &str) -> Option<String> {
        owner(provider, model, &Installation::plain()).registration().map(|_| {
            owner(provider, model, &Installation::plain())
                .plugin()
                .unwrap_or_default()
                .to_owned()
        })
    }

    #[test]
    fn release_aliases_reach_their_plugins() {
        assert_eq!(
            plugin_of("claude-cli", "claude-sonnet-4-6").as_deref(),
            Some("anthropic")
        );
        assert_eq!(plugin_of("azure-openai-responses", "x").as_deref(), Some("openai"));
        assert_eq!(plugin_of("x-ai", "grok-4").as_deref(), Some("xai"));
        assert_eq!(plugin_of("minimax-portal-cn", "m").as_deref(), Some("minimax"));
    }

    #[test]
    fn a_hook_alias_needs_the_model_to_load_its_plugin() {
        assert_eq!(plugin_of("azure-openai", "gpt-5").as_deref(), Some("openai"));
        assert_eq!(
            plugin_of("azure-openai", "openai/gpt-oss-120b").as_deref(),
            Some("openai")
        );
        assert_eq!(plugin_of("azure-openai", "claude-sonnet-4-6"), None);
        assert_eq!(plugin_of("azure-openai", "azure/gpt-5"), None);
    }

    #[test]
    fn clawhub_plugins_follow_the_installation() {
        let assumed = owner("moonshot", "kimi-k2.6", &Installation::Unknown);
        assert!(matches!(assumed, Ownership::AssumedClawhub { .. }), "{assumed:?}");
        let missing = owner("moonshot", "kimi-k2.6", &Installation::plain());
        assert_eq!(
            missing,
            Ownership::MissingClawhub {
                plugin: "moonshot".into()
            }
        );
        let installed = owner(
            "moonshotai",
            "kimi-k2.6",
            &Installation::Known(["moonshot".to_owned()].into()),
        );
        assert!(matches!(installed, Ownership::Clawhub { .. }), "{installed:?}");
        let stand_in = owner("amazon-bedrock", "m", &Installation::plain());
        assert!(matches!(stand_in, Ownership::MissingClawhub { .. }), "{stand_in:?}");
    }

    #[test]
    fn legacy_apis_and_missing_surfaces_have_no_route() {
        let api = no_route("openai", "openai-codex-responses").unwrap();
        assert!(
            api.contains("has no route for the API `openai-codex-responses`"),
            "{api}"
        );
        assert!(api.contains("openai-chatgpt-responses"), "{api}");
        assert!(no_route("anthropic-vertex", "anthropic-messages").is_some());
        assert!(no_route("anthropic", "anthropic-messages").is_none());
    }
}
