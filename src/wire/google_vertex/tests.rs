//! Expectations are OpenClaw 2026.9.6's own output: `oracle_cases.json` holds message arrays
//! and the `contents` `oracle/openclaw_payload.mjs` captured for provider and API
//! `google-vertex` (the google plugin's Vertex transport, transform included). The messages
//! are the Gemini module's cases, with their Gemini turns relabelled as Vertex turns
//! (`__vertex_origin`) or as stored (`__as_stored`, turns of another provider and API).

use crate::wire::WireApi;
use crate::wire::test_support::{assert_matches_every_case, built, oracle_cases, values};

#[test]
fn matches_openclaw_on_every_oracle_case() {
    let cases = oracle_cases(include_str!("oracle_cases.json"), "", 40);
    assert_matches_every_case(&cases, |case| {
        values(&built(WireApi::GoogleVertex, &case.messages, &case.model))
    });
}

#[test]
fn the_api_id_names_the_contents_body() {
    assert_eq!(WireApi::from_api("google-vertex"), Some(WireApi::GoogleVertex));
    assert_eq!(WireApi::GoogleVertex.conversation_key(), "contents");
}
