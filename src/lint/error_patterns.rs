//! Provider error texts replaylens recognises, as patterns: which constraint each names and
//! where the index and the ids sit (the templates of provider-constraints.md, with the
//! variants seen in reports).

use std::sync::LazyLock;

use regex::Regex;

/// One recognised error text.
#[derive(Debug)]
pub struct ErrorPattern {
    /// The constraint the error reports.
    pub constraint: &'static str,
    /// The provider, as users name it.
    pub provider: &'static str,
    /// The pattern; named groups `index` (payload index) and `ids` (comma-separated ids).
    pub pattern: &'static str,
}

/// The patterns, most specific first.
pub static PATTERNS: &[ErrorPattern] = &[
    ErrorPattern {
        constraint: "anthropic-tool-use-adjacency",
        provider: "Anthropic",
        pattern: r"messages\.(?P<index>\d+): `?tool_use`? ids were found without `?tool_result`? blocks immediately after: (?P<ids>[A-Za-z0-9_\-.:|/=, ]+?)\.(?: |$)",
    },
    ErrorPattern {
        constraint: "anthropic-tool-result-orphan",
        provider: "Anthropic",
        pattern: r"messages\.(?P<index>\d+)\.content\.\d+: unexpected `?tool_use_id`? found in `?tool_result`? blocks: (?P<ids>[A-Za-z0-9_\-.:|/=, ]+?)\.(?: |$)",
    },
    ErrorPattern {
        constraint: "openai-chat-tool-calls-answered",
        provider: "OpenAI Chat Completions",
        pattern: r"(?i)an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'\. The following tool_call_ids did not have response messages: (?P<ids>[A-Za-z0-9_\-.:|/=, ]+?)(?:[.\x22]|\s|$)",
    },
    ErrorPattern {
        constraint: "openai-chat-tool-message-answers-call",
        provider: "OpenAI Chat Completions",
        pattern: r"(?i)messages with role 'tool' must be a response to a preced?ing message with 'tool_calls'",
    },
    ErrorPattern {
        constraint: "openai-chat-tool-call-id-length",
        provider: "OpenAI Chat Completions",
        pattern: r"Invalid 'messages\[(?P<index>\d+)\]\.tool_calls\[\d+\]\.id': string too long",
    },
    ErrorPattern {
        constraint: "openai-responses-function-call-output",
        provider: "OpenAI Responses",
        pattern: r"No tool output found for function call (?P<ids>[A-Za-z0-9_\-.:|/=]+)\.",
    },
    ErrorPattern {
        constraint: "openai-responses-function-call-output-orphan",
        provider: "OpenAI Responses",
        pattern: r"No tool call found for function call output with call_id (?P<ids>[A-Za-z0-9_\-.:|/=]+)\.",
    },
    ErrorPattern {
        constraint: "openai-responses-call-id-length",
        provider: "OpenAI Responses",
        pattern: r"Invalid 'input\[(?P<index>\d+)\]\.call_id': string too long",
    },
    ErrorPattern {
        constraint: "gemini-function-response-count",
        provider: "Gemini",
        pattern: r"(?i)number of function response parts is equal to the number of function call parts",
    },
    ErrorPattern {
        constraint: "gemini-function-call-placement",
        provider: "Gemini",
        pattern: r"(?i)function call turn comes immediately after a user turn or after a function response turn",
    },
    ErrorPattern {
        constraint: "gemini-function-response-placement",
        provider: "Gemini",
        pattern: r"(?i)function response turn comes immediately after a function call turn",
    },
    ErrorPattern {
        constraint: "bedrock-tool-result-count",
        provider: "Amazon Bedrock",
        pattern: r"(?i)number of toolResult blocks exceeds the number of toolUse blocks of previous turn",
    },
    ErrorPattern {
        constraint: "bedrock-alternation",
        provider: "Amazon Bedrock",
        pattern: r"(?i)A conversation must alternate between user and assistant roles",
    },
    ErrorPattern {
        constraint: "mistral-tool-call-count",
        provider: "Mistral",
        pattern: r"(?i)Not the same number of function calls and responses",
    },
    ErrorPattern {
        constraint: "mistral-tool-call-id-format",
        provider: "Mistral",
        pattern: r"Tool call id was (?P<ids>\S+) but must be a-z, A-Z, 0-9, with a length of 9",
    },
    ErrorPattern {
        constraint: "mistral-user-after-tool",
        provider: "Mistral",
        pattern: r"Unexpected role 'user' after role 'tool'",
    },
];

/// The compiled patterns, in [`PATTERNS`] order.
pub static COMPILED: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    PATTERNS
        .iter()
        .map(|p| Regex::new(p.pattern).expect("error patterns are valid regexes"))
        .collect()
});
