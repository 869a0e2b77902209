//! The hygiene rules, one file each, and the pipeline order.
//!
//! The order follows OpenClaw's `sanitizeSessionHistory`, newest revision (tool-call ids are
//! rewritten after pairing repair; stream-error turns are dropped):
//!
//!  1. inter-session-provenance      14. drop-reasoning-history
//!  2. transcript-only-assistant     15. drop-thinking
//!  3. stream-error-turn             16. malformed-tool-call
//!  4. internal-metadata             17. tool-result-pairing
//!  5. silent-reply                  18. responses-reasoning
//!  6. reasoning-only-length         19. tool-call-id
//!  7. duplicate-mirror              20. tool-result-details
//!  8. blank-user-turn               21. stale-usage
//!  9. blank-text                    22. google-bootstrap
//! 10. thought-signature             23. gemini-turn-merge
//! 11. image-sanitize                24. anthropic-turn-merge
//! 12. compaction-signature          25. dangling-tool-call
//! 13. invalid-thinking-signature    26. prefill-strip
//!
//! After 25, the history stage runs `tool-result-pairing` once more (OpenClaw's final pairing
//! pass in `prepareEmbeddedAttemptHistory`). The stream stage follows: `prefill-strip` (26).
//! (The orphaned Responses reasoning OpenClaw drops in its transport is the wire stage's.)
//!
//! 22–25 follow `validateReplayTurns`: the bootstrap is prepended first (Google plugin hook and
//! generic ordering fix), then Gemini merges, then Anthropic validation. Upstream's
//! `validateAnthropicTurns` merges assistants, strips dangling tool calls, then merges users;
//! here both merges are `anthropic-turn-merge` (24) and the strip is `dangling-tool-call` (25).
//! The strip must follow the assistant merge (an injected assistant turn would otherwise hide the
//! result span of the call before it); moving the user merge before it changes nothing, because
//! merging user turns never alters an assistant turn or which results lie between two assistant
//! turns. `prefill-strip` (26) is payload-level and runs last, in the stream stage.

pub mod anthropic_turn_merge;
pub mod blank_text;
pub mod blank_user_turn;
pub mod compaction_signature;
pub mod dangling_tool_call;
pub mod drop_reasoning_history;
pub mod drop_thinking;
pub mod duplicate_mirror;
pub mod gemini_turn_merge;
pub mod google_bootstrap;
pub mod image_sanitize;
pub mod inter_session_provenance;
pub mod internal_metadata;
pub mod invalid_thinking_signature;
pub mod legacy_order;
pub mod malformed_tool_call;
pub mod prefill_strip;
pub mod reasoning_only_length;
pub mod responses_reasoning;
pub mod silent_reply;
pub mod stale_usage;
pub mod stream_error_legacy;
pub mod stream_error_turn;
pub mod thought_signature;
pub mod tool_call_id;
pub mod tool_result_details;
pub mod tool_result_pairing;
pub mod transcript_only_assistant;

use std::sync::LazyLock;

use super::rule::Rule;

/// The history stage in order: OpenClaw's `sanitizeSessionHistory`, `validateReplayTurns`,
/// then the final pairing pass (`tool-result-pairing` again) that `prepareEmbeddedAttemptHistory`
/// runs on the validated turns.
pub fn history_stage() -> &'static [&'static dyn Rule] {
    &[
        &inter_session_provenance::InterSessionProvenance,
        &transcript_only_assistant::TranscriptOnlyAssistant,
        &stream_error_turn::StreamErrorTurn,
        &internal_metadata::InternalMetadata,
        &silent_reply::SilentReply,
        &reasoning_only_length::ReasoningOnlyLength,
        // Up to 2026.9.2 only: empty failed turns become the placeholder, then the trailing
        // ones are trimmed once the loop of `normalizeAssistantReplayContent` is through.
        &stream_error_legacy::LegacyPlaceholder,
        &duplicate_mirror::DuplicateMirror,
        &blank_user_turn::BlankUserTurn,
        &stream_error_legacy::LegacyTrailingTrim,
        &blank_text::BlankText,
        &thought_signature::ThoughtSignature,
        &image_sanitize::ImageSanitize,
        // Up to 2026.7 only: the first id pass, inside image sanitizing.
        &legacy_order::EarlyToolCallIds,
        &compaction_signature::CompactionSignature,
        &invalid_thinking_signature::InvalidThinkingSignature,
        &drop_reasoning_history::DropReasoningHistory,
        &drop_thinking::DropThinking,
        &malformed_tool_call::MalformedToolCall,
        &legacy_order::PairingBeforeIds,
        &responses_reasoning::ResponsesReasoning,
        &tool_call_id::ToolCallId,
        // Up to 2026.7 only: pairing after the id pass, outside the Responses family.
        &legacy_order::PairingAfterIds,
        &tool_result_details::ToolResultDetails,
        &stale_usage::StaleUsage,
        // Provider replay-history hooks: GitHub Copilot's thinking strip (Google's is the
        // bootstrap turn below).
        &drop_thinking::CopilotThinkingStrip,
        // The Responses family pairs again once the hooks have run.
        &tool_result_pairing::ResponsesAfterHooks,
        // OpenAI Responses: the call/result invariant OpenClaw asserts (it refuses otherwise),
        // on the repaired list, and again once Google turn ordering has run; both before turn
        // validation (which runs on an unowned Responses provider with a Claude model id).
        &responses_reasoning::ResponsesReplayInvariant::CURRENT,
        &google_bootstrap::GoogleBootstrap,
        &responses_reasoning::ResponsesReplayInvariant::CURRENT,
        &gemini_turn_merge::GeminiTurnMerge,
        &anthropic_turn_merge::AnthropicTurnMerge,
        &dangling_tool_call::DanglingToolCall,
        // The final pairing pass: drops results orphaned by `[tool calls omitted]` and results
        // whose id was rewritten differently from their call's.
        &tool_result_pairing::ToolResultPairing,
        // Up to 2026.7 only: the invariant on the list the legacy pairing order leaves.
        &responses_reasoning::ResponsesReplayInvariant::LEGACY,
    ]
}

/// The stream stage in order: steps OpenClaw applies to the outgoing request, after the
/// history stage.
pub fn stream_stage() -> &'static [&'static dyn Rule] {
    &[&prefill_strip::PrefillStrip]
}

/// Every rule once, in the order it first runs (as `replaylens rules` lists them): the 26 rule ids. Steps that share
/// an id with an earlier step (the final pairing pass, the stream-stage and invariant parts of
/// `responses-reasoning`) are listed under that first step.
pub fn pipeline() -> &'static [&'static dyn Rule] {
    static PIPELINE: LazyLock<Vec<&'static dyn Rule>> = LazyLock::new(|| {
        let mut rules: Vec<&'static dyn Rule> = Vec::new();
        for &rule in history_stage().iter().chain(stream_stage()) {
            if !rule.older_releases_only() && !rules.iter().any(|r| r.info().id == rule.info().id) {
                rules.push(rule);
            }
        }
        rules
    });
    &PIPELINE
}

/// Look up a rule by id.
pub fn by_id(id: &str) -> Option<&'static dyn Rule> {
    pipeline().iter().copied().find(|r| r.info().id == id)
}

/// Look up a step of either stage by its [`Rule::step`] name (a rule id, or `id/what-it-is`
/// for a step that shares its rule's id).
pub fn by_step(name: &str) -> Option<&'static dyn Rule> {
    history_stage()
        .iter()
        .chain(stream_stage())
        .copied()
        .find(|r| r.step() == name)
}
