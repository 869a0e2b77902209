//! Markdown that transcript text cannot break out of: fences longer than any backtick run
//! inside, code spans likewise, plain text with Markdown and HTML metacharacters escaped.

/// A fenced code block whose fence is longer than any backtick run inside.
pub fn fenced(lang: &str, body: &str) -> String {
    let longest = body.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let body = body.trim_end_matches('\n');
    format!("{fence}{lang}\n{body}\n{fence}")
}

/// Inline code that cannot be broken out of: backticks chosen longer than any run inside.
pub fn code(text: &str) -> String {
    let one_line = text.replace(['\n', '\r'], " ").replace('|', "\\|");
    let longest = one_line.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let ticks = "`".repeat(longest + 1);
    let pad = if one_line.starts_with('`') || one_line.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{one_line}{pad}{ticks}")
}

/// Plain inline text with Markdown and HTML metacharacters escaped.
pub fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push_str(&crate::text::escape_controls_single_line(&c.to_string())),
            c => out.push(c),
        }
    }
    out
}

/// A link to a rule's entry in the Rules appendix: ``[`rule`](#rule-rule)``.
pub fn rule_link(rule: &str) -> String {
    format!("[{}](#{})", code(rule), rule_anchor(rule))
}

/// The anchor of a rule's entry in the Rules appendix.
pub fn rule_anchor(rule: &str) -> String {
    let slug: String = rule
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    format!("rule-{slug}")
}

/// Characters (not bytes) of a text: what GitHub's body limit counts.
pub fn chars(text: &str) -> usize {
    text.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_and_code_spans_cannot_be_escaped() {
        assert_eq!(fenced("diff", "a ``` b"), "````diff\na ``` b\n````");
        assert_eq!(code("x`y"), "``x`y``");
        assert_eq!(code("a|b"), "`a\\|b`");
        assert_eq!(inline("<script>*x*</script>"), "&lt;script&gt;\\*x\\*&lt;/script&gt;");
        assert_eq!(rule_link("tool-call-id"), "[`tool-call-id`](#rule-tool-call-id)");
    }
}
