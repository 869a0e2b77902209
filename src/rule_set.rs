//! OpenClaw rule sets: which release's behaviour a replay reproduces (`--openclaw VERSION`).
//!
//! A rule set is the newest behaviour plus a few named switches, each tied to the releases that
//! behave that way. Rules read the switches; nothing else in the pipeline depends on the set.
//! Adding a release is one more entry in [`RULE_SETS`] (and, when it behaves differently, one
//! more switch), then an oracle run (`oracle/README.md`) to confirm it.

use std::fmt;

/// The wording a synthesized missing tool result carries (outside the Responses family, which
/// always uses `aborted`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyntheticResultText {
    /// `[openclaw] missing tool result in session history; inserted synthetic error result for
    /// transcript repair.` (OpenClaw up to 2026.9.6).
    Legacy,
    /// The newest page: the outcome is unknown, retry only read-only or idempotent operations,
    /// verify state before repeating side effects.
    OutcomeUnknown,
}

/// The switches one rule set sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Switches {
    /// Text of a synthesized missing tool result (`tool-result-pairing`).
    pub synthetic_result_text: SyntheticResultText,
    /// Whether `tool-result-details` keeps the synthetic-result marker in `details`
    /// (2026.9.6 strips every `details`, marker included).
    pub keep_synthetic_marker: bool,
}

/// One rule set: a name, the releases it reproduces and its switches.
#[derive(Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// The name `--openclaw` accepts (`newest`, `2026.9.6`, …).
    pub name: &'static str,
    /// Other names accepted for it (releases that behave the same).
    pub aliases: &'static [&'static str],
    /// The releases it reproduces, in words.
    pub releases: &'static str,
    /// How it was confirmed.
    pub checked: &'static str,
    /// Its switches.
    pub switches: Switches,
}

/// The default: 2026.9.6 plus the deltas of the newest revision of the hygiene page.
pub static NEWEST: RuleSet = RuleSet {
    name: "newest",
    aliases: &["main"],
    releases: "OpenClaw main after 2026.9.6 (newest revision of the transcript-hygiene page)",
    checked: "differential test against 2026.9.6; only the documented deltas differ",
    switches: Switches {
        synthetic_result_text: SyntheticResultText::OutcomeUnknown,
        keep_synthetic_marker: true,
    },
};

/// Exactly what the published release 2026.9.6 (and 2026.9.5) sends.
pub static V2026_9_6: RuleSet = RuleSet {
    name: "2026.9.6",
    aliases: &["2026.9.5"],
    releases: "openclaw@2026.9.5 and 2026.9.6 on npm",
    checked: "differential test against openclaw@2026.9.6 (oracle/): 0 differences",
    switches: Switches {
        synthetic_result_text: SyntheticResultText::Legacy,
        keep_synthetic_marker: false,
    },
};

/// Every rule set, newest first.
pub static RULE_SETS: [&RuleSet; 2] = [&NEWEST, &V2026_9_6];

/// One switch on which a rule set differs from `newest`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The rule whose behaviour changes.
    pub rule: &'static str,
    /// What this rule set does instead.
    pub text: &'static str,
}

/// `--openclaw` named no known rule set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown OpenClaw rule set `{0}`; known: {known}", known = RuleSet::known_names())]
pub struct UnknownRuleSet(pub String);

impl RuleSet {
    /// The default rule set.
    pub fn newest() -> &'static RuleSet {
        &NEWEST
    }

    /// The rule set with this name or alias (a leading `v` is accepted).
    pub fn named(name: &str) -> Option<&'static RuleSet> {
        let name = name.trim();
        let name = name.strip_prefix('v').unwrap_or(name);
        RULE_SETS
            .iter()
            .copied()
            .find(|s| s.name.eq_ignore_ascii_case(name) || s.aliases.iter().any(|a| a.eq_ignore_ascii_case(name)))
    }

    /// [`RuleSet::named`] with an error naming the known sets.
    pub fn parse(name: &str) -> Result<&'static RuleSet, UnknownRuleSet> {
        Self::named(name).ok_or_else(|| UnknownRuleSet(name.to_owned()))
    }

    /// The names `--openclaw` accepts, comma-separated.
    pub fn known_names() -> String {
        RULE_SETS
            .iter()
            .flat_map(|s| std::iter::once(s.name).chain(s.aliases.iter().copied()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether this is the default set.
    pub fn is_newest(&self) -> bool {
        std::ptr::eq(self, &NEWEST)
    }

    /// The switches on which this set differs from `newest`, each naming its rule.
    pub fn differences(&self) -> Vec<Difference> {
        let mut out = Vec::new();
        let (mine, newest) = (self.switches, NEWEST.switches);
        if mine.synthetic_result_text != newest.synthetic_result_text {
            out.push(Difference {
                rule: "tool-result-pairing",
                text: match mine.synthetic_result_text {
                    SyntheticResultText::Legacy => {
                        "synthesized missing results carry the legacy text `[openclaw] missing tool result in \
                         session history; inserted synthetic error result for transcript repair.` (newest: the \
                         outcome-unknown wording); the Responses family keeps `aborted` in both"
                    }
                    SyntheticResultText::OutcomeUnknown => {
                        "synthesized missing results say that the outcome is unknown"
                    }
                },
            });
        }
        if mine.keep_synthetic_marker != newest.keep_synthetic_marker {
            out.push(Difference {
                rule: "tool-result-details",
                text: if mine.keep_synthetic_marker {
                    "synthetic results keep their marker in `details`"
                } else {
                    "every `details` is removed, the synthetic-result marker included (newest keeps the marker \
                     on synthetic results)"
                },
            });
        }
        out
    }

    /// The differences that concern one rule.
    pub fn differences_for(&self, rule: &str) -> Vec<Difference> {
        self.differences().into_iter().filter(|d| d.rule == rule).collect()
    }
}

impl Default for &'static RuleSet {
    /// `newest`.
    fn default() -> Self {
        &NEWEST
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_resolve() {
        assert!(RuleSet::named("newest").unwrap().is_newest());
        assert_eq!(RuleSet::named("2026.9.6").unwrap().name, "2026.9.6");
        assert_eq!(RuleSet::named("v2026.9.5").unwrap().name, "2026.9.6");
        assert!(RuleSet::named("2026.7.35").is_none());
        let err = RuleSet::parse("2025.1").unwrap_err().to_string();
        assert!(
            err.contains("2025.1") && err.contains("newest") && err.contains("2026.9.6"),
            "{err}"
        );
    }

    #[test]
    fn newest_has_no_differences_and_the_release_names_its_rules() {
        assert!(NEWEST.differences().is_empty());
        let rules: Vec<_> = V2026_9_6.differences().into_iter().map(|d| d.rule).collect();
        assert_eq!(rules, ["tool-result-pairing", "tool-result-details"]);
        assert_eq!(V2026_9_6.differences_for("tool-result-details").len(), 1);
    }
}
