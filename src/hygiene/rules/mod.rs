//! The hygiene rules, one file each, and the pipeline order.
//!
//! The order follows hygiene-b §1.2 with the newest deltas of §1.3 (tool-call ids are
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
//! 22–25 follow `validateReplayTurns`: the bootstrap is prepended first (Google plugin hook and
//! generic ordering fix), then Gemini merges, then Anthropic validation. Upstream's
//! `validateAnthropicTurns` merges assistants, strips dangling tool calls, then merges users;
//! here both merges are `anthropic-turn-merge` (24) and the strip is `dangling-tool-call` (25).
//! The strip must follow the assistant merge (an injected assistant turn would otherwise hide the
//! result span of the call before it); moving the user merge before it changes nothing, because
//! merging user turns never alters an assistant turn or which results lie between two assistant
//! turns. `prefill-strip` (26) is payload-level and runs last.

pub mod anthropic_turn_merge;
pub mod assistant_text;
pub mod blank_text;
pub mod blank_user_turn;
pub mod compaction_signature;
pub mod dangling_tool_call;
pub mod drop_reasoning_history;
pub mod drop_thinking;
pub mod duplicate_mirror;
pub mod gemini_turn_merge;
pub mod google_bootstrap;
pub mod image_ops;
pub mod image_sanitize;
pub mod inter_session_provenance;
pub mod internal_metadata;
pub mod invalid_thinking_signature;
pub mod malformed_tool_call;
pub mod metadata_strip;
pub mod openai_responses;
pub mod prefill_strip;
pub mod reasoning_only_length;
pub mod responses_reasoning;
pub mod signed_thinking;
pub mod silent_reply;
pub mod stale_usage;
pub mod stream_error_turn;
pub mod synthetic;
pub mod thinking_blocks;
pub mod thought_signature;
pub mod tool_call_id;
pub mod tool_calls;
pub mod tool_id_allocator;
pub mod tool_result_details;
pub mod tool_result_pairing;
pub mod transcript_only_assistant;
pub mod turn_merge;
pub mod usage_snapshot;

#[cfg(test)]
pub(crate) mod image_fixtures;
#[cfg(test)]
pub(crate) mod normalize_test_support;
#[cfg(test)]
pub(crate) mod test_support;

use super::rule::Rule;

/// The rules in pipeline order.
pub fn pipeline() -> &'static [&'static dyn Rule] {
    &[
        // 1
        &inter_session_provenance::InterSessionProvenance,
        // 2
        &transcript_only_assistant::TranscriptOnlyAssistant,
        // 3
        &stream_error_turn::StreamErrorTurn,
        // 4
        &internal_metadata::InternalMetadata,
        // 5
        &silent_reply::SilentReply,
        // 6
        &reasoning_only_length::ReasoningOnlyLength,
        // 7
        &duplicate_mirror::DuplicateMirror,
        // 8
        &blank_user_turn::BlankUserTurn,
        // 9
        &blank_text::BlankText,
        // 10
        &thought_signature::ThoughtSignature,
        // 11
        &image_sanitize::ImageSanitize,
        // 12
        &compaction_signature::CompactionSignature,
        // 13
        &invalid_thinking_signature::InvalidThinkingSignature,
        // 14
        &drop_reasoning_history::DropReasoningHistory,
        // 15
        &drop_thinking::DropThinking,
        // 16
        &malformed_tool_call::MalformedToolCall,
        // 17
        &tool_result_pairing::ToolResultPairing,
        // 18
        &responses_reasoning::ResponsesReasoning,
        // 19
        &tool_call_id::ToolCallId,
        // 20
        &tool_result_details::ToolResultDetails,
        // 21
        &stale_usage::StaleUsage,
        // 22
        &google_bootstrap::GoogleBootstrap,
        // 23
        &gemini_turn_merge::GeminiTurnMerge,
        // 24
        &anthropic_turn_merge::AnthropicTurnMerge,
        // 25
        &dangling_tool_call::DanglingToolCall,
        // 26
        &prefill_strip::PrefillStrip,
    ]
}

/// Look up a rule by id.
pub fn by_id(id: &str) -> Option<&'static dyn Rule> {
    pipeline().iter().copied().find(|r| r.info().id == id)
}
