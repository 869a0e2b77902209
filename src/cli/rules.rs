//! `replaylens rules [RULE-ID]`: the rule registry.

use std::io::Write;

use replaylens::hygiene::registry;
use replaylens::rule_set::{RULE_SETS, RuleSet};

/// The OpenClaw page rule references name (`docs/reference/transcript-hygiene.md` in OpenClaw).
const HYGIENE_PAGE: &str = "transcript-hygiene.md";
/// Where that page is published.
const HYGIENE_PAGE_URL: &str = "https://docs.openclaw.ai/reference/transcript-hygiene";

/// List every rule in pipeline order, or explain one; with a rule set, say how it differs
/// from `newest`.
pub fn run(id: Option<&str>, rule_set: Option<&'static RuleSet>) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match id {
        None => {
            for r in registry::pipeline() {
                let i = r.info();
                writeln!(out, "{:<28} {}", i.id, i.summary)?;
            }
            let set = rule_set.unwrap_or(RuleSet::newest());
            writeln!(
                out,
                "\nOpenClaw rule set {}: {} ({})",
                set.name, set.releases, set.checked
            )?;
            let differences = set.differences();
            if differences.is_empty() && rule_set.is_none() {
                let others: Vec<&str> = RULE_SETS.iter().map(|s| s.name).filter(|n| *n != set.name).collect();
                writeln!(out, "other rule sets (--openclaw): {}", others.join(", "))?;
            }
            if !differences.is_empty() {
                writeln!(out, "switches in force (each a difference from newest):")?;
            }
            for d in differences {
                writeln!(
                    out,
                    "  {} ({}; {}):\n    {}",
                    d.switch,
                    d.rule,
                    d.releases,
                    textwrap(d.text, 84).replace('\n', "\n    ")
                )?;
            }
        }
        Some(id) => {
            let Some(rule) = registry::by_id(id) else {
                return Err(UnknownRule(id.to_owned()).into());
            };
            let i = rule.info();
            writeln!(out, "{}: {}\n", i.id, i.summary)?;
            writeln!(out, "{}\n", textwrap(i.explanation, 88))?;
            writeln!(out, "applies to: {}", i.families)?;
            writeln!(out, "reference:  {}", i.reference)?;
            if i.reference.starts_with(HYGIENE_PAGE) {
                writeln!(out, "            ({HYGIENE_PAGE} is published at {HYGIENE_PAGE_URL})")?;
            }
            let sets: Vec<&RuleSet> = match rule_set {
                Some(set) => vec![set],
                None => RULE_SETS.to_vec(),
            };
            for set in sets {
                for d in set.differences_for(i.id) {
                    writeln!(
                        out,
                        "\nwith --openclaw {} (switch {}): {}",
                        set.name,
                        d.switch,
                        textwrap(d.text, 88)
                    )?;
                }
            }
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
