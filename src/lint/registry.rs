//! Every constraint replaylens checks: the hand-written ones, grouped by provider, then the
//! rows of the limits table. Findings of one payload item are reported in this order, so each
//! API's limits come after its hand-written constraints.
//!
//! Provider constraints on record (in the providers' API documentation and public issues) that are
//! not checked, and why:
//!
//! - Need parts of the request outside the conversation:
//!   Anthropic tool name charset/length and unique tool names (`tools`), at most 4
//!   `cache_control` breakpoints (cache markers are added by the transport, not the
//!   converter), forced `tool_choice` with manual thinking (`tool_choice`, `thinking`),
//!   "final assistant message must start with a thinking block" and "thinking disabled ⇒ no
//!   thinking in the final assistant" (both need the request's `thinking` setting); Gemini
//!   function declaration names (`tools`); Bedrock `toolConfig` required with
//!   toolUse/toolResult (`toolConfig`); Responses `store: false` on the Codex backend and
//!   items that `store: false` cannot resolve (`store`).
//! - Need the provider's own state or cryptography: Anthropic thinking signature verification
//!   ("Invalid `signature`" for a non-blank signature) and "latest assistant thinking cannot
//!   be modified" (need the original response); Responses `encrypted_content` verification
//!   and "function_call / message without its required 'reasoning' item" (which `rs_` item
//!   produced an item is known only to OpenAI); Gemini "Corrupted thought signature".
//! - Model- or deployment-specific, or unconfirmed: Anthropic "does not support assistant
//!   message prefill" (which models is a third-party claim); Anthropic role alternation (the
//!   API now merges consecutive turns); older Anthropic wording (tool results first in the
//!   message); Bedrock "Conversation blocks and tool use blocks cannot be provided in the same
//!   turn" (llama4 only); Gemini user/model alternation (accepted since 2024-11), "ends with
//!   a user role" (2023 wording), "must have a text parameter" (Vertex only), one data field per
//!   part, inline image 7 MB and image counts (Vertex, per model); OpenAI image count and
//!   total image bytes (doc mirror, no error text), image patch budget (model unverified),
//!   Responses `input_image` data-URI length (measured by one reporter), `web_search_call`
//!   action types and `summary` on non-OpenAI implementations; Mistral "not both" content and
//!   tool_calls (2024 wording, likely gone); Bedrock documents (OpenClaw sends none), images
//!   only in user messages (documented, no text; tool images travel in user toolResults);
//!   OpenAI-compatible servers (vLLM, llama.cpp, Ollama's `/v1`, DeepSeek, …), which
//!   have no API of their own here (Ollama's native `/api/chat` has: [`ollama`]); Ollama image
//!   formats and counts (per model and runner, errors logged rather than returned).
//! - OpenAI Chat "Invalid 'messages': empty array": OpenClaw always sends its system prompt as
//!   the first message, so the array is never empty, even for an empty transcript.
//! - About the last message of the request: Mistral "Expected last role User or Tool" and
//!   Anthropic "final assistant content cannot end with trailing whitespace". A stored session
//!   at rest ends with the assistant's reply, and the next request appends the user's new
//!   prompt after it, so the transcript alone cannot break them; checking them would flag
//!   every session.
//! - Server tools: Anthropic `server_tool_use` id charset and results needing a
//!   `server_tool_use` (OpenClaw's converters send none).

use super::Constraint;
use super::{anthropic, bedrock, google, limits, mistral, ollama, openai_chat, openai_responses};
use crate::wire::WireApi;

/// All constraints.
pub fn all() -> impl Iterator<Item = &'static Constraint> {
    [
        anthropic::CONSTRAINTS,
        openai_chat::CONSTRAINTS,
        openai_responses::CONSTRAINTS,
        google::CONSTRAINTS,
        bedrock::CONSTRAINTS,
        mistral::CONSTRAINTS,
        ollama::CONSTRAINTS,
    ]
    .into_iter()
    .flatten()
    .copied()
    .chain(limits::CONSTRAINTS.iter())
}

/// The constraints that apply to one API's payloads.
pub fn for_api(api: WireApi) -> impl Iterator<Item = &'static Constraint> {
    all().filter(move |c| c.apis.contains(&api))
}

/// A constraint by id.
pub fn find(id: &str) -> Option<&'static Constraint> {
    all().find(|c| c.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_are_unique_and_every_constraint_names_its_provider_text() {
        let mut seen = HashSet::new();
        for c in all() {
            assert!(seen.insert(c.id), "duplicate constraint id {}", c.id);
            assert!(!c.error.is_empty() && !c.apis.is_empty(), "{} is incomplete", c.id);
        }
    }

    /// The order of each API's constraints, the order its findings on one item are reported in.
    #[test]
    fn each_api_reports_its_constraints_in_order() {
        let ids = |api| for_api(api).map(|c| c.id).collect::<Vec<_>>();
        assert_eq!(
            ids(WireApi::AnthropicMessages),
            [
                "anthropic-tool-use-adjacency",
                "anthropic-tool-result-orphan",
                "anthropic-tool-use-id-unique",
                "anthropic-tool-use-id-pattern",
                "anthropic-empty-text",
                "anthropic-whitespace-text",
                "anthropic-empty-content",
                "anthropic-thinking-first",
                "anthropic-final-block-thinking",
                "anthropic-thinking-signature-missing",
                "anthropic-thinking-signature-blank",
                "anthropic-thinking-text-missing",
                "anthropic-image-bytes",
                "anthropic-image-pixels",
                "anthropic-image-many-pixels",
                "anthropic-image-count",
                "anthropic-request-size",
            ]
        );
        let tail = |api, n: usize| {
            let all = ids(api);
            all[all.len() - n..].to_vec()
        };
        assert_eq!(
            tail(WireApi::OpenAiCompletions, 3),
            [
                "openai-chat-image-role",
                "openai-chat-image-size",
                "openai-chat-request-size"
            ]
        );
        for api in [WireApi::OpenAiResponses, WireApi::AzureOpenAiResponses] {
            assert_eq!(
                tail(api, 3),
                [
                    "openai-responses-duplicate-item",
                    "openai-responses-image-size",
                    "openai-responses-request-size"
                ]
            );
        }
        for api in [
            WireApi::GoogleGenerativeAi,
            WireApi::GoogleVertex,
            WireApi::GoogleVertexPiAi,
        ] {
            assert_eq!(tail(api, 2), ["gemini-thought-signature", "gemini-request-size"]);
        }
        assert_eq!(
            tail(WireApi::BedrockConverseStream, 5),
            [
                "bedrock-error-result-content",
                "bedrock-image-count",
                "bedrock-image-bytes",
                "bedrock-image-pixels",
                "bedrock-request-size"
            ]
        );
        assert_eq!(
            tail(WireApi::MistralConversations, 5),
            [
                "mistral-assistant-content",
                "mistral-image-count",
                "mistral-image-bytes",
                "mistral-image-pixels",
                "mistral-request-size"
            ]
        );
        assert_eq!(ids(WireApi::Ollama), ["ollama-field-type", "ollama-image-base64"]);
    }

    #[test]
    fn fixing_rules_exist() {
        for c in all() {
            if let Some(rule) = c.fixed_by {
                assert!(
                    crate::hygiene::registry::by_id(rule).is_some(),
                    "{} names unknown rule {rule}",
                    c.id
                );
            }
        }
    }
}
