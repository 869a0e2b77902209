//! `--explain`: read a provider's error text, name the stored messages it points at, and say
//! whether the current projection would have avoided it.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;
use serde_json::Value;

use super::error_patterns::{COMPILED, PATTERNS};
use super::{lint, registry};
use crate::replay::Replay;
use crate::wire::{WireApi, WirePayload};

/// What replaylens made of a pasted error.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// The provider's message, taken out of its JSON envelope and prefixes.
    pub message: String,
    /// The provider, when the text was recognised.
    pub provider: Option<&'static str>,
    /// The constraint the error reports, when recognised.
    pub constraint: Option<&'static str>,
    /// The payload index the provider named, if any.
    pub index: Option<usize>,
    /// The tool-call ids the provider named.
    pub ids: Vec<String>,
    /// The stored messages the error points at.
    pub stored: Vec<usize>,
    /// Whether the current projection's payload meets the constraint at that place
    /// (`None` when the error was not recognised or could not be located).
    pub avoided: Option<bool>,
    /// The hygiene rule that fixes this kind of error.
    pub fixed_by: Option<&'static str>,
    /// One or two sentences for the user.
    pub summary: String,
}

/// Strip the envelope: the innermost `message` (or `detail`) of a JSON error body, then
/// the prefixes Bedrock and gateways add.
pub fn provider_message(text: &str) -> (String, Option<String>) {
    let mut message = text.trim().to_string();
    let mut param = None;
    for _ in 0..4 {
        let Ok(value) = serde_json::from_str::<Value>(&message) else {
            break;
        };
        if param.is_none() {
            param = find_field(&value, "param").map(str::to_string);
        }
        match find_field(&value, "message").or_else(|| find_field(&value, "detail")) {
            Some(inner) => message = inner.to_string(),
            None => break,
        }
    }
    static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:(?:\d{3}\s+)|(?:<\d{3}>\s*\S+:\s*)|(?:Validation error:\s*)|(?:The model returned the following errors:\s*)|(?:An error occurred \(ValidationException\) when calling the \w+ operation:\s*))+")
            .expect("valid")
    });
    let message = PREFIX.replace(&message, "").trim().to_string();
    (message, param)
}

fn find_field<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    match value {
        Value::Object(map) => map
            .get(key)
            .and_then(Value::as_str)
            .or_else(|| map.values().find_map(|v| find_field(v, key))),
        Value::Array(items) => items.iter().find_map(|v| find_field(v, key)),
        _ => None,
    }
}

fn index_from_param(param: &str) -> Option<usize> {
    static INDEX: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(?:messages|input|contents)\.?\[?(\d+)\]?").expect("valid"));
    INDEX.captures(param)?.get(1)?.as_str().parse().ok()
}

/// Conversation items OpenClaw puts before the transcript on `api` (the system prompt as
/// the first message), which a provider's index counts.
pub fn system_items(api: WireApi) -> usize {
    match api {
        WireApi::OpenAiCompletions | WireApi::MistralConversations => 1,
        _ => 0,
    }
}

/// Explain `text` against a replay and its two payloads.
pub fn explain(text: &str, r: &Replay<'_>, stored: &WirePayload, replayed: &WirePayload) -> Explanation {
    let (message, param) = provider_message(text);
    let Some((n, caps)) = COMPILED
        .iter()
        .enumerate()
        .find_map(|(n, re)| re.captures(&message).map(|c| (n, c)))
    else {
        return Explanation {
            summary: "replaylens does not recognise this error text; `lint --stage both` lists what the provider would reject".to_string(),
            message,
            provider: None,
            constraint: None,
            index: None,
            ids: Vec::new(),
            stored: Vec::new(),
            avoided: None,
            fixed_by: None,
        };
    };
    let pattern = &PATTERNS[n];
    let index: Option<usize> = caps
        .name("index")
        .and_then(|m| m.as_str().parse().ok())
        .or_else(|| param.as_deref().and_then(index_from_param));
    // OpenClaw sends the system prompt as the first message on these APIs; the provider's
    // index counts it, the payload here does not.
    let payload_index = index.map(|i| i.saturating_sub(system_items(stored.payload.api)));
    let ids: Vec<String> = caps
        .name("ids")
        .map(|m| {
            m.as_str()
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let fixed_by = registry::find(pattern.constraint).and_then(|c| c.fixed_by);
    let stored_findings = lint(stored);
    let replay_findings = lint(replayed);
    let located = locate(r, stored, &stored_findings, pattern.constraint, payload_index, &ids);
    let remaining: Vec<_> = replay_findings
        .iter()
        .filter(|f| f.constraint == pattern.constraint)
        .filter(|f| located.is_empty() || f.stored.iter().any(|s| located.contains(s)))
        .collect();
    let avoided = if located.is_empty() && remaining.is_empty() {
        None
    } else {
        Some(remaining.is_empty())
    };
    let place = if located.is_empty() {
        "replaylens could not find the message it points at in this session".to_string()
    } else {
        format!(
            "it points at stored message{} {}",
            if located.len() == 1 { "" } else { "s" },
            located.iter().map(|s| format!("s{s}")).collect::<Vec<_>>().join(", ")
        )
    };
    let verdict = if remaining.is_empty() {
        match fixed_by {
            Some(rule) => format!(
                "the current projection ({}) avoids it: rule {rule} fixes this",
                r.options.rule_set.name
            ),
            None => format!("the current projection ({}) does not show it", r.options.rule_set.name),
        }
    } else {
        format!(
            "the current projection ({}) would still be rejected: {}",
            r.options.rule_set.name, remaining[0].message
        )
    };
    Explanation {
        summary: format!(
            "{} error ({}): {place}; {verdict}.",
            pattern.provider, pattern.constraint
        ),
        message,
        provider: Some(pattern.provider),
        constraint: Some(pattern.constraint),
        index,
        ids,
        stored: located,
        avoided,
        fixed_by,
    }
}

/// The stored messages an error points at: those holding the ids it names, else the
/// payload item at its index, else the stored-stage findings of the same constraint.
fn locate(
    r: &Replay<'_>,
    stored: &WirePayload,
    findings: &[super::Finding],
    constraint: &str,
    index: Option<usize>,
    ids: &[String],
) -> Vec<usize> {
    let mut found: Vec<usize> = Vec::new();
    if !ids.is_empty() {
        for (i, m) in r.transcript.messages.iter().enumerate() {
            let message = m.message.as_ref();
            let holds = message.tool_call_id().is_some_and(|id| ids.iter().any(|x| x == id))
                || message
                    .tool_calls()
                    .any(|b| b.tool_call_id().is_some_and(|id| ids.iter().any(|x| x == id)));
            if holds {
                found.push(i);
            }
        }
    }
    if found.is_empty() {
        let by_finding: Vec<usize> = findings
            .iter()
            .filter(|f| f.constraint == constraint && index.is_none_or(|n| f.item == n))
            .flat_map(|f| f.stored.clone())
            .collect();
        found = by_finding;
    }
    if found.is_empty()
        && let Some(n) = index
        && let Some(sources) = stored.stored.get(n)
    {
        found = sources.clone();
    }
    found.sort_unstable();
    found.dedup();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_is_taken_out_of_nested_envelopes_and_prefixes() {
        let vertex = r#"{"error":{"code":400,"message":"{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.\"}}","status":"INVALID_ARGUMENT"}}"#;
        let (message, _) = provider_message(vertex);
        assert!(message.starts_with("messages.3: `tool_use` ids"), "{message}");
        let bedrock =
            "The model returned the following errors: messages.39.content.0: Invalid signature in thinking block";
        assert_eq!(
            provider_message(bedrock).0,
            "messages.39.content.0: Invalid signature in thinking block"
        );
        let openai = r#"{"error":{"message":"An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1","type":"invalid_request_error","param":"messages.[6].role","code":null}}"#;
        let (message, param) = provider_message(openai);
        assert!(message.starts_with("An assistant message"));
        assert_eq!(param.as_deref().and_then(index_from_param), Some(6));
    }

    #[test]
    fn every_pattern_names_a_checked_constraint_and_compiles() {
        assert_eq!(COMPILED.len(), PATTERNS.len());
        for p in PATTERNS {
            assert!(
                registry::find(p.constraint).is_some(),
                "{} is not a lint constraint",
                p.constraint
            );
        }
    }

    #[test]
    fn ids_and_index_are_read_from_the_anthropic_template() {
        let text = "messages.22: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01Hq, toolu_01SJ. Each `tool_use` block must have a corresponding `tool_result` block in the next message.";
        let caps = COMPILED[0].captures(text).unwrap();
        assert_eq!(&caps["index"], "22");
        assert_eq!(&caps["ids"], "toolu_01Hq, toolu_01SJ");
    }
}
