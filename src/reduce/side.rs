//! The side file `reduce` (and the inspector's `R`) write next to a reduced session:
//! `small.jsonl.reduce.json`, saying what the case reproduces, for which target and rule set,
//! and the command that shows it.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::policy::Target;

use super::{Keep, ReduceOptions, Reduced};

/// `small.jsonl` → `small.jsonl.reduce.json`.
pub fn side_file(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".reduce.json");
    PathBuf::from(name)
}

/// `provider / api / model`, `?` for an unknown part.
pub fn target_line(t: &Target) -> String {
    format!(
        "{} / {} / {}",
        t.provider.as_deref().unwrap_or("?"),
        t.api.as_deref().unwrap_or("?"),
        t.model.as_deref().unwrap_or("?")
    )
}

/// The `lint` command that shows the kept finding on the reduced file: the file alone when it
/// records its target and rule set ([`Reduced::travels`]), else with them as flags.
pub fn reproduce_command(output: &Path, options: &ReduceOptions, travels: bool) -> String {
    let mut words = vec!["replaylens".to_owned(), "lint".to_owned(), output.display().to_string()];
    if !travels {
        let t = &options.target;
        for (flag, part) in [("--provider", &t.provider), ("--api", &t.api), ("--model", &t.model)] {
            if let Some(part) = part {
                words.push(flag.to_owned());
                words.push(part.clone());
            }
        }
        words.push("--openclaw".to_owned());
        words.push(options.replay.rule_set.name.to_owned());
    }
    words
        .iter()
        .map(|w| {
            if w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:@".contains(c)) {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The side file's record.
pub fn record(
    source: &Path,
    format: &str,
    output: &Path,
    options: &ReduceOptions,
    keep: &Keep,
    reduced: &Reduced,
) -> Value {
    json!({
        "reduces": source.display().to_string(),
        "format": format,
        "target": options.target,
        "ruleSet": options.replay.rule_set.name,
        "keeps": keep.describe(),
        "units": {"before": reduced.units.1, "after": reduced.units.0},
        "messages": reduced.messages,
        "checks": reduced.checks,
        "minimal": !reduced.stopped_early,
        "redacted": reduced.redacted,
        "recordsTarget": reduced.travels,
        "reproduce": reproduce_command(output, options, reduced.travels),
    })
}
