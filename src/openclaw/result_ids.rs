//! The six fields a tool result may carry its call id in, in the three orders OpenClaw reads
//! them. The orders really differ in OpenClaw 2026.9.6, so each is kept once here and named by
//! the functions that use it.

/// The pairing order (`sanitizeToolUseResultPairing`'s result id lookup), which is also the
/// order OpenClaw writes the fields when it rewrites an id (`rewriteToolResultIds`' updates,
/// the tool-call id sanitizer).
pub const RESULT_ID_FIELDS: [&str; 6] = [
    "toolCallId",
    "toolUseId",
    "tool_call_id",
    "tool_use_id",
    "callId",
    "call_id",
];

/// The order that picks the one raw id a rewrite starts from (`rewriteToolResultIds` and the
/// tool-call id sanitizer): the snake-case Responses field first.
pub const RESULT_ID_PRIORITY: [&str; 6] = [
    "call_id",
    "callId",
    "tool_call_id",
    "tool_use_id",
    "toolCallId",
    "toolUseId",
];

/// The order `validateAnthropicTurns` reads a result's call id in.
pub const ANTHROPIC_RESULT_ID_FIELDS: [&str; 6] = [
    "toolUseId",
    "toolCallId",
    "tool_use_id",
    "tool_call_id",
    "callId",
    "call_id",
];
