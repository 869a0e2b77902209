//! Provider error texts replaylens recognises, as patterns: which constraint each names and
//! where the index and the ids sit (the templates of the constraints' `error` texts, with
//! the variants seen in reports).

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
        pattern: r"(?:messages\.(?P<index>\d+): )?(?:`?tool_use`? )?ids were found without `?tool_result`? blocks immediately after: (?P<ids>[A-Za-z0-9_\-.:|/=, ]+?)(?:\.(?: |$)|…|$)",
    },
    ErrorPattern {
        constraint: "anthropic-tool-result-orphan",
        provider: "Anthropic",
        pattern: r"(?:messages\.(?P<index>\d+)\.content\.\d+: )?unexpected `?tool_use_id`? found in `?tool_result`? blocks: (?P<ids>[A-Za-z0-9_\-.:|/=, ]+?)(?:\.(?: |$)|…|$)",
    },
    ErrorPattern {
        constraint: "anthropic-tool-use-id-pattern",
        provider: "Anthropic",
        pattern: r"messages\.(?P<index>\d+)\.content\.\d+\.tool_(?:use|result)\.(?:id|tool_use_id): String should match pattern",
    },
    ErrorPattern {
        constraint: "bedrock-tool-use-id-format",
        provider: "Amazon Bedrock",
        pattern: r"(?i)messages\.(?P<index>\d+)\.member\.content\.\d+\.member\.tool(?:Use|Result)\.toolUseId' failed to satisfy constraint",
    },
    ErrorPattern {
        constraint: "openai-chat-tool-calls-answered",
        provider: "OpenAI Chat Completions",
        pattern: r#"(?i)an assistant message with ['"]tool_calls['"] must be followed by tool messages responding to each ['"]tool_call_id['"]\. The following tool_call_ids did not have response messages: (?:message\[(?P<index>\d+)\]\.role|(?P<ids>[A-Za-z0-9_\-.:|/=]+(?:,\s*[A-Za-z0-9_\-.:|/=]+)*))"#,
    },
    ErrorPattern {
        constraint: "openai-chat-tool-message-answers-call",
        provider: "OpenAI Chat Completions",
        pattern: r#"(?i)messages with role ['"]tool['"] must be a response to a prece+ding message with ['"]tool_calls['"]"#,
    },
    ErrorPattern {
        constraint: "openai-chat-tool-call-id-length",
        provider: "OpenAI Chat Completions",
        pattern: r"Invalid 'messages\[(?P<index>\d+)\]\.tool_calls\[\d+\]\.id': string too long",
    },
    ErrorPattern {
        constraint: "openai-responses-function-call-output",
        provider: "OpenAI Responses",
        pattern: r"No tool output found for function call (?P<ids>[A-Za-z0-9_\-.:|/=]+)",
    },
    ErrorPattern {
        constraint: "openai-responses-function-call-output-orphan",
        provider: "OpenAI Responses",
        pattern: r"No tool call found for function call output with call_id (?P<ids>[A-Za-z0-9_\-.:|/=]+)",
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
    ErrorPattern {
        constraint: "mistral-tool-after-user",
        provider: "Mistral",
        pattern: r"Unexpected role (?:'tool' after role 'user'|RoleEnum\.tool\b)",
    },
];

/// The compiled patterns, in [`PATTERNS`] order.
pub static COMPILED: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    PATTERNS
        .iter()
        .map(|p| Regex::new(p.pattern).expect("error patterns are valid regexes"))
        .collect()
});

#[cfg(test)]
mod tests {
    use super::*;

    /// The constraint the first matching pattern names, with its `index` and `ids` groups.
    fn read(text: &str) -> Option<(&'static str, Option<String>, Option<String>)> {
        COMPILED.iter().zip(PATTERNS).find_map(|(re, p)| {
            let caps = re.captures(text)?;
            let group = |name: &str| caps.name(name).map(|m| m.as_str().to_string());
            Some((p.constraint, group("index"), group("ids")))
        })
    }

    #[test]
    fn openai_chat_unanswered_calls_keep_every_id_and_the_compatible_variants() {
        let two = "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_8kQ2, call_Jh5s";
        assert_eq!(
            read(two),
            Some((
                "openai-chat-tool-calls-answered",
                None,
                Some("call_8kQ2, call_Jh5s".into())
            ))
        );
        let moonshot = "an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: Agent:0";
        assert_eq!(read(moonshot).unwrap().2.as_deref(), Some("Agent:0"));
        let dashscope = r#"An assistant message with "tool_calls" must be followed by tool messages responding to each "tool_call_id". The following tool_call_ids did not have response messages: message[532].role"#;
        assert_eq!(
            read(dashscope),
            Some(("openai-chat-tool-calls-answered", Some("532".into()), None))
        );
    }

    #[test]
    fn openai_chat_orphan_tool_message_in_every_spelling() {
        for text in [
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
            "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
            r#"messages with role "tool" must be a response to a preceeding message with "tool_calls"."#,
        ] {
            assert_eq!(
                read(text).map(|r| r.0),
                Some("openai-chat-tool-message-answers-call"),
                "{text}"
            );
        }
    }

    #[test]
    fn responses_ids_are_read_with_or_without_the_closing_period() {
        for text in [
            "No tool output found for function call call_uvtcg8y9PllKDmBUIYmuEMbq.",
            "No tool output found for function call call_uvtcg8y9PllKDmBUIYmuEMbq",
        ] {
            let (constraint, _, ids) = read(text).unwrap();
            assert_eq!(constraint, "openai-responses-function-call-output");
            assert_eq!(ids.unwrap().trim_end_matches('.'), "call_uvtcg8y9PllKDmBUIYmuEMbq");
        }
        let orphan = "No tool call found for function call output with call_id toolu_01AyZNVx7HyXezryvjtssPwk";
        assert_eq!(
            read(orphan).unwrap().2.as_deref(),
            Some("toolu_01AyZNVx7HyXezryvjtssPwk")
        );
    }

    #[test]
    fn anthropic_ids_are_read_without_the_period_cut_short_or_without_the_index() {
        let head = "messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: ";
        for (tail, index, ids) in [
            ("toolu_01Hq, toolu_01SJ", Some("3"), "toolu_01Hq, toolu_01SJ"),
            ("toolu_01Hq, toolu_01S…", Some("3"), "toolu_01Hq, toolu_01S"),
            ("toolu_01Hq, toolu_01S...", Some("3"), "toolu_01Hq, toolu_01S.."),
        ] {
            let read = read(&format!("{head}{tail}")).unwrap();
            assert_eq!(
                read,
                ("anthropic-tool-use-adjacency", index.map(Into::into), Some(ids.into()))
            );
        }
        let front_cut = "ids were found without `tool_result` blocks immediately after: toolu_01Hq. Each";
        assert_eq!(read(front_cut).unwrap().2.as_deref(), Some("toolu_01Hq"));
        let orphan = "unexpected `tool_use_id` found in `tool_result` blocks: toolu_9";
        assert_eq!(read(orphan).unwrap().0, "anthropic-tool-result-orphan");
    }

    #[test]
    fn tool_id_format_texts_of_anthropic_and_bedrock() {
        let anthropic = "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'";
        assert_eq!(
            read(anthropic),
            Some(("anthropic-tool-use-id-pattern", Some("1".into()), None))
        );
        let bedrock = "ValidationException: 1 validation error detected: Value 'call|1' at 'messages.3.member.content.1.member.toolUse.toolUseId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+";
        assert_eq!(
            read(bedrock),
            Some(("bedrock-tool-use-id-format", Some("3".into()), None))
        );
    }

    #[test]
    fn mistral_tool_after_user_in_both_wordings() {
        for text in [
            "Unexpected role 'tool' after role 'user'",
            "Unexpected role RoleEnum.tool",
        ] {
            assert_eq!(read(text).map(|r| r.0), Some("mistral-tool-after-user"), "{text}");
        }
        assert_eq!(
            read("Unexpected role 'user' after role 'tool'").map(|r| r.0),
            Some("mistral-user-after-tool")
        );
    }
}
