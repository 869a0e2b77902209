//! `replaylens rules [RULE-ID]`: the rule registry.

use std::io::Write;

use replaylens::hygiene::rules;

/// List every rule in pipeline order, or explain one.
pub fn run(id: Option<&str>) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match id {
        None => {
            for r in rules::pipeline() {
                let i = r.info();
                writeln!(out, "{:<28} {}", i.id, i.summary)?;
            }
        }
        Some(id) => {
            let Some(rule) = rules::by_id(id) else {
                return Err(UnknownRule(id.to_owned()).into());
            };
            let i = rule.info();
            writeln!(out, "{}: {}\n", i.id, i.summary)?;
            writeln!(out, "{}\n", textwrap(i.explanation, 88))?;
            writeln!(out, "applies to: {}", i.families)?;
            writeln!(out, "reference:  {}", i.reference)?;
        }
    }
    Ok(())
}

/// An unknown rule id (unusable argument: exit status 2).
#[derive(Debug, thiserror::Error)]
#[error("there is no rule {0} (`replaylens rules` lists them)")]
pub struct UnknownRule(pub String);

fn textwrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}
