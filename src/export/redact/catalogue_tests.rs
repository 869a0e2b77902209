//! The gitleaks catalogue: what loads, what is skipped and why, and that the keyword prefilter
//! loses nothing.

use super::*;

/// The rules of `gitleaks.toml` this crate cannot use, with the reason. A refresh that adds one
/// fails here until it is looked at (nothing is dropped silently).
const SKIPPED: &[&str] = &["pkcs12-file"];

#[test]
fn every_rule_loads_or_is_named_as_skipped() {
    let file: FileSpec = toml::from_str(GITLEAKS_TOML).unwrap();
    let total = file.rules.len();
    let cat = &*CATALOGUE;
    let skipped_rules: Vec<&str> = cat
        .skipped
        .iter()
        .filter(|(id, _)| !id.contains(" allowlist "))
        .map(|(id, _)| id.as_str())
        .collect();
    assert_eq!(skipped_rules, SKIPPED, "skipped: {:#?}", cat.skipped);
    assert_eq!(cat.len() + skipped_rules.len(), total);
    assert!(cat.len() >= 200, "{} rules loaded", cat.len());
    let skipped_allow: Vec<&(String, String)> = cat
        .skipped
        .iter()
        .filter(|(id, _)| id.contains(" allowlist "))
        .collect();
    assert!(skipped_allow.is_empty(), "{skipped_allow:#?}");
    eprintln!(
        "gitleaks: {total} rules, {} loaded, {} skipped; {} allowlist patterns skipped: {skipped_allow:#?}",
        cat.len(),
        skipped_rules.len(),
        skipped_allow.len()
    );
}

/// Secrets only gitleaks' rules name (samples written for this test, in the rules' shapes).
pub(crate) const SAMPLES: &[(&str, &str)] = &[
    (
        "age-secret-key",
        "AGE-SECRET-KEY-1QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
    ),
    (
        "doppler-api-token",
        "dp.pt.Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6Kl9No2Qr",
    ),
    ("linear-api-key", "lin_api_Zq8Xw2Ce4Rv6Tb8Yn0Um2Ik4Ol6Pa8Sd0Fg2Hj4K"),
    ("pulumi-api-token", "pul-3f9a1c7e5b2d8f4a6c0e1b3d5f7a9c2e4b6d8f0a"),
    (
        "rubygems-api-token",
        "rubygems_5e1f9a3c7b2d6e0f4a8c1b5d9e3f7a2c6b0d4e8f1a5c9b3d",
    ),
    (
        "shippo-api-token",
        "shippo_live_9c2e4a6b8d0f1e3c5a7b9d2f4e6a8c0b1d3f5e7a",
    ),
    ("asana-client-id", "asana: 1203948576012345"),
    (
        "zendesk-secret-key",
        "zendesk_secret: q8w2e4r6t8y0u2i4o6p8a0s2d4f6g8h0j2k4l6z8",
    ),
];

#[test]
fn gitleaks_samples_are_found_and_the_prefilter_loses_nothing() {
    let cat = &*CATALOGUE;
    for (id, sample) in SAMPLES {
        assert!(cat.ids().any(|i| i == *id), "{id} loaded");
        let mut found = Vec::new();
        cat.find(sample, &mut found);
        assert!(!found.is_empty(), "{id}: nothing found in {sample}");
        // The rules whose keywords occur (a plain substring search) find no more.
        let lower = sample.to_ascii_lowercase();
        let mut all = Vec::new();
        for rule in &cat.rules {
            if rule.keywords.is_empty() || rule.keywords.iter().any(|k| lower.contains(k.as_str())) {
                cat.run(rule, sample, &mut all);
            }
        }
        found.sort_unstable();
        all.sort_unstable();
        assert_eq!(found, all, "{id}");
    }
}

#[test]
fn allowlists_and_stopwords_keep_what_gitleaks_keeps() {
    let cat = &*CATALOGUE;
    let mut found = Vec::new();
    // The AWS rule's own allowlist (`.+EXAMPLE$`).
    cat.find("key AKIAIOSFODNN7EXAMPLE", &mut found);
    // The generic rule's stopwords and the global allowlist (`${VAR}`).
    cat.find("api_key = ${API_KEY}", &mut found);
    cat.find("token = 'the-example-value'", &mut found);
    assert!(found.is_empty(), "{found:?}");
    cat.find("key AKIAZ7QW3ER5TY2UI4OP", &mut found);
    assert_eq!(found.len(), 1);
}

#[test]
fn a_brace_that_starts_no_repetition_is_literal_as_in_re2() {
    assert_eq!(literal_braces(r"^\$(?:\d+|{\d+})$"), r"^\$(?:\d+|\{\d+})$");
    assert_eq!(literal_braces(r"a{2,3}[{]\{x"), r"a{2,3}[{]\{x");
    assert!(compile(r"^\${(?:[A-Z_]+|[a-z_]+)}$").unwrap().is_match("${API_KEY}"));
}
