//! Each bundled sample session, replayed against the target it was built for, fires exactly
//! the rules it was built to trigger (sample-sessions/MANIFEST.md); together they fire all 26.

mod common;

use std::collections::BTreeSet;

use replaylens::hygiene::{ReplayOptions, rules};
use replaylens::load::{LoadOptions, load_path};
use replaylens::policy::{Family, Target, preset};
use replaylens::replay::replay;

/// (file, expected rule ids) for the session's own target.
const EXPECTED: &[(&str, &[&str])] = &[
    (
        "anthropic-tool-repair.jsonl",
        &[
            "anthropic-turn-merge",
            "blank-text",
            "dangling-tool-call",
            "invalid-thinking-signature",
            "malformed-tool-call",
            "prefill-strip",
            "reasoning-only-length",
            "stream-error-turn",
            "tool-result-details",
            "tool-result-pairing",
        ],
    ),
    (
        "compaction-and-branch.jsonl",
        &[
            "compaction-signature",
            "drop-thinking",
            "invalid-thinking-signature",
            "stale-usage",
            "stream-error-turn",
            "tool-call-id",
            "tool-result-details",
        ],
    ),
    (
        "gateway-channel-noise.jsonl",
        &[
            "blank-user-turn",
            "duplicate-mirror",
            "inter-session-provenance",
            "internal-metadata",
            "prefill-strip",
            "silent-reply",
            "stream-error-turn",
            "tool-result-details",
            "transcript-only-assistant",
        ],
    ),
    (
        "gemini-signatures.jsonl",
        &[
            "gemini-turn-merge",
            "google-bootstrap",
            "thought-signature",
            "tool-call-id",
            "tool-result-details",
        ],
    ),
    (
        "local-completions-reasoning.jsonl",
        &[
            "drop-reasoning-history",
            "gemini-turn-merge",
            "tool-call-id",
            "tool-result-details",
        ],
    ),
    (
        "mistral-ids-and-images.jsonl",
        &["blank-text", "image-sanitize", "tool-call-id", "tool-result-details"],
    ),
    (
        "openai-responses-switch.jsonl",
        &[
            "malformed-tool-call",
            "responses-reasoning",
            "tool-result-details",
            "tool-result-pairing",
        ],
    ),
];

fn fired(file: &str, target: &Target) -> (BTreeSet<&'static str>, BTreeSet<&'static str>) {
    let path = common::bundled_samples().join(file);
    let session = load_path(&path, &LoadOptions::default()).unwrap();
    let r = replay(&session, target, &ReplayOptions::default());
    (
        r.projection.rewrites.iter().map(|rw| rw.rule).collect(),
        r.projection.rules_run.iter().copied().collect(),
    )
}

#[test]
fn each_sample_fires_the_rules_it_was_built_for() {
    let mut union = BTreeSet::new();
    for (file, expected) in EXPECTED {
        let (rules_fired, _) = fired(file, &Target::default());
        let expected: BTreeSet<&str> = expected.iter().copied().collect();
        assert_eq!(rules_fired, expected, "{file}");
        union.extend(rules_fired);
    }
    let all: BTreeSet<&str> = rules::pipeline().iter().map(|r| r.info().id).collect();
    assert_eq!(all.len(), 26);
    assert_eq!(union, all, "together the samples trigger every rule");
}

#[test]
fn every_family_replays_every_sample_and_only_enabled_rules_fire() {
    for (file, _) in EXPECTED {
        for &family in Family::all() {
            let (rules_fired, rules_run) = fired(file, &preset(family));
            assert!(
                rules_fired.is_subset(&rules_run),
                "{file} → {}: {rules_fired:?} not all enabled",
                family.id()
            );
        }
    }
}

#[test]
fn database_windows_fire_the_same_rules_as_their_sources() {
    let db = common::bundled_samples().join("openclaw-agent.sqlite");
    for w in replaylens::load::sqlite::list_windows(&db).unwrap() {
        let s = load_path(
            &db,
            &LoadOptions {
                session: Some(w.session_id.clone()),
                ..LoadOptions::default()
            },
        )
        .unwrap();
        let from_db: BTreeSet<&str> = replay(&s, &Target::default(), &ReplayOptions::default())
            .projection
            .rewrites
            .iter()
            .map(|rw| rw.rule)
            .collect();
        let source = EXPECTED
            .iter()
            .find(|(file, _)| {
                load_path(&common::bundled_samples().join(file), &LoadOptions::default())
                    .unwrap()
                    .id
                    == s.id
            })
            .expect("every window comes from a sample file");
        let expected: BTreeSet<&str> = source.1.iter().copied().collect();
        assert_eq!(from_db, expected, "window {}", w.session_id);
    }
}
