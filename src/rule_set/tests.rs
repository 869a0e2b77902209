use super::*;

#[test]
fn names_aliases_and_release_numbers_resolve() {
    assert!(RuleSet::named("newest").unwrap().is_newest());
    assert_eq!(RuleSet::named("2026.9.6").unwrap().name, "2026.9.6");
    assert_eq!(RuleSet::named("v2026.9.5").unwrap().name, "2026.9.6");
    assert!(RuleSet::named("2026.5.28").is_none());
    for (release, set) in [
        ("2026.9.6", "2026.9.6"),
        ("2026.9.5", "2026.9.6"),
        ("2026.9.4", "2026.9.3"),
        ("v2026.9.3", "2026.9.3"),
        ("2026.9.2", "2026.9.2"),
        ("2026.9.1", "2026.8"),
        ("2026.8.2", "2026.8"),
        ("2026.8.1-beta.2", "2026.8"),
        ("2026.9.7", "newest"),
        ("2026.12.1", "newest"),
    ] {
        assert_eq!(RuleSet::parse(release).unwrap().name, set, "{release}");
    }
    let err = RuleSet::parse("2025.1.1").unwrap_err().to_string();
    assert!(
        err.contains("2025.1") && err.contains("older than every rule set"),
        "{err}"
    );
    let err = RuleSet::parse("latest-ish").unwrap_err().to_string();
    assert!(
        err.contains("latest-ish") && err.contains("newest") && err.contains("2026.9.6"),
        "{err}"
    );
}

#[test]
fn ranges_are_contiguous_and_ordered() {
    for pair in RULE_SETS.windows(2) {
        let (newer, older) = (pair[0], pair[1]);
        assert!(older.last < newer.first, "{} overlaps {}", older.name, newer.name);
        let next = older
            .last
            .patch
            .checked_add(1)
            .map(|p| Release::new(older.last.year, older.last.month, p));
        let next_month = Release::new(older.last.year, older.last.month + 1, 0);
        assert!(
            Some(newer.first) == next || newer.first == next_month,
            "gap between {} and {}",
            older.name,
            newer.name
        );
    }
}

#[test]
fn each_set_names_its_switches() {
    let names = |set: &RuleSet| set.differences().into_iter().map(|d| d.switch).collect::<Vec<_>>();
    assert!(NEWEST.differences().is_empty());
    assert_eq!(
        names(&V2026_9_6),
        ["legacy-synthetic-result-text", "strip-synthetic-marker"]
    );
    assert_eq!(
        names(&V2026_9_3),
        [
            "legacy-synthetic-result-text",
            "strip-synthetic-marker",
            "name-check-completed-calls"
        ]
    );
    assert_eq!(
        names(&V2026_9_2),
        [
            "legacy-synthetic-result-text",
            "strip-synthetic-marker",
            "name-check-completed-calls",
            "empty-turn-placeholder",
            "append-only-off-on-responses"
        ]
    );
    assert_eq!(
        names(&V2026_8),
        [
            "legacy-synthetic-result-text",
            "strip-synthetic-marker",
            "name-check-completed-calls",
            "empty-turn-placeholder",
            "no-append-only-context",
            "responses-orphan-reasoning-in-history",
            "reduce-error-whole-megabytes"
        ]
    );
    assert_eq!(
        names(&V2026_7)[7..],
        [
            "legacy-claude-thinking",
            "no-delivery-mirror-marker",
            "no-duplicate-mirror-check",
            "metadata-by-label",
            "keep-reasoning-after-silent-reply",
            "legacy-responses-call-ids",
            "no-compaction-checkpoints",
            "legacy-pairing",
            "rastermill-0.3.1-heif"
        ]
    );
    assert_eq!(
        names(&V2026_6)[names(&V2026_7).len()..],
        ["silent-token-exact", "unpadded-image-base64"]
    );
    assert_eq!(
        names(&V2026_6_9)[names(&V2026_6).len()..],
        [
            "no-image-input-limit",
            "no-responses-invariant",
            "legacy-result-id-fields"
        ]
    );
    assert_eq!(V2026_9_6.differences_for("tool-result-details").len(), 1);
}

#[test]
fn older_releases_resolve_to_2026_7_and_2026_6() {
    for release in ["2026.7.35", "2026.7.2-beta.4", "2026.7.1"] {
        assert_eq!(RuleSet::parse(release).unwrap().name, "2026.7", "{release}");
    }
    for release in ["2026.6.11", "2026.6.34", "2026.6.35"] {
        assert_eq!(RuleSet::parse(release).unwrap().name, "2026.6", "{release}");
    }
    for release in ["2026.6.9", "2026.6.10"] {
        assert_eq!(RuleSet::parse(release).unwrap().name, "2026.6.9", "{release}");
    }
    for release in ["2026.6.8", "2026.6.1", "2026.5.28"] {
        assert!(RuleSet::parse(release).is_err(), "{release}");
    }
}

#[test]
fn claude_thinking_follows_the_release() {
    use crate::policy::{Target, resolve_for};
    let drops = |model: &str, set: &RuleSet| {
        resolve_for(
            &Target::new(Some("anthropic"), Some("anthropic-messages"), Some(model)),
            set,
        )
        .policy
        .drop_thinking_blocks
    };
    assert!(drops("claude-sonnet-4-5", &V2026_8));
    assert!(!drops("claude-sonnet-4-5", &V2026_7));
    assert!(!drops("claude-opus-4-1", &V2026_7));
    assert!(drops("claude-3-7-sonnet", &V2026_7));
    assert!(!drops("claude-5-haiku", &V2026_7));
}

#[test]
fn recorded_releases_pick_their_set_or_say_why_not() {
    let (set, line) = RuleSet::for_recorded("2026.9.4");
    assert_eq!(set.map(|s| s.name), Some("2026.9.3"));
    assert!(line.contains("2026.9.4"), "{line}");
    let (set, line) = RuleSet::for_recorded("2026.3.10");
    assert!(set.is_none());
    assert!(
        line.contains("2026.3.10") && line.contains("oldest: 2026.6.9"),
        "{line}"
    );
}

#[test]
fn append_only_context_follows_the_release() {
    use crate::policy::{Target, resolve_for};
    let flag = |provider: &str, api: &str, model: &str, set: &RuleSet| {
        resolve_for(&Target::new(Some(provider), Some(api), Some(model)), set)
            .policy
            .append_only_runtime_context
    };
    assert_eq!(flag("openai", "openai-responses", "gpt-5", &V2026_9_3), Some(true));
    assert_eq!(flag("openai", "openai-responses", "gpt-5", &V2026_9_2), Some(false));
    assert_eq!(flag("openai", "openai-responses", "gpt-5", &V2026_8), None);
    assert_eq!(
        flag("google", "google-generative-ai", "gemini-2.5-pro", &V2026_9_2),
        Some(false)
    );
    assert_eq!(flag("google", "google-generative-ai", "gemini-2.5-pro", &V2026_8), None);
}
