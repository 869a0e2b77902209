//! A requested provider replaylens does not know: without `--api` it is most likely a typo, an
//! API id or a model id given as a provider, so it is refused with what was probably meant;
//! with `--api` it is a custom provider over that API, said in one note.

use super::Target;
use super::defaults::{closest_providers, is_known_api, is_known_provider, nearest_providers};
use super::predicates::normalize_provider_id;
use super::providers::{UNOWNED_PROVIDER, catalog};
use super::requested::one_of;

/// What to say about the requested provider: `Ok(None)` for a known provider or none,
/// `Ok(Some(note))` for a custom provider over a given API (`custom provider my-gateway over
/// API openai-completions`), `Err(sentence)` for an unknown provider without `--api`.
pub fn check_provider(requested: &Target) -> Result<Option<String>, String> {
    let Some(given) = requested.provider.as_deref().map(str::trim).filter(|p| !p.is_empty()) else {
        return Ok(None);
    };
    let id = normalize_provider_id(given);
    if is_known_provider(&id) {
        return Ok(None);
    }
    if let Some(api) = requested.api.as_deref().map(str::trim).filter(|a| !a.is_empty()) {
        return Ok(Some(format!("custom provider {given} over API {api}")));
    }
    Err(refusal(given, &id))
}

/// The sentence refusing an unknown provider given without `--api`.
fn refusal(given: &str, id: &str) -> String {
    let lower = given.to_ascii_lowercase();
    if is_known_api(&lower) {
        let provider = provider_of(|api, _| api == lower).unwrap_or("PROVIDER");
        return format!("{given} is an API, not a provider: pass --api {lower} with --provider {provider}");
    }
    if let Some(provider) = provider_of(|_, model| model == given) {
        return format!("{given} is a model, not a provider: pass --model {given} with --provider {provider}");
    }
    let custom = "a provider replaylens does not know needs --api naming the API it speaks";
    if id == UNOWNED_PROVIDER {
        return format!("{given} stands for any provider the release does not know: {custom}");
    }
    let near = nearest_providers(id);
    if near.is_empty() {
        let closest = closest_providers(id, 3);
        format!(
            "unknown provider \"{given}\" (the closest known ones are {}); {custom}",
            one_of(&closest)
        )
    } else {
        format!(
            "unknown provider \"{given}\"; did you mean {}? ({custom})",
            one_of(&near)
        )
    }
}

/// The provider whose profiles include one matching `wanted`, preferring one whose id begins
/// the API's (`openai` for `openai-responses`).
fn provider_of(wanted: impl Fn(&str, &str) -> bool) -> Option<&'static str> {
    let owners: Vec<(&'static str, &'static str)> = catalog()
        .providers
        .iter()
        .flat_map(|p| {
            p.models
                .iter()
                .filter(|(a, m)| wanted(a, m))
                .map(move |(a, _)| (p.id.as_str(), a.as_str()))
        })
        .collect();
    owners
        .iter()
        .find(|(p, a)| a.starts_with(&format!("{p}-")))
        .or(owners.first())
        .map(|(p, _)| *p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(provider: &str, api: Option<&str>) -> Result<Option<String>, String> {
        check_provider(&Target::new(Some(provider), api, None))
    }

    #[test]
    fn known_providers_pass_and_custom_ones_need_an_api() {
        assert_eq!(check("anthropic", None), Ok(None));
        assert_eq!(check("Anthropic", None), Ok(None));
        assert_eq!(
            check("my-gateway", Some("openai-completions")),
            Ok(Some("custom provider my-gateway over API openai-completions".into()))
        );
        let err = check("my-gateway", None).unwrap_err();
        assert!(
            err.starts_with("unknown provider \"my-gateway\" (the closest known ones are "),
            "{err}"
        );
        assert!(err.ends_with("needs --api naming the API it speaks"), "{err}");
        let err = check("antropic", None).unwrap_err();
        assert!(err.contains("did you mean \"anthropic\"?"), "{err}");
    }

    #[test]
    fn an_api_or_model_given_as_provider_is_named_as_such() {
        assert_eq!(
            check("openai-responses", None).unwrap_err(),
            "openai-responses is an API, not a provider: pass --api openai-responses with --provider openai"
        );
        let err = check(UNOWNED_PROVIDER, None).unwrap_err();
        assert!(err.contains("stands for any provider"), "{err}");
    }
}
