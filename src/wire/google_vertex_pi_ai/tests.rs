//! Expectations are OpenClaw 2026.9.6's own output: `oracle_cases.json` holds message arrays
//! and the `contents` `oracle/openclaw_payload.mjs` captured for API `google-vertex` on
//! providers outside the google plugin (route `session-custom`: `@openclaw/ai`'s built-in
//! provider, transform included). The messages are the Vertex module's cases, sent to other
//! providers and models (Gemini 3, Claude ids, `google-gemini-cli`) with their Vertex turns
//! relabelled as turns of the target.

use crate::wire::WireApi;
use crate::wire::test_support::{assert_matches_every_case, built, oracle_cases, values};

#[test]
fn matches_openclaw_on_every_oracle_case() {
    let cases = oracle_cases(include_str!("oracle_cases.json"), "", 40);
    assert_matches_every_case(&cases, |case| {
        values(&built(WireApi::GoogleVertexPiAi, &case.messages, &case.model))
    });
}

#[test]
fn only_the_google_plugin_providers_keep_its_transport() {
    for provider in ["google", "google-vertex", " Google-Vertex "] {
        assert_eq!(
            WireApi::for_target(provider, "google-vertex"),
            Some(WireApi::GoogleVertex)
        );
    }
    for provider in [
        "vllm",
        "google-gemini-cli",
        "google-antigravity",
        "amazon-bedrock",
        "my-llm",
    ] {
        assert_eq!(
            WireApi::for_target(provider, "google-vertex"),
            Some(WireApi::GoogleVertexPiAi)
        );
        assert_eq!(
            WireApi::for_target(provider, "google-generative-ai"),
            Some(WireApi::GoogleGenerativeAi)
        );
    }
    assert_eq!(WireApi::GoogleVertexPiAi.id(), "google-vertex");
    assert_eq!(WireApi::GoogleVertexPiAi.conversation_key(), "contents");
}
