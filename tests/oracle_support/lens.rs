//! The replaylens side, in process. Every use of the replay API goes through this file, so an
//! interface change is a one-line change here.

use std::path::Path;

use replaylens::hygiene::{Projection, ReplayMessage, ReplayOptions};
use replaylens::load::message_array::load_message_array;
use replaylens::model::json::Value;
use replaylens::policy::{Target, resolve_for};
use replaylens::replay::replay_transcript;
use replaylens::rule_set::RuleSet;

use super::targets::TargetSpec;

/// The rule sets a case is replayed with: the pinned release's run checks `2026.9.6` and
/// `newest`; a run against an older release checks the set that covers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleSetName {
    /// `2026.9.6`: must equal the oracle exactly.
    Pinned,
    /// `newest`: may differ only by the documented deltas.
    Newest,
    /// The rule set of an older release (by name): must equal that release exactly.
    Release(&'static str),
}

impl RuleSetName {
    /// The name `RuleSet::named` accepts.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pinned => "2026.9.6",
            Self::Newest => "newest",
            Self::Release(name) => name,
        }
    }
}

/// One message of the replaylens history stage.
#[derive(Debug, Clone)]
pub struct LensMessage {
    /// The message JSON.
    pub value: Value,
    /// Whether replaylens synthesized it (no stored source).
    pub synthesized: bool,
}

fn options(rule_set: RuleSetName, tools: Option<&[String]>) -> Result<ReplayOptions, String> {
    let set = RuleSet::named(rule_set.as_str()).ok_or_else(|| format!("no rule set {}", rule_set.as_str()))?;
    Ok(ReplayOptions {
        allowed_tools: tools.map(<[String]>::to_vec),
        rule_set: set,
        ..ReplayOptions::default()
    })
}

fn history_stage<'p, 's>(projection: &'p Projection<'s>) -> &'p [ReplayMessage<'s>] {
    projection.history_stage()
}

fn target(t: &TargetSpec) -> Target {
    Target::new(Some(&t.provider), Some(&t.api), Some(&t.model))
}

/// What one replay produced: the history-stage messages and the rules that rewrote something.
#[derive(Debug, Clone, Default)]
pub struct LensReplay {
    /// The history stage.
    pub messages: Vec<LensMessage>,
    /// Ids of the rules that recorded a rewrite (either stage), for coverage.
    pub rules_fired: Vec<&'static str>,
    /// Why OpenClaw would refuse this replay (`invalid_replay_transcript: …`), if it would.
    pub refusal: Option<String>,
}

/// Replay a message array for a target.
pub fn replay(
    messages: &[Value],
    target_spec: &TargetSpec,
    tools: Option<&[String]>,
    rule_set: RuleSetName,
) -> Result<LensReplay, String> {
    let bytes = serde_json::to_vec(messages).map_err(|e| e.to_string())?;
    let session = load_message_array(Path::new("oracle-case.json"), &bytes).map_err(|e| e.to_string())?;
    let options = options(rule_set, tools)?;
    let replay = replay_transcript(session.transcript(), &target(target_spec), &options);
    let messages = history_stage(&replay.projection)
        .iter()
        .map(|m| {
            let value = replaylens::model::json::to_value(m.message.as_ref()).map_err(|e| e.to_string())?;
            Ok(LensMessage {
                value,
                synthesized: m.source.is_empty(),
            })
        })
        .collect::<Result<_, String>>()?;
    let mut rules_fired: Vec<&'static str> = replay.projection.rewrites.iter().map(|r| r.rule).collect();
    rules_fired.sort_unstable();
    rules_fired.dedup();
    Ok(LensReplay {
        messages,
        rules_fired,
        refusal: replay.projection.refusal.clone(),
    })
}

/// The whole replay under the pinned rule set (history and stream stages: what is sent), or
/// `None` when OpenClaw would refuse it.
pub fn replay_messages(
    messages: &[Value],
    target_spec: &TargetSpec,
    tools: Option<&[String]>,
) -> Result<Option<Vec<Value>>, String> {
    let bytes = serde_json::to_vec(messages).map_err(|e| e.to_string())?;
    let session = load_message_array(Path::new("oracle-case.json"), &bytes).map_err(|e| e.to_string())?;
    let options = options(RuleSetName::Pinned, tools)?;
    let replay = replay_transcript(session.transcript(), &target(target_spec), &options);
    if replay.projection.refusal.is_some() {
        return Ok(None);
    }
    replay
        .projection
        .messages
        .iter()
        .map(|m| replaylens::model::json::to_value(m.message.as_ref()).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Every rule id of the pipeline, in order.
pub fn all_rules() -> Vec<&'static str> {
    replaylens::hygiene::registry::pipeline()
        .iter()
        .map(|r| r.info().id)
        .collect()
}

/// The policy JSON replaylens resolves for a target under a rule set (`policy --format json` shape,
/// `family` included).
pub fn policy(target_spec: &TargetSpec, rule_set: RuleSetName) -> Value {
    let set = RuleSet::named(rule_set.as_str()).unwrap_or(RuleSet::newest());
    resolve_for(&target(target_spec), set).to_json()
}
