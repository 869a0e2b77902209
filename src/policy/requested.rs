//! The target a replay uses, part by part: given on the command line, inherited from the
//! session's latest model, or the requested provider's default, with warnings about ids that
//! look like typos of known ones.
//!
//! Retargeting a session to another known provider (`--provider mistral` on an Anthropic
//! session) without `--api` / `--model` takes that provider's default API and a representative
//! model ([`super::defaults`]): the session's API and model belong to its own provider, and
//! keeping them would explain another provider's behaviour. A custom provider (one replaylens
//! does not know) keeps the session's API and model, as does a target naming the session's own
//! provider.

use serde::Serialize;

use super::Target;
use super::defaults::{is_known_api, is_known_provider, nearest_apis, nearest_providers, provider_default};
use super::owner::canonical_provider;
use super::predicates::normalize_provider_id;
use crate::model::ModelRef;

/// Where one part of the effective target came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PartOrigin {
    /// Given on the command line (or typed in the inspector).
    Given,
    /// Inherited from the session's latest model.
    Session,
    /// The requested provider's default API or representative model.
    ProviderDefault,
    /// Neither given nor known from the session.
    Missing,
}

impl PartOrigin {
    /// The JSON id: `given`, `session`, `provider-default` or `missing`.
    pub fn id(self) -> &'static str {
        match self {
            PartOrigin::Given => "given",
            PartOrigin::Session => "session",
            PartOrigin::ProviderDefault => "provider-default",
            PartOrigin::Missing => "missing",
        }
    }
}

/// The target a replay uses, with the origin of each part and warnings about the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectiveTarget {
    /// The target (given parts as given, trimmed; `resolve` normalises it).
    pub target: Target,
    /// Where the provider came from.
    pub provider: PartOrigin,
    /// Where the API came from.
    pub api: PartOrigin,
    /// Where the model came from.
    pub model: PartOrigin,
    /// One sentence each, e.g. `unknown provider "antropic"; did you mean "anthropic"?`.
    pub warnings: Vec<String>,
}

/// The `targetOrigin` JSON object: `{"provider": "given", "api": "provider-default", …}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TargetOrigin {
    /// Origin of the provider.
    pub provider: PartOrigin,
    /// Origin of the API.
    pub api: PartOrigin,
    /// Origin of the model.
    pub model: PartOrigin,
}

impl EffectiveTarget {
    /// The origins alone, as serialized in `targetOrigin`.
    pub fn origin(&self) -> TargetOrigin {
        TargetOrigin {
            provider: self.provider,
            api: self.api,
            model: self.model,
        }
    }

    /// True when some part was given and another was not: then where each part came from is
    /// worth saying (a plain `replay SESSION` or a fully given target is not).
    pub fn is_mixed(&self) -> bool {
        let parts = [self.provider, self.api, self.model];
        parts.contains(&PartOrigin::Given) && parts.iter().any(|&o| o != PartOrigin::Given)
    }

    /// The normalised provider id, or `""`.
    fn provider_id(&self) -> String {
        self.target.normalized().provider.unwrap_or_default()
    }

    /// One part with its origin, e.g. `mistral-conversations (mistral's default API)`;
    /// `?` for a missing part. Values are not escaped.
    fn describe_part(&self, value: Option<&str>, origin: PartOrigin, what: &str) -> String {
        let value = value.unwrap_or("?");
        match origin {
            PartOrigin::Given => format!("{value} (given)"),
            PartOrigin::Session => format!("{value} (from the session)"),
            PartOrigin::ProviderDefault => format!("{value} ({}'s default {what})", self.provider_id()),
            PartOrigin::Missing => "? (not given, not in the session)".to_owned(),
        }
    }

    /// `mistral (given) / mistral-conversations (mistral's default API) / mistral-large-latest
    /// (mistral's default model)`, with the normalised target's values. Not escaped.
    pub fn describe(&self) -> String {
        let t = self.target.normalized();
        format!(
            "{} / {} / {}",
            self.describe_part(t.provider.as_deref(), self.provider, "provider"),
            self.describe_part(t.api.as_deref(), self.api, "API"),
            self.describe_part(t.model.as_deref(), self.model, "model"),
        )
    }
}

fn non_blank(s: Option<&String>) -> Option<String> {
    s.map(|s| s.trim()).filter(|s| !s.is_empty()).map(str::to_owned)
}

/// The target a replay of a session whose latest model is `session` uses for `requested`:
/// given parts as given; when a provider replaylens knows is given and differs from the
/// session's (or the session names none), its default API and model for the parts not given;
/// else the session's. Blank parts count as not given.
pub fn effective(requested: &Target, session: &ModelRef) -> EffectiveTarget {
    let given = (
        non_blank(requested.provider.as_ref()),
        non_blank(requested.api.as_ref()),
        non_blank(requested.model.as_ref()),
    );
    let stored = (
        non_blank(session.provider.as_ref()),
        non_blank(session.api.as_ref()),
        non_blank(session.model.as_ref()),
    );
    let session_provider = stored.0.as_deref().map(normalize_provider_id);
    let same = |p: &String| session_provider.as_deref().map(canonical_provider) == Some(canonical_provider(p));
    let default = given
        .0
        .as_deref()
        .map(normalize_provider_id)
        .filter(|p| !same(p))
        .and_then(|p| provider_default(&p));
    // The session's API and model belong to another provider: they do not apply.
    let other_provider = session_provider.is_some();
    let fill = |given: Option<String>, stored: Option<String>, default: Option<&'static str>| match (given, stored) {
        (Some(g), _) => (Some(g), PartOrigin::Given),
        (None, stored) if default.is_some() && (other_provider || stored.is_none()) => {
            (default.map(str::to_owned), PartOrigin::ProviderDefault)
        }
        (None, Some(s)) => (Some(s), PartOrigin::Session),
        (None, None) => (None, PartOrigin::Missing),
    };
    let (provider, provider_origin) = fill(given.0.clone(), stored.0, None);
    let (api, api_origin) = fill(given.1.clone(), stored.1, default.map(|d| d.api));
    let (model, model_origin) = fill(given.2, stored.2, default.map(|d| d.model));
    EffectiveTarget {
        target: Target { provider, api, model },
        provider: provider_origin,
        api: api_origin,
        model: model_origin,
        warnings: warnings(given.0.as_deref(), given.1.as_deref()),
    }
}

/// The "did you mean" warnings about a requested target alone (no session): one sentence for
/// a provider or API id that is unknown but close to known ones.
pub fn target_warnings(requested: &Target) -> Vec<String> {
    warnings(
        non_blank(requested.provider.as_ref()).as_deref(),
        non_blank(requested.api.as_ref()).as_deref(),
    )
}

/// "Did you mean" for a given provider or API that is unknown but close to known ids (the
/// release's provider list, [`super::providers`]).
fn warnings(provider: Option<&str>, api: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(p) = provider {
        let id = normalize_provider_id(p);
        let near = nearest_providers(&id);
        if !is_known_provider(&id) && !near.is_empty() {
            out.push(format!("unknown provider \"{p}\"; did you mean {}?", one_of(&near)));
        }
    }
    if let Some(a) = api {
        let id = a.to_ascii_lowercase();
        let near = nearest_apis(&id);
        if !is_known_api(&id) && !near.is_empty() {
            out.push(format!("unknown API \"{a}\"; did you mean {}?", one_of(&near)));
        }
    }
    out
}

/// `"a"`, `"a" or "b"`, `"a", "b" or "c"`.
pub(crate) fn one_of(ids: &[&str]) -> String {
    let quoted: Vec<String> = ids.iter().map(|id| format!("\"{id}\"")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::PartOrigin::{Given, Missing, ProviderDefault, Session};
    use super::*;

    fn session(p: Option<&str>, a: Option<&str>, m: Option<&str>) -> ModelRef {
        ModelRef {
            provider: p.map(str::to_owned),
            api: a.map(str::to_owned),
            model: m.map(str::to_owned),
        }
    }

    fn anthropic_session() -> ModelRef {
        session(Some("anthropic"), Some("anthropic-messages"), Some("claude-sonnet-4-6"))
    }

    fn parts(e: &EffectiveTarget) -> (&str, &str, &str) {
        (e.target.provider_str(), e.target.api_str(), e.target.model_str())
    }

    #[test]
    fn another_known_provider_brings_its_default_api_and_model() {
        let e = effective(&Target::new(Some("mistral"), None, None), &anthropic_session());
        assert_eq!(parts(&e), ("mistral", "mistral-conversations", "mistral-large-latest"));
        assert_eq!((e.provider, e.api, e.model), (Given, ProviderDefault, ProviderDefault));
        assert!(e.warnings.is_empty());
        assert!(e.is_mixed());
        assert_eq!(
            e.describe(),
            "mistral (given) / mistral-conversations (mistral's default API) / mistral-large-latest (mistral's default model)"
        );
        let json = crate::model::json::to_value(&e.origin()).unwrap();
        assert_eq!(
            json,
            crate::json!({"provider": "given", "api": "provider-default", "model": "provider-default"})
        );
    }

    #[test]
    fn origin_ids_are_their_json_names() {
        for o in [Given, Session, ProviderDefault, Missing] {
            assert_eq!(crate::model::json::to_value(&o).unwrap(), o.id());
        }
    }

    #[test]
    fn given_parts_win_over_the_providers_defaults() {
        let e = effective(
            &Target::new(Some("openrouter"), None, Some("anthropic/claude-sonnet-4-6")),
            &anthropic_session(),
        );
        assert_eq!(
            parts(&e),
            ("openrouter", "openai-completions", "anthropic/claude-sonnet-4-6")
        );
        assert_eq!((e.api, e.model), (ProviderDefault, Given));
        let e = effective(
            &Target::new(Some("openai"), Some("openai-completions"), None),
            &anthropic_session(),
        );
        assert_eq!(parts(&e), ("openai", "openai-completions", "gpt-5.1"));
    }

    #[test]
    fn the_sessions_own_provider_keeps_its_api_and_model() {
        let e = effective(&Target::new(Some(" Anthropic "), None, None), &anthropic_session());
        assert_eq!(parts(&e), ("Anthropic", "anthropic-messages", "claude-sonnet-4-6"));
        assert_eq!((e.provider, e.api, e.model), (Given, Session, Session));
        let bedrock = session(
            Some("bedrock"),
            Some("bedrock-converse-stream"),
            Some("amazon.nova-pro-v1"),
        );
        let e = effective(&Target::new(Some("amazon-bedrock"), None, None), &bedrock);
        assert_eq!(
            e.target.model_str(),
            "amazon.nova-pro-v1",
            "aliases name the same provider"
        );
    }

    #[test]
    fn nothing_given_inherits_everything_and_says_nothing() {
        let e = effective(&Target::default(), &anthropic_session());
        assert_eq!(parts(&e), ("anthropic", "anthropic-messages", "claude-sonnet-4-6"));
        assert_eq!((e.provider, e.api, e.model), (Session, Session, Session));
        assert!(!e.is_mixed());
        let e = effective(&Target::new(Some(""), Some("  "), None), &anthropic_session());
        assert_eq!(e.provider, Session, "blank parts are not given");
    }

    #[test]
    fn a_custom_provider_inherits_without_a_warning() {
        let e = effective(&Target::new(Some("my-gateway"), None, None), &anthropic_session());
        assert_eq!(parts(&e), ("my-gateway", "anthropic-messages", "claude-sonnet-4-6"));
        assert_eq!((e.api, e.model), (Session, Session));
        assert!(e.warnings.is_empty(), "{:?}", e.warnings);
        assert_eq!(
            e.describe(),
            "my-gateway (given) / anthropic-messages (from the session) / claude-sonnet-4-6 (from the session)"
        );
    }

    #[test]
    fn a_near_miss_warns_with_did_you_mean_and_still_runs() {
        let e = effective(&Target::new(Some("antropic"), None, None), &anthropic_session());
        assert_eq!(
            e.warnings,
            ["unknown provider \"antropic\"; did you mean \"anthropic\"?"]
        );
        assert_eq!(parts(&e), ("antropic", "anthropic-messages", "claude-sonnet-4-6"));
        for (typo, known) in [("googel", "google"), ("Mistal", "mistral")] {
            let e = effective(&Target::new(Some(typo), None, None), &anthropic_session());
            assert_eq!(
                e.warnings,
                [format!("unknown provider \"{typo}\"; did you mean \"{known}\"?")]
            );
        }
        let e = effective(
            &Target::new(None, Some("anthropic-message"), None),
            &anthropic_session(),
        );
        assert_eq!(
            e.warnings,
            ["unknown API \"anthropic-message\"; did you mean \"anthropic-messages\"?"]
        );
        let e = effective(
            &Target::new(None, Some("openai-completion"), None),
            &anthropic_session(),
        );
        assert_eq!(e.warnings.len(), 1);
        assert!(e.warnings[0].ends_with("did you mean \"openai-completions\"?"));
    }

    #[test]
    fn several_near_misses_are_all_named() {
        assert_eq!(one_of(&["a"]), "\"a\"");
        assert_eq!(one_of(&["a", "b"]), "\"a\" or \"b\"");
        assert_eq!(one_of(&["a", "b", "c"]), "\"a\", \"b\" or \"c\"");
    }

    #[test]
    fn a_session_without_a_provider_takes_what_it_has_then_the_defaults() {
        let bare = session(None, None, Some("claude-sonnet-4-6"));
        let e = effective(&Target::new(Some("anthropic"), None, None), &bare);
        assert_eq!(parts(&e), ("anthropic", "anthropic-messages", "claude-sonnet-4-6"));
        assert_eq!((e.api, e.model), (ProviderDefault, Session));
        let e = effective(&Target::default(), &ModelRef::default());
        assert_eq!((e.provider, e.api, e.model), (Missing, Missing, Missing));
        let e = effective(&Target::new(Some("my-gateway"), None, None), &ModelRef::default());
        assert_eq!(
            e.describe(),
            "my-gateway (given) / ? (not given, not in the session) / ? (not given, not in the session)"
        );
    }
}
