//! The wider parts of the generator: where stored assistant turns come from (the target itself,
//! a sibling model of the same provider and API, other providers, provider aliases), compaction
//! checkpoints (`providerReplay`) on assistant turns and tool-result id alias fields; and the
//! count of what a run's random cases hold, printed by the history differential.

use std::collections::BTreeMap;

use replaylens::json;
use replaylens::model::json::Value;

use super::cases::{Case, Origin};
use super::generate::Generator;
use super::targets::{OTHER_ORIGINS, TargetSpec, fixed_targets};

/// Origins under provider ids OpenClaw normalizes or aliases (`x-ai`, `claude-cli`, case), and
/// providers whose turns a session may hold after a model switch.
pub const ALIAS_ORIGINS: [(&str, &str, &str); 10] = [
    ("x-ai", "openai-completions", "grok-4"),
    ("xai", "openai-responses", "grok-4"),
    ("claude-cli", "anthropic-messages", "claude-sonnet-4-5"),
    ("Anthropic", "anthropic-messages", "claude-sonnet-4-5"),
    ("OpenAI", "openai-responses", "gpt-5"),
    ("azure-openai-responses", "openai-responses", "gpt-5"),
    ("minimax-portal-cn", "anthropic-messages", "MiniMax-M2.7"),
    ("deepseek", "openai-completions", "deepseek-chat"),
    ("github-copilot", "openai-responses", "gpt-5"),
    ("vertex", "google-vertex", "gemini-2.5-pro"),
];

/// Model ids a sibling turn (same provider and API as the target, another model) takes.
const SIBLING_MODELS: [&str; 5] = ["gpt-5-mini", "claude-haiku-4-5", "gemini-2.5-flash", "other-model", "x"];

/// The six tool-result id fields OpenClaw reads.
const RESULT_ALIASES: [&str; 6] = [
    "call_id",
    "callId",
    "tool_call_id",
    "tool_use_id",
    "toolCallId",
    "toolUseId",
];

impl Generator {
    /// Where a stored assistant turn comes from: the target 72% of the time (the same-model
    /// rules need many: see [`SAME_MODEL_MIN_PER_TARGET`]), else a sibling model, a fixed target,
    /// another provider or an alias.
    pub(super) fn wide_origin(&mut self) -> TargetSpec {
        match self.rng.below(100) {
            0..72 => self.target.clone(),
            72..80 => {
                let mut sibling = self.target.clone();
                let model = *self.rng.pick(&SIBLING_MODELS);
                sibling.model = if model == sibling.model {
                    format!("{model}-2")
                } else {
                    model.to_owned()
                };
                sibling
            }
            80..88 => self.rng.pick(&fixed_targets()).clone(),
            88..94 => {
                let (p, a, m) = *self.rng.pick(&OTHER_ORIGINS);
                TargetSpec::new(p, a, m)
            }
            _ => {
                let (p, a, m) = *self.rng.pick(&ALIAS_ORIGINS);
                TargetSpec::new(p, a, m)
            }
        }
    }

    /// Now and then, provider replay state on an assistant turn: a compaction checkpoint of
    /// either type (or the retained kind) with a random `replayIndex` around its content's
    /// length, opaque state of another type, or a falsy value. Only on array or string content
    /// (OpenClaw throws on a checkpoint whose turn has other content).
    pub(super) fn maybe_provider_replay(&mut self, msg: &mut Value) {
        let len = match msg.get("content") {
            Some(Value::Array(a)) => a.len(),
            Some(Value::String(s)) => s.encode_utf16().count().min(4),
            _ => return,
        };
        if !self.rng.chance(18) {
            return;
        }
        let rng = &mut self.rng;
        let kind = match rng.below(100) {
            0..38 => "anthropic-compaction",
            38..76 => "openai-responses-compaction",
            76..84 => "openai-responses-retained-compaction",
            84..92 => "opaque-state",
            _ => {
                msg["providerReplay"] = rng.pick(&[json!(0), json!(""), json!(null), json!(false)]).clone();
                return;
            }
        };
        let mut replay = json!({"type": kind});
        if !rng.chance(15) {
            replay["replayIndex"] = json!(rng.below(len + 3));
        }
        replay["encrypted_content"] = json!(format!("gAAAA{}", rng.alnum(12)));
        msg["providerReplay"] = replay;
    }

    /// Now and then, tool-result id alias fields: a random subset of the six names, holding the
    /// call's id, another call's id, a padded or malformed id, an empty string or a number;
    /// sometimes `toolCallId` itself goes.
    pub(super) fn maybe_result_aliases(&mut self, msg: &mut Value, id: &str) {
        if !self.rng.chance(22) {
            return;
        }
        for field in RESULT_ALIASES {
            if !self.rng.chance(35) {
                continue;
            }
            let other = self.used_ids.last().cloned().unwrap_or_else(|| "call_other".to_owned());
            let value = match self.rng.below(10) {
                0..4 => json!(id),
                4 | 5 => json!(other),
                6 => json!(format!("{id} bad/{}", self.rng.alnum(3))),
                7 => json!(format!(" {id} ")),
                8 => json!(""),
                _ => json!(self.rng.below(9)),
            };
            msg[field] = value;
        }
        if self.rng.chance(20)
            && let Some(obj) = msg.as_object_mut()
        {
            obj.shift_remove("toolCallId");
        }
    }
}

/// The fewest assistant turns of a target's own model (provider, API and model equal) that a
/// full-size run (`plan::DEFAULT_RANDOM_PER_PROVIDER` cases per provider, spread over the
/// targets) must store for every target: the turns the same-model rules decide on
/// (`drop-thinking`, `thought-signature`, `responses-reasoning`, …).
pub const SAME_MODEL_MIN_PER_TARGET: usize = 100;

/// What a run's random cases hold, per target: assistant turns stored by the target's own model
/// (what the same-model rules act on), by a sibling model, compaction checkpoints and results
/// with alias fields.
#[derive(Debug, Default)]
pub struct Coverage {
    same_model: BTreeMap<String, usize>,
    same_model_by_provider: BTreeMap<String, usize>,
    sibling: BTreeMap<String, usize>,
    checkpoints: usize,
    alias_results: usize,
}

impl Coverage {
    /// Count the random cases of `cases`.
    pub fn of(cases: &[Case]) -> Self {
        let mut c = Coverage::default();
        for case in cases.iter().filter(|c| c.origin == Origin::Random) {
            let t = &case.target;
            let label = t.label();
            c.same_model.entry(label.clone()).or_default();
            c.sibling.entry(label.clone()).or_default();
            for m in case.messages.iter() {
                let part = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("");
                match part("role") {
                    "assistant" if part("provider") == t.provider && part("api") == t.api => {
                        if part("model") == t.model {
                            *c.same_model.entry(label.clone()).or_default() += 1;
                            *c.same_model_by_provider.entry(t.provider.clone()).or_default() += 1;
                        } else {
                            *c.sibling.entry(label.clone()).or_default() += 1;
                        }
                    }
                    "toolResult" if RESULT_ALIASES[..4].iter().any(|f| m.get(f).is_some()) => c.alias_results += 1,
                    _ => {}
                }
                let kind = m
                    .get("providerReplay")
                    .and_then(|r| r.get("type"))
                    .and_then(Value::as_str);
                if kind.is_some_and(|k| k.ends_with("compaction")) {
                    c.checkpoints += 1;
                }
            }
        }
        c
    }

    /// The smallest count of a map, with its target.
    fn least(map: &BTreeMap<String, usize>) -> (usize, &str) {
        map.iter()
            .min_by_key(|(_, n)| **n)
            .map_or((0, "none"), |(t, n)| (*n, t.as_str()))
    }

    /// Targets with fewer than `min` same-model turns, with their count.
    pub fn short_of(&self, min: usize) -> Vec<(String, usize)> {
        self.same_model
            .iter()
            .filter(|(_, n)| **n < min)
            .map(|(t, n)| (t.clone(), *n))
            .collect()
    }

    /// The same-model turns of every target, several to a line, fewest first.
    pub fn per_target(&self) -> String {
        let mut rows: Vec<(&String, &usize)> = self.same_model.iter().collect();
        rows.sort_by_key(|(t, n)| (**n, (*t).clone()));
        let mut out = format!("same-model assistant turns per target ({} targets):\n", rows.len());
        for chunk in rows.chunks(3) {
            let cells: Vec<String> = chunk.iter().map(|(t, n)| format!("{n:>5}  {t:<60}")).collect();
            out.push_str(&format!("  {}\n", cells.join(" ").trim_end()));
        }
        out
    }

    /// One line for the report.
    pub fn line(&self) -> String {
        let (same, same_at) = Self::least(&self.same_model);
        let (by_provider, provider_at) = Self::least(&self.same_model_by_provider);
        let (sib, sib_at) = Self::least(&self.sibling);
        let total: usize = self.same_model.values().sum();
        format!(
            "generator coverage: same-model assistant turns {total}, fewest per provider {by_provider} ({provider_at}) \
             over {} providers, fewest per target {same} ({same_at}) over {} targets; sibling-model turns fewest \
             per target {sib} ({sib_at}); {} compaction checkpoints; {} results with id alias fields",
            self.same_model_by_provider.len(),
            self.same_model.len(),
            self.checkpoints,
            self.alias_results
        )
    }
}
