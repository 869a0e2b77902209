//! `replaylens policy [TARGET]`: the transcript policy resolved for a target.

use std::io::Write;

use replaylens::model::json::Value;
use replaylens::policy::config::{apply, plugins};
use replaylens::policy::{Installation, resolve_with, target_warnings};
use replaylens::rule_set::RuleSet;
use replaylens::text::escape_controls_single_line as esc;

/// Print the policy resolved for `target`: JSON is the policy object plus `"family"`
/// (`docs/internals.md`); text is the family, the normalised target and one flag per line.
/// The policy is the same in every rule set so far; the text names the set asked for. A
/// provider or API id close to known ones gets a "did you mean" warning on stderr.
///
/// With a configuration (`--config`, else where OpenClaw finds it) its custom providers fill
/// the target's API and its installed or loaded plugins are the exact installation; the output
/// names the file and the field each part came from.
pub(crate) fn run(args: crate::args::TargetArgs, rule_set: &RuleSet, json_out: bool) -> anyhow::Result<()> {
    let config = super::config::load(args.config.as_deref()).map_err(anyhow::Error::msg)?;
    let requested = args.target();
    let (target, sources, installation) = match &config {
        Some(c) => {
            for w in &c.warnings {
                eprintln!("warning: {}", esc(w));
            }
            let applied = apply(&c.clone(), &requested);
            (applied.target, applied.sources, plugins::installation(c))
        }
        None => (requested, Vec::new(), Installation::Unknown),
    };
    for w in target_warnings(&target) {
        eprintln!("warning: {}", esc(&w));
    }
    let mut sources = sources;
    let resolved = match &config {
        Some(c) => {
            if let Some((plugin_provider, field)) = target
                .provider
                .as_deref()
                .and_then(|p| apply::api_plugin_provider(c, p))
            {
                sources.push((
                    "owner".to_owned(),
                    format!("{field} (plugin provider {plugin_provider})"),
                ));
            }
            apply::resolve(c, &target, rule_set, &installation)
        }
        None => resolve_with(&target, rule_set, &installation),
    };
    let installed = match &installation {
        Installation::Known(set) => Some(set.iter().cloned().collect::<Vec<_>>()),
        Installation::Unknown => None,
    };
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
            if let Some(c) = &config {
                let mut from = replaylens::model::json::Map::new();
                for (part, field) in &sources {
                    from.insert(part.as_str().into(), Value::from(field.as_str()));
                }
                let mut conf = replaylens::model::json::Map::new();
                conf.insert("path".into(), Value::from(c.path.display().to_string()));
                conf.insert("from".into(), Value::Object(from));
                conf.insert(
                    "installedPlugins".into(),
                    Value::Array(installed.iter().flatten().map(|p| Value::from(p.as_str())).collect()),
                );
                obj.insert("configuration".into(), Value::Object(conf));
            }
        }
        super::print_json(&doc)?;
        return Ok(());
    }
    writeln!(out, "family    {} ({})", resolved.family.label(), resolved.family.id())?;
    writeln!(out, "owner     {}", esc(&resolved.owner.describe()))?;
    writeln!(out, "openclaw  {} ({})", rule_set.name, rule_set.releases)?;
    if let Some(c) = &config {
        writeln!(out, "config    {}", esc(&c.path.display().to_string()))?;
        for (part, field) in &sources {
            writeln!(out, "          {part} from {}", esc(field))?;
        }
        let listed = installed.as_deref().unwrap_or_default().join(", ");
        let listed = if listed.is_empty() { "none".to_owned() } else { listed };
        writeln!(out, "          plugins installed or loaded: {}", esc(&listed))?;
    }
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
