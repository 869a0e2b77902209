//! A provider error as users paste it: wrapped over several lines by a terminal or a mail
//! client, and perhaps cut short, JSON envelope included.

use std::sync::LazyLock;

use regex::Regex;

/// The text with every run of whitespace, line breaks included, as one space.
pub fn unwrap_lines(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The innermost message-like field of a JSON envelope that was cut short and no longer
/// parses: the `raw` (a gateway's upstream body), else `message`, else `detail` string, read
/// up to its closing quote or to the end of the text.
pub fn truncated_field(text: &str) -> Option<String> {
    if !text.trim_start().starts_with('{') {
        return None;
    }
    static KEY: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#""(raw|message|detail)"\s*:\s*""#).expect("valid"));
    let found: Vec<_> = KEY.captures_iter(text).collect();
    let pick = ["raw", "message", "detail"]
        .iter()
        .find_map(|key| found.iter().find(|c| &c[1] == *key))?;
    let start = pick.get(0)?.end();
    Some(decode(string_body(&text[start..])))
}

/// The characters of a JSON string up to its closing quote (escapes kept), or all of them.
fn string_body(text: &str) -> &str {
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return &text[..i],
            _ => escaped = false,
        }
    }
    text
}

/// A JSON string body decoded; an escape cut in half at the end is dropped.
fn decode(body: &str) -> String {
    for cut in 0..=6.min(body.len()) {
        let Some(head) = body.get(..body.len() - cut) else {
            continue;
        };
        if let Ok(s) = serde_json::from_str::<String>(&format!("\"{head}\"")) {
            return s;
        }
    }
    body.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_lines_are_joined() {
        assert_eq!(unwrap_lines("  a\n   b\r\n\tc  "), "a b c");
    }

    #[test]
    fn a_cut_envelope_yields_its_message_so_far() {
        let cut = r#"{"type":"error","error":{"type":"invalid_request_error","message":"messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01Hq, tool"#;
        assert_eq!(
            truncated_field(cut).unwrap(),
            "messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01Hq, tool"
        );
        let nested = r#"{"error":{"code":400,"message":"{\"type\":\"error\",\"error\":{\"message\":\"No tool output found for function call call_1\\u00"#;
        let once = truncated_field(nested).unwrap();
        assert!(once.starts_with(r#"{"type":"error""#), "{once}");
        assert_eq!(
            truncated_field(&once).unwrap(),
            "No tool output found for function call call_1"
        );
        let done = r#"{"error":{"message":"Provider returned error","metadata":{"raw":"upstream says no"}"#;
        assert_eq!(truncated_field(done).unwrap(), "upstream says no");
        assert_eq!(truncated_field("plain text"), None);
    }
}
