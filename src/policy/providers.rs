//! The providers a user of an OpenClaw release can pick, read from the release itself.
//!
//! `oracle/openclaw_providers.mjs` (run by `scripts/gen-providers.sh`) reduces the enumeration of
//! `oracle/openclaw_targets.mjs` to `providers/openclaw-<version>.json`, which is compiled in:
//! per provider its id, where its plugin comes from, the plugin that owns its replay policy, the
//! APIs its catalogs declare (none: the user configures any) and one model per API; and the
//! providers published on ClawHub only, which a plain install does not have and which therefore
//! get the unowned fallback policy. `tests/providers.rs` checks the file against the release.
//!
//! [`Catalog::profiles`] is the list the inspector's profile picker offers, and the ids here are
//! what "did you mean" compares an unknown `--provider` / `--api` with.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::{Family, Target, resolve_for};
use crate::rule_set::{Release, RuleSet};

/// The provider id that stands for any provider no plugin owns (a user's own endpoint), as the
/// release enumeration names it.
pub const UNOWNED_PROVIDER: &str = "custom-provider";

/// Where the plugin behind a provider comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Origin {
    /// Shipped inside the openclaw package (`dist/extensions/*`).
    #[serde(rename = "bundled")]
    Bundled,
    /// An `@openclaw/*-provider` package from npm.
    #[serde(rename = "npm")]
    Npm,
    /// replaylens' stand-in for a plugin published on ClawHub only (`oracle/plugins/`).
    #[serde(rename = "stand-in")]
    StandIn,
    /// Published on ClawHub only and not installed: the unowned fallback policy applies.
    #[serde(rename = "clawhub-only")]
    ClawhubOnly,
    /// No plugin: any provider id the release does not know.
    #[serde(rename = "unowned fallback")]
    Unowned,
}

impl Origin {
    /// The id used in output: `bundled`, `npm`, `stand-in`, `clawhub-only`, `unowned fallback`.
    pub fn id(self) -> &'static str {
        match self {
            Origin::Bundled => "bundled",
            Origin::Npm => "npm",
            Origin::StandIn => "stand-in",
            Origin::ClawhubOnly => "clawhub-only",
            Origin::Unowned => "unowned fallback",
        }
    }
}

/// One provider of the release with a plugin folder (bundled, npm or stand-in).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Provider {
    /// The provider id, as the plugin's manifest lists it.
    pub id: String,
    /// Where its plugin comes from.
    pub origin: Origin,
    /// The plugin that owns its replay policy; `None`: the release resolves none (the unowned
    /// fallback applies although a plugin declares the provider).
    pub plugin: Option<String>,
    /// The npm package (npm plugins and stand-ins).
    #[serde(default)]
    pub package: Option<String>,
    /// The APIs its catalogs declare; empty: the user configures any API.
    pub apis: Vec<String>,
    /// One model per API it is offered on (`apis`, or every API of the release when empty).
    pub models: Vec<(String, String)>,
}

/// The providers of one OpenClaw release.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Catalog {
    /// The release, e.g. `2026.9.6`.
    pub openclaw: String,
    /// The release's model API vocabulary.
    pub apis: Vec<String>,
    /// The providers with a plugin folder, sorted by id.
    pub providers: Vec<Provider>,
    /// Providers whose plugin is published on ClawHub only, sorted.
    pub clawhub_only: Vec<String>,
    /// Every provider id and alias the release knows, with its owner, sorted by id.
    pub ids: Vec<ProviderId>,
    /// Per plugin, the model-id prefixes that make OpenClaw load it (`modelSupport`).
    pub model_prefixes: std::collections::BTreeMap<String, Vec<String>>,
    /// What the release cannot route.
    pub no_route: NoRoute,
}

/// One provider id or alias of the release and the plugin `resolveProviderRuntimePlugin` finds
/// for it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderId {
    /// The id, lowercase (OpenClaw's `normalizeProviderId` only trims and lowercases).
    pub id: String,
    /// The plugin that owns it whatever the model; `None`: none does, or only `model_plugin`.
    pub plugin: Option<String>,
    /// The provider registration it resolves to (`plugin`'s provider the hooks run for).
    #[serde(rename = "as")]
    pub registration: Option<String>,
    /// Where the release names it: `provider`, `auth-alias`, `cli-backend`, `catalog`,
    /// `catalog-alias`, `alias`, `hook-alias` or `clawhub-only`.
    pub source: String,
    /// A hook alias: the plugin that owns it when the model makes OpenClaw load that plugin.
    #[serde(default)]
    pub model_plugin: Option<String>,
    /// The registration `model_plugin` resolves it to.
    #[serde(default)]
    pub model_as: Option<String>,
}

/// The APIs and providers OpenClaw throws for before sending anything, each with the reason
/// the release gives or shows.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct NoRoute {
    /// Legacy API ids (`LEGACY_…_API` in dist/) with the doctor's message.
    pub apis: std::collections::BTreeMap<String, String>,
    /// Providers whose stream is a bundled plugin surface the release does not ship.
    pub providers: std::collections::BTreeMap<String, String>,
}

/// A provider / API / model the picker offers, and where its provider comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile<'a> {
    /// Provider id (`custom-provider` for the unowned fallback).
    pub provider: &'a str,
    /// Model API.
    pub api: &'a str,
    /// Model id.
    pub model: &'a str,
    /// Where the provider comes from.
    pub origin: Origin,
}

impl Profile<'_> {
    /// The profile as a replay target.
    pub fn target(&self) -> Target {
        Target::new(Some(self.provider), Some(self.api), Some(self.model))
    }
}

const OPENCLAW_2026_9_6: &str = include_str!("providers/openclaw-2026.9.6.json");

static CATALOG: LazyLock<Catalog> =
    LazyLock::new(|| Catalog::parse(OPENCLAW_2026_9_6).expect("providers/openclaw-2026.9.6.json parses"));

/// The provider list of the newest release replaylens knows (2026.9.6).
pub fn catalog() -> &'static Catalog {
    &CATALOG
}

/// The provider list for a rule set: the newest known one when the set reproduces that
/// release or a later one; `None` for the older sets, whose provider lists are not recorded.
pub fn catalog_for(rule_set: &RuleSet) -> Option<&'static Catalog> {
    let catalog = catalog();
    (rule_set.last >= catalog.release()).then_some(catalog)
}

impl Catalog {
    /// Parse a data file written by `oracle/openclaw_providers.mjs`.
    pub fn parse(text: &str) -> Result<Catalog, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The release number.
    pub fn release(&self) -> Release {
        Release::parse(&self.openclaw).unwrap_or(Release::new(0, 1, 0))
    }

    /// The provider with a plugin folder named `id` (normalised).
    pub fn provider(&self, id: &str) -> Option<&Provider> {
        self.providers.iter().find(|p| p.id == id)
    }

    /// Whether `id` (normalised) is a provider of the release: installed, ClawHub-only, or an
    /// alias the release resolves.
    pub fn is_known_provider(&self, id: &str) -> bool {
        self.provider(id).is_some() || self.clawhub_only.iter().any(|c| c == id) || self.id(id).is_some()
    }

    /// The release's entry for a normalised provider id or alias.
    pub fn id(&self, id: &str) -> Option<&ProviderId> {
        self.ids
            .binary_search_by(|e| e.id.as_str().cmp(id))
            .ok()
            .map(|i| &self.ids[i])
    }

    /// Every provider id of the release: installed ones, then ClawHub-only ones.
    pub fn provider_ids(&self) -> impl Iterator<Item = &str> {
        self.providers
            .iter()
            .map(|p| p.id.as_str())
            .chain(self.clawhub_only.iter().map(String::as_str))
    }

    /// The profiles the unowned fallback is shown with: [`UNOWNED_PROVIDER`] on every API of
    /// the release, with the model a provider that declares no API gets there.
    pub fn unowned_models(&self) -> &[(String, String)] {
        self.providers
            .iter()
            .find(|p| p.apis.is_empty())
            .map_or(&[], |p| p.models.as_slice())
    }

    /// What the profile picker offers: every installed provider on each of its APIs, then the
    /// unowned fallback on every API (which stands for the ClawHub-only providers too). A
    /// provider's default API for a retarget ([`super::defaults::provider_default`], what
    /// `--provider` alone gives) is among its profiles even where the catalog routes the
    /// provider otherwise (Mistral: `mistral-conversations` beside the catalog's
    /// `openai-completions`), so the picker offers what the command line answers.
    pub fn profiles(&self) -> Vec<Profile<'_>> {
        let installed = self.providers.iter().flat_map(|p| {
            let retarget = super::defaults::provider_default(&p.id)
                .filter(|d| !p.models.iter().any(|(api, _)| api == d.api))
                .map(|d| Profile {
                    provider: &p.id,
                    api: d.api,
                    model: d.model,
                    origin: p.origin,
                });
            retarget
                .into_iter()
                .chain(p.models.iter().map(move |(api, model)| Profile {
                    provider: &p.id,
                    api,
                    model,
                    origin: p.origin,
                }))
        });
        let unowned = self.unowned_models().iter().map(|(api, model)| Profile {
            provider: UNOWNED_PROVIDER,
            api,
            model,
            origin: Origin::Unowned,
        });
        installed.chain(unowned).collect()
    }

    /// Every provider with its profiles and the family replaylens resolves for each under
    /// `rule_set`: the installed providers, the unowned fallback, then the ClawHub-only
    /// providers (shown on the unowned fallback's APIs and models).
    pub fn listing(&self, rule_set: &RuleSet) -> Vec<ListedProvider<'_>> {
        let resolved = |provider: &str, models: &[(String, String)]| -> Vec<ListedProfile> {
            models
                .iter()
                .map(|(api, model)| {
                    let target = Target::new(Some(provider), Some(api), Some(model));
                    ListedProfile {
                        api: api.clone(),
                        model: model.clone(),
                        family: resolve_for(&target, rule_set).family,
                    }
                })
                .collect()
        };
        let installed = self.providers.iter().map(|p| ListedProvider {
            provider: &p.id,
            origin: p.origin,
            plugin: p.plugin.as_deref(),
            package: p.package.as_deref(),
            apis: &p.apis,
            profiles: resolved(&p.id, &p.models),
        });
        let unowned = std::iter::once(ListedProvider {
            provider: UNOWNED_PROVIDER,
            origin: Origin::Unowned,
            plugin: None,
            package: None,
            apis: &[],
            profiles: resolved(UNOWNED_PROVIDER, self.unowned_models()),
        });
        let clawhub = self.clawhub_only.iter().map(|id| ListedProvider {
            provider: id,
            origin: Origin::ClawhubOnly,
            plugin: None,
            package: None,
            apis: &[],
            profiles: resolved(id, self.unowned_models()),
        });
        installed.chain(unowned).chain(clawhub).collect()
    }
}

/// One provider of [`Catalog::listing`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedProvider<'a> {
    /// Provider id.
    pub provider: &'a str,
    /// Where it comes from.
    pub origin: Origin,
    /// The plugin that owns its replay policy (`None`: the unowned fallback).
    pub plugin: Option<&'a str>,
    /// Its npm package, for npm plugins and stand-ins.
    pub package: Option<&'a str>,
    /// The APIs its catalogs declare; empty: any.
    pub apis: &'a [String],
    /// One profile per API, with the family replaylens resolves.
    pub profiles: Vec<ListedProfile>,
}

impl ListedProvider<'_> {
    /// Whether the inspector's picker offers this provider's profiles (ClawHub-only providers
    /// are offered through the unowned fallback's).
    pub fn in_picker(&self) -> bool {
        self.origin != Origin::ClawhubOnly
    }

    /// Whether replaylens resolves the unowned fallback's family on every profile, as the
    /// release does for a provider no plugin owns.
    pub fn resolves_as_unowned(&self, unowned: &ListedProvider<'_>) -> bool {
        self.profiles
            .iter()
            .zip(&unowned.profiles)
            .all(|(mine, theirs)| mine.family == theirs.family)
    }
}

/// One profile of a [`ListedProvider`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedProfile {
    /// Model API.
    pub api: String,
    /// Model id.
    pub model: String,
    /// The family replaylens resolves for the provider on this API and model.
    pub family: Family,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_list_parses_and_is_sorted() {
        let c = catalog();
        assert_eq!(c.openclaw, "2026.9.6");
        assert!(c.providers.windows(2).all(|w| w[0].id < w[1].id));
        assert!(c.clawhub_only.windows(2).all(|w| w[0] < w[1]));
        for p in &c.providers {
            let offered: Vec<&str> = p.models.iter().map(|(a, _)| a.as_str()).collect();
            let expected: Vec<&str> = if p.apis.is_empty() { &c.apis } else { &p.apis }
                .iter()
                .map(String::as_str)
                .collect();
            assert_eq!(offered, expected, "{}", p.id);
        }
        assert!(!c.unowned_models().is_empty());
    }

    #[test]
    fn only_the_newest_rule_sets_have_a_list() {
        assert!(catalog_for(RuleSet::newest()).is_some());
        assert!(catalog_for(RuleSet::parse("2026.9.6").unwrap()).is_some());
        assert!(catalog_for(RuleSet::parse("2026.9.2").unwrap()).is_none());
    }

    #[test]
    fn profiles_cover_every_installed_provider_and_the_unowned_fallback() {
        let c = catalog();
        let profiles = c.profiles();
        for p in &c.providers {
            assert!(profiles.iter().any(|x| x.provider == p.id), "{}", p.id);
        }
        assert_eq!(
            profiles.iter().filter(|x| x.provider == UNOWNED_PROVIDER).count(),
            c.apis.len()
        );
        let mistral: Vec<&str> = profiles
            .iter()
            .filter(|x| x.provider == "mistral")
            .map(|x| x.api)
            .collect();
        assert_eq!(mistral, ["mistral-conversations", "openai-completions"]);
        let listing = c.listing(RuleSet::newest());
        assert_eq!(listing.len(), c.providers.len() + 1 + c.clawhub_only.len());
        let unowned = listing.iter().find(|l| l.origin == Origin::Unowned).unwrap();
        assert_eq!((unowned.provider, unowned.plugin), (UNOWNED_PROVIDER, None));
    }
}
