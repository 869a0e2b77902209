//! `replaylens policy [TARGET]`: the transcript policy resolved for a target.

use std::io::Write;

use replaylens::model::json::Value;
use replaylens::policy::{Target, resolve_for, target_warnings};
use replaylens::rule_set::RuleSet;
use replaylens::text::escape_controls_single_line as esc;

/// Print the policy resolved for `target`: JSON is the policy object plus `"family"`
/// (README §3.2); text is the family, the normalised target and one flag per line.
/// The policy is the same in every rule set so far; the text names the set asked for. A
/// provider or API id close to known ones gets a "did you mean" warning on stderr.
pub fn run(target: Target, rule_set: &RuleSet, json_out: bool) -> anyhow::Result<()> {
    for w in target_warnings(&target) {
        eprintln!("warning: {}", esc(&w));
    }
    let resolved = resolve_for(&target, rule_set);
    let mut out = std::io::stdout().lock();
    if json_out {
        super::print_json(&resolved.to_json())?;
        return Ok(());
    }
    writeln!(out, "family    {} ({})", resolved.family.label(), resolved.family.id())?;
    writeln!(out, "openclaw  {} ({})", rule_set.name, rule_set.releases)?;
    let t = &resolved.target;
    for (name, part) in [("provider", &t.provider), ("api", &t.api), ("model", &t.model)] {
        writeln!(out, "{name:<9} {}", part.as_deref().map_or("(none)".into(), esc))?;
    }
    writeln!(out)?;
    if let Value::Object(flags) = resolved.policy.to_json() {
        let width = flags.keys().map(|k| k.len()).max().unwrap_or(0);
        for (name, value) in &flags {
            let shown = match value {
                Value::String(s) => s.to_string(),
                other => other.to_string(),
            };
            writeln!(out, "{name:<width$}  {shown}")?;
        }
    }
    Ok(())
}
