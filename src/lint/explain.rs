//! `--explain`: read a provider's error text, name the stored messages it points at, and say
//! whether the current projection would have avoided it.

use std::sync::LazyLock;

use crate::model::json::Value;
use regex::Regex;
use serde::Serialize;

use super::error_patterns::{COMPILED, PATTERNS};
use super::pasted::{truncated_field, unwrap_lines};
use super::{Finding, registry};
use crate::hygiene::Action;
use crate::replay::Replay;
use crate::wire::WirePayload;

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
    /// The hygiene rule that fixes this error: the one that made the current projection
    /// avoid it, else the rule that fixes this kind of error (`None` when hygiene does not).
    pub fixed_by: Option<&'static str>,
    /// One or two sentences for the user.
    pub summary: String,
}

/// Strip the envelope: the innermost `message` (or `detail`, or a gateway's `raw` upstream
/// body) of a JSON error body, then the prefixes Bedrock, the AWS SDKs and gateways add.
/// Text wrapped over several lines is joined, and an envelope cut short gives up its message
/// so far ([`super::pasted`]).
pub fn provider_message(text: &str) -> (String, Option<String>) {
    let mut message = unwrap_lines(text);
    let mut param = None;
    for _ in 0..4 {
        let inner = match serde_json::from_str::<Value>(&message) {
            Ok(value) => {
                if param.is_none() {
                    param = find_field(&value, "param").map(str::to_string);
                }
                // A gateway (OpenRouter) keeps the upstream body in `error.metadata.raw`.
                find_field(&value, "raw")
                    .or_else(|| find_field(&value, "message"))
                    .or_else(|| find_field(&value, "detail"))
                    .map(str::to_string)
            }
            Err(_) => truncated_field(&message),
        };
        match inner {
            Some(inner) => message = unwrap_lines(&inner),
            None => break,
        }
    }
    static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:(?:\d{3}\s+)|(?:<\d{3}>\s*\S+:\s*)|(?:Validation error:\s*)|(?:ValidationException:\s*)|(?:The model returned the following errors:\s*)|(?:An error occurred \(ValidationException\) when calling the \w+ operation:\s*))+")
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

/// Explain `text` against a replay and its two payloads.
pub fn explain(
    text: &str,
    r: &Replay<'_>,
    stored: &WirePayload,
    stored_findings: &[Finding],
    replay_findings: &[Finding],
) -> Explanation {
    let (message, param) = provider_message(text);
    let Some((n, caps)) = COMPILED
        .iter()
        .enumerate()
        .find_map(|(n, re)| re.captures(&message).map(|c| (n, c)))
    else {
        // A context-length or request-size text names no message: say what it means.
        if let Some(size) = super::error_sizes::recognise(&message) {
            return Explanation {
                summary: super::error_sizes::summary(size),
                message,
                provider: Some(size.provider),
                constraint: size.constraint,
                index: None,
                ids: Vec::new(),
                stored: Vec::new(),
                avoided: None,
                fixed_by: None,
            };
        }
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
    let payload_index = index.and_then(|i| i.checked_sub(stored.payload.api.system_messages()));
    let ids = caps.name("ids").map(|m| split_ids(m.as_str())).unwrap_or_default();
    // Nothing but closing periods or an ellipsis after the ids: the last one may be cut short.
    let cut = caps.name("ids").is_some_and(|m| {
        message[m.end()..]
            .trim_matches(|c: char| c == '.' || c == '…' || c.is_whitespace())
            .is_empty()
    });
    let (present, absent) = find_ids(r, stored_findings, &ids, cut);
    if !ids.is_empty() && present.is_empty() {
        return Explanation {
            summary: format!(
                "{} error ({}): {} not occur in this session, so the error may belong to another session; replaylens points at no message here (`lint --stage both` lists what the provider would reject)",
                pattern.provider,
                pattern.constraint,
                named(&absent)
            ),
            message,
            provider: Some(pattern.provider),
            constraint: Some(pattern.constraint),
            index,
            ids,
            stored: Vec::new(),
            avoided: None,
            fixed_by: None,
        };
    }
    let located = locate(r, stored, stored_findings, pattern.constraint, payload_index, &present);
    let (remaining, others): (Vec<&Finding>, Vec<&Finding>) = replay_findings.iter().partition(|f| {
        f.constraint == pattern.constraint && (located.is_empty() || f.stored.iter().any(|s| located.contains(s)))
    });
    let registered = registry::find(pattern.constraint).and_then(|c| c.fixed_by);
    let fixed_by = if remaining.is_empty() {
        fixing_rule(r, &located, registered)
    } else {
        registered
    };
    let avoided = if located.is_empty() && remaining.is_empty() {
        None
    } else {
        Some(remaining.is_empty())
    };
    let places = stored_findings
        .iter()
        .filter(|f| f.constraint == pattern.constraint)
        .count();
    let place = if located.is_empty() {
        "replaylens could not find the message it points at in this session".to_string()
    } else {
        format!(
            "it points at stored message{} {}{}",
            if located.len() == 1 { "" } else { "s" },
            located.iter().map(|s| format!("s{s}")).collect::<Vec<_>>().join(", "),
            if index.is_none() && ids.is_empty() && places > 1 {
                format!(" (the first of the {places} places the stored transcript breaks it; the error names none)")
            } else {
                String::new()
            }
        )
    };
    let rule_set = r.options.rule_set.name;
    let verdict = match (remaining.first(), fixed_by) {
        (Some(still), _) => format!(
            "the current projection ({rule_set}) would still be rejected: {}",
            still.message.trim_end_matches('.')
        ),
        (None, Some(rule)) => format!("the current projection ({rule_set}) avoids it: rule {rule} fixes this"),
        (None, None) => format!("the current projection ({rule_set}) does not show it"),
    };
    let elsewhere = match (remaining.is_empty(), others.first()) {
        (true, Some(other)) => format!(
            " The projection is still rejected for another reason ({}): {}.",
            other.constraint,
            other.message.trim_end_matches('.')
        ),
        _ => String::new(),
    };
    let missing = if absent.is_empty() {
        String::new()
    } else {
        format!(" Of the ids it names, {} not occur in this session.", named(&absent))
    };
    Explanation {
        summary: format!(
            "{} error ({}): {place}; {verdict}.{elsewhere}{missing}",
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

/// The rule that made the projection avoid the error: the constraint's own rule when it
/// rewrote something in this replay, else the first rule that dropped, inserted, merged or
/// moved one of the located messages (a call turn after another model turn is fixed by
/// `gemini-turn-merge`, not by the `google-bootstrap` the constraint names).
fn fixing_rule(r: &Replay<'_>, located: &[usize], registered: Option<&'static str>) -> Option<&'static str> {
    let rewrites = &r.projection.rewrites;
    if let Some(rule) = registered
        && rewrites.iter().any(|w| w.rule == rule)
    {
        return Some(rule);
    }
    rewrites
        .iter()
        .filter(|w| w.action != Action::Modify)
        .find(|w| w.stored.iter().any(|s| located.contains(s)))
        .map(|w| w.rule)
        .or(registered)
}

/// The ids of a comma-separated list, without the sentence's closing period.
fn split_ids(list: &str) -> Vec<String> {
    list.split(',')
        .map(|s| s.trim().trim_end_matches('.').to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// `toolu_1 does` or `toolu_1, toolu_2 do`.
fn named(ids: &[String]) -> String {
    format!("{} {}", ids.join(", "), if ids.len() == 1 { "does" } else { "do" })
}

/// The named ids this session holds (as a tool call or result, or in a stored-stage finding),
/// the last one completed when the text was `cut` after it and it begins exactly one id of the
/// session; then the ids it does not hold.
fn find_ids(r: &Replay<'_>, findings: &[Finding], ids: &[String], cut: bool) -> (Vec<String>, Vec<String>) {
    let known: Vec<&str> = r
        .transcript
        .messages
        .iter()
        .flat_map(|m| {
            let message = m.message.as_ref();
            message
                .tool_call_id()
                .into_iter()
                .chain(message.tool_calls().filter_map(|b| b.tool_call_id()))
        })
        .collect();
    let (mut present, mut absent) = (Vec::new(), Vec::new());
    for (n, id) in ids.iter().enumerate() {
        let mut completions: Vec<&str> = known.iter().copied().filter(|k| k.starts_with(id.as_str())).collect();
        completions.sort_unstable();
        completions.dedup();
        if known.iter().any(|k| same_id(k, id)) {
            present.push(id.clone());
        } else if cut && n + 1 == ids.len() && id.len() >= 6 && completions.len() == 1 {
            present.push(completions[0].to_string());
        } else if findings.iter().any(|f| f.message.contains(id.as_str())) {
            present.push(id.clone());
        } else {
            absent.push(id.clone());
        }
    }
    (present, absent)
}

/// Whether a finding is at payload index `n`: its item, or the index its path names (OpenAI
/// Chat names the message after the unanswered calls, not the assistant message).
fn finding_at(f: &Finding, n: usize) -> bool {
    f.item == n || index_from_param(&f.path) == Some(n)
}

/// A tool-call id as the converters may have rewritten it: the `call_id` part of a Responses
/// `call|item` pair, characters outside `[A-Za-z0-9_-]` as `_`, trailing `_` trimmed.
fn same_id(stored: &str, named: &str) -> bool {
    let canon = |s: &str| -> String {
        s.chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' })
            .collect::<String>()
            .trim_end_matches('_')
            .to_string()
    };
    stored == named || stored.split_once('|').is_some_and(|(call, _)| call == named) || canon(stored) == canon(named)
}

/// The stored messages holding one of `ids`, as a tool call or as a tool result.
fn holders(r: &Replay<'_>, ids: &[String]) -> Vec<usize> {
    let named = |id: &str| ids.iter().any(|x| same_id(id, x));
    r.transcript
        .messages
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            let message = m.message.as_ref();
            message.tool_call_id().is_some_and(named)
                || message.tool_calls().any(|b| b.tool_call_id().is_some_and(named))
        })
        .map(|(i, _)| i)
        .collect()
}

/// The stored messages an error points at.
///
/// The stored-stage findings of the same constraint come first: those at the provider's
/// index that name its ids, else those naming its ids, else those at its index (the first
/// one when the error names neither); of a finding's messages, those holding a named id (an
/// orphan result, not the earlier call with the same id). Without such a finding: the
/// messages holding the ids, else the payload item at the index.
fn locate(
    r: &Replay<'_>,
    stored: &WirePayload,
    findings: &[Finding],
    constraint: &str,
    index: Option<usize>,
    ids: &[String],
) -> Vec<usize> {
    let same: Vec<&Finding> = findings.iter().filter(|f| f.constraint == constraint).collect();
    let at = |f: &Finding| index.is_some_and(|n| finding_at(f, n));
    let names = |f: &Finding| ids.iter().any(|id| f.message.contains(id.as_str()));
    let tiers: [&dyn Fn(&Finding) -> bool; 3] = [&|f| at(f) && names(f), &names, &at];
    let mut chosen: Vec<&Finding> = tiers
        .iter()
        .map(|tier| same.iter().copied().filter(|f| tier(f)).collect::<Vec<_>>())
        .find(|c| !c.is_empty())
        .unwrap_or_default();
    if chosen.is_empty() && index.is_none() && ids.is_empty() {
        // The error says neither where nor which: a provider stops at the first violation.
        chosen = same.into_iter().take(1).collect();
    }
    let holding = holders(r, ids);
    let mut found: Vec<usize> = chosen.iter().flat_map(|f| f.stored.iter().copied()).collect();
    if !found.is_empty() {
        let narrowed: Vec<usize> = found.iter().copied().filter(|s| holding.contains(s)).collect();
        if !narrowed.is_empty() {
            found = narrowed;
        }
    } else if !holding.is_empty() {
        found = holding;
    } else if let Some(n) = index
        && n < stored.payload.items.len()
    {
        found = stored.stored(n).to_vec();
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
    fn a_gateway_s_raw_upstream_body_and_sdk_prefixes_are_unwrapped() {
        let openrouter = r#"{"error":{"message":"Provider returned error","code":400,"metadata":{"raw":"{\"error\":{\"message\":\"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.\",\"type\":\"invalid_request_error\",\"param\":\"messages.[4].role\",\"code\":null}}","provider_name":"OpenAI"}}}"#;
        let (message, param) = provider_message(openrouter);
        assert!(
            message.starts_with("Invalid parameter: messages with role 'tool'"),
            "{message}"
        );
        assert_eq!(param.as_deref(), Some("messages.[4].role"));
        let js_sdk = "ValidationException: The number of toolResult blocks exceeds the number of toolUse blocks of previous turn";
        assert!(provider_message(js_sdk).0.starts_with("The number of toolResult"));
    }

    #[test]
    fn ids_lose_the_closing_period_and_match_their_converted_forms() {
        assert_eq!(split_ids("call_a, call_b."), ["call_a", "call_b"]);
        assert_eq!(split_ids("Agent:0"), ["Agent:0"]);
        assert!(same_id("call_nV|fc_9d", "call_nV"));
        assert!(same_id("call.1|item", "call_1_item"));
        assert!(same_id("toolu_01.x__", "toolu_01_x"));
        assert!(!same_id("call_nV|fc_9d", "fc_9d"));
        assert!(!same_id("call_1", "call_2"));
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
