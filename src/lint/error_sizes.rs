//! Provider error texts for a request that is too long for the model (context length) or too
//! large for the API (request size), per provider family. They name no message: `explain`
//! says what they mean and that no hygiene rule fixes them. OpenClaw classifies the same texts
//! as a context overflow (its `CONTEXT_OVERFLOW_PATTERN_SCOPES` table, read from the compiled
//! `dist/` of 2026.9.6) and compacts the session or fails over; the patterns here are this
//! repository's own, one family at a time.

use std::sync::LazyLock;

use regex::Regex;

/// What a size error says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeKind {
    /// The prompt has more tokens than the model's context window.
    ContextLength,
    /// The request body is larger than the API accepts.
    RequestTooLarge,
}

/// One recognised size error text.
#[derive(Debug)]
pub struct SizePattern {
    /// What it says.
    pub kind: SizeKind,
    /// The provider family, as users name it.
    pub provider: &'static str,
    /// The lint constraint that checks it, when replaylens checks one (request sizes).
    pub constraint: Option<&'static str>,
    /// The pattern (case-insensitive).
    pub pattern: &'static str,
}

/// The patterns, most specific first.
pub static SIZE_PATTERNS: &[SizePattern] = &[
    SizePattern {
        kind: SizeKind::ContextLength,
        provider: "Anthropic",
        constraint: None,
        pattern: r"prompt is too long: [\d,]+ tokens > [\d,]+ maximum|input length and `?max_tokens`? exceed context limit",
    },
    SizePattern {
        kind: SizeKind::RequestTooLarge,
        provider: "Anthropic",
        constraint: Some("anthropic-request-size"),
        pattern: r"request_too_large|request exceeds the maximum (?:allowed number of bytes|size)",
    },
    SizePattern {
        kind: SizeKind::ContextLength,
        provider: "OpenAI Chat Completions and compatible APIs (DeepSeek, Groq, OpenRouter, vLLM, …)",
        constraint: None,
        pattern: r"maximum context length is [\d,]+ tokens|context_length_exceeded|reduce the length of the messages",
    },
    SizePattern {
        kind: SizeKind::ContextLength,
        provider: "OpenAI Responses",
        constraint: None,
        pattern: r"input exceeds the context window|exceeds the context window of this model",
    },
    SizePattern {
        kind: SizeKind::ContextLength,
        provider: "xAI",
        constraint: None,
        pattern: r"maximum prompt length is [\d,]+",
    },
    SizePattern {
        kind: SizeKind::ContextLength,
        provider: "Gemini",
        constraint: None,
        pattern: r"input token count \(?[\d,]+\)? exceeds the maximum number of tokens allowed",
    },
    SizePattern {
        kind: SizeKind::RequestTooLarge,
        provider: "Gemini",
        constraint: Some("gemini-request-size"),
        pattern: r"request payload size exceeds the limit",
    },
    SizePattern {
        kind: SizeKind::ContextLength,
        provider: "Amazon Bedrock",
        constraint: None,
        pattern: r"input is too long for requested model|too many input tokens",
    },
    SizePattern {
        kind: SizeKind::ContextLength,
        provider: "Mistral",
        constraint: None,
        pattern: r"too large for model with [\d,]+ maximum context length",
    },
    SizePattern {
        kind: SizeKind::ContextLength,
        provider: "Ollama",
        constraint: None,
        pattern: r"(?:ollama error: )?context length exceeded|input length exceeds the context length",
    },
    SizePattern {
        kind: SizeKind::RequestTooLarge,
        provider: "an HTTP gateway or provider (413)",
        constraint: None,
        pattern: r"\b413\b[\s\S]*too large|request entity too large",
    },
];

/// The compiled patterns, in [`SIZE_PATTERNS`] order.
pub static SIZE_COMPILED: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    SIZE_PATTERNS
        .iter()
        .map(|p| Regex::new(&format!("(?i){}", p.pattern)).expect("size patterns are valid regexes"))
        .collect()
});

/// The first size pattern that matches `message`.
pub fn recognise(message: &str) -> Option<&'static SizePattern> {
    SIZE_COMPILED
        .iter()
        .zip(SIZE_PATTERNS)
        .find_map(|(re, p)| re.is_match(message).then_some(p))
}

/// What a recognised size error means, for the user.
pub fn summary(p: &SizePattern) -> String {
    match p.kind {
        SizeKind::ContextLength => format!(
            "{} error (context length): the conversation has more tokens than the model's context window. No hygiene rule fixes it and it names no message: OpenClaw treats this text as a context overflow and compacts the session; use a larger-context model or start a new session",
            p.provider
        ),
        SizeKind::RequestTooLarge => format!(
            "{} error (request too large): the request body is larger than the API accepts{}. It names no message: images are the usual weight (`lint` shows the payload's size and images)",
            p.provider,
            p.constraint.map(|c| format!(" ({c})")).unwrap_or_default()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<(SizeKind, &'static str)> {
        recognise(text).map(|p| (p.kind, p.provider))
    }

    #[test]
    fn anthropic_context_length_and_request_size() {
        let p = read("prompt is too long: 215031 tokens > 200000 maximum").unwrap();
        assert_eq!(p, (SizeKind::ContextLength, "Anthropic"));
        let p = recognise("request_too_large: Request exceeds the maximum size").unwrap();
        assert_eq!(
            (p.kind, p.constraint),
            (SizeKind::RequestTooLarge, Some("anthropic-request-size"))
        );
    }

    #[test]
    fn openai_compatible_context_length_including_deepseek() {
        for text in [
            "This model's maximum context length is 131072 tokens. However, you requested 140231 tokens (132231 in the messages, 8000 in the completion). Please reduce the length of the messages or completion.",
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
            "context_length_exceeded",
        ] {
            let (kind, provider) = read(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(kind, SizeKind::ContextLength);
            assert!(provider.starts_with("OpenAI Chat Completions"), "{provider}");
        }
    }

    #[test]
    fn openai_responses_and_xai_context_length() {
        assert_eq!(
            read("Your input exceeds the context window of this model. Please adjust your input and try again."),
            Some((SizeKind::ContextLength, "OpenAI Responses"))
        );
        assert_eq!(
            read("This model's maximum prompt length is 131072 but the request contains 150000 tokens."),
            Some((SizeKind::ContextLength, "xAI"))
        );
    }

    #[test]
    fn gemini_context_length_and_request_size() {
        assert_eq!(
            read("The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."),
            Some((SizeKind::ContextLength, "Gemini"))
        );
        let p = recognise("Request payload size exceeds the limit: 20971520 bytes.").unwrap();
        assert_eq!(p.constraint, Some("gemini-request-size"));
    }

    #[test]
    fn bedrock_mistral_and_ollama_context_length() {
        assert_eq!(
            read("ValidationException: Input is too long for requested model."),
            Some((SizeKind::ContextLength, "Amazon Bedrock"))
        );
        assert_eq!(
            read(
                "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length"
            ),
            Some((SizeKind::ContextLength, "Mistral"))
        );
        assert_eq!(
            read("ollama error: context length exceeded"),
            Some((SizeKind::ContextLength, "Ollama"))
        );
    }

    #[test]
    fn a_gateway_413() {
        assert_eq!(
            read("413 Request Entity Too Large").map(|r| r.0),
            Some(SizeKind::RequestTooLarge)
        );
    }

    #[test]
    fn every_constraint_named_is_checked() {
        for p in SIZE_PATTERNS {
            if let Some(c) = p.constraint {
                assert!(crate::lint::registry::find(c).is_some(), "{c}");
            }
        }
    }
}
