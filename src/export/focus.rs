//! What part of a replay a report shows: the rows some rules touched, a range of stored
//! messages. `--only-rule` and `--messages` parse here.

use crate::json;
use crate::model::json::Value;

use crate::hygiene::registry;

/// The rows a report is about (everything when both parts are empty).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Focus {
    /// Only rows touched by these rules (empty: every rule).
    pub only_rules: Vec<String>,
    /// Only stored messages `A..=B`.
    pub messages: Option<(usize, usize)>,
}

impl Focus {
    /// Whether anything is filtered out.
    pub fn is_active(&self) -> bool {
        !self.only_rules.is_empty() || self.messages.is_some()
    }

    /// Whether a rule is in focus.
    pub fn has_rule(&self, rule: &str) -> bool {
        self.only_rules.is_empty() || self.only_rules.iter().any(|r| r == rule)
    }

    /// Whether a stored index is in the range.
    pub fn has_stored(&self, index: usize) -> bool {
        self.messages.is_none_or(|(a, b)| (a..=b).contains(&index))
    }

    /// The filter as export metadata: `{"onlyRules": [...], "messages": [A, B]}`.
    pub fn to_json(&self) -> Value {
        let mut v = json!({});
        if !self.only_rules.is_empty() {
            v["onlyRules"] = json!(self.only_rules);
        }
        if let Some((a, b)) = self.messages {
            v["messages"] = json!([a, b]);
        }
        v
    }

    /// The filter in words, for report headers (`None` when there is none).
    pub fn describe(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.only_rules.is_empty() {
            parts.push(format!("rows touched by {}", self.only_rules.join(", ")));
        }
        if let Some((a, b)) = self.messages {
            parts.push(format!("stored messages {a}..{b}"));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// The rule ids `--only-rule` accepts, in pipeline order.
pub fn rule_ids() -> Vec<&'static str> {
    registry::pipeline().iter().map(|r| r.info().id).collect()
}

/// One `--only-rule` value: a known rule id, or an error listing the valid ones.
pub fn parse_rule_id(id: &str) -> Result<String, String> {
    let id = id.trim();
    if registry::by_id(id).is_some() {
        Ok(id.to_owned())
    } else {
        Err(format!(
            "unknown rule id {:?}; valid ids: {}",
            crate::text::escape_controls_single_line(id),
            rule_ids().join(", ")
        ))
    }
}

/// Check every rule id of a filter.
pub fn check_rules(ids: &[String]) -> Result<(), String> {
    ids.iter().try_for_each(|id| parse_rule_id(id).map(drop))
}

/// A `--messages` value: `A..B` (inclusive; `A..=B` too), `A..` (to the end), or `A`.
pub fn parse_message_range(text: &str) -> Result<(usize, usize), String> {
    let text = text.trim();
    let number = |s: &str| -> Result<usize, String> {
        s.trim()
            .parse::<usize>()
            .map_err(|_| format!("{s:?} is not a message index; expected A..B, e.g. 0..5"))
    };
    let (a, b) = match text.split_once("..") {
        None => {
            let a = number(text)?;
            (a, a)
        }
        Some((a, b)) => {
            let b = b.strip_prefix('=').unwrap_or(b);
            (number(a)?, if b.trim().is_empty() { usize::MAX } else { number(b)? })
        }
    };
    if b < a {
        return Err(format!("{text:?}: the range ends before it starts"));
    }
    Ok((a, b))
}

/// A range as `--messages` takes it.
pub fn format_range((a, b): (usize, usize)) -> String {
    if b == usize::MAX {
        format!("{a}..")
    } else {
        format!("{a}..{b}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_rule_ids_parse() {
        assert_eq!(parse_message_range("0..5"), Ok((0, 5)));
        assert_eq!(parse_message_range("3..=3"), Ok((3, 3)));
        assert_eq!(parse_message_range("7"), Ok((7, 7)));
        assert_eq!(parse_message_range("7.."), Ok((7, usize::MAX)));
        assert!(parse_message_range("5..2").is_err());
        assert!(parse_message_range("a..b").is_err());
        assert_eq!(format_range((7, usize::MAX)), "7..");
        assert_eq!(parse_rule_id("tool-call-id"), Ok("tool-call-id".into()));
        let err = parse_rule_id("tool-call").unwrap_err();
        assert!(
            err.contains("valid ids: ") && err.contains("tool-result-pairing"),
            "{err}"
        );
    }
}
