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

pub mod image_ops;
pub mod image_sanitize;
pub mod synthetic;
pub mod tool_result_details;

#[cfg(test)]
pub(crate) mod image_fixtures;
#[cfg(test)]
pub(crate) mod test_support;

use super::rule::Rule;

/// The rules in pipeline order.
pub fn pipeline() -> &'static [&'static dyn Rule] {
    &[
        // 11
        &image_sanitize::ImageSanitize,
        // 20
        &tool_result_details::ToolResultDetails,
    ]
}

/// Look up a rule by id.
pub fn by_id(id: &str) -> Option<&'static dyn Rule> {
    pipeline().iter().copied().find(|r| r.info().id == id)
}
