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
        let mut doc = resolved.to_json();
        if let Some(obj) = doc.as_object_mut() {
            obj.insert("owner".into(), Value::from(resolved.owner.describe()));
            if let Some(assumption) = resolved.assumption() {
                obj.insert("assumption".into(), Value::from(assumption));
            }
            if let Some(no_route) = &resolved.no_route {
                obj.insert("noRoute".into(), Value::from(no_route.as_str()));
            }
        }
        super::print_json(&doc)?;
        return Ok(());
    }
    writeln!(out, "family    {} ({})", resolved.family.label(), resolved.family.id())?;
    writeln!(out, "owner     {}", esc(&resolved.owner.describe()))?;
    writeln!(out, "openclaw  {} ({})", rule_set.name, rule_set.releases)?;
    let t = &resolved.target;
    for (name, part) in [("provider", &t.provider), ("api", &t.api), ("model", &t.model)] {
        writeln!(out, "{name:<9} {}", part.as_deref().map_or("(none)".into(), esc))?;
    }
    if let Some(assumption) = resolved.assumption() {
        writeln!(out, "\n{}", esc(&assumption))?;
    }
    if let Some(no_route) = &resolved.no_route {
        writeln!(out, "\n{}", esc(no_route))?;
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
