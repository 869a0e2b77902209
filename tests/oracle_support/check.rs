//! Checking one case: replaylens under both rule sets against one oracle reply.

use replaylens::json;
use replaylens::model::json::Value;

use super::cases::{Case, Origin};
use super::compare::{Difference, compare, compare_policy};
use super::lens::{self, LensReplay, RuleSetName};
use super::oracle::OraclePool;
use super::report::Finding;
use super::targets::{TargetSet, TargetSpec, fixed_targets};

/// replaylens' history stage for one case under the run's rule sets.
#[derive(Debug, Clone)]
pub struct LensRuns {
    /// Under the rule set that must equal the oracle exactly (`2026.9.6`, or an older
    /// release's set).
    pub pinned: Result<LensReplay, String>,
    /// Under `newest`, in the run against the pinned release only.
    pub newest: Option<Result<LensReplay, String>>,
}

/// Replay a case under `strict`, and under `newest` too when `strict` is the pinned release and
/// the case targets one of the fixed twelve or comes from a request file (the documented deltas
/// of `newest` do not depend on the provider, and the enumerated targets would double the run).
pub fn lens_runs(case: &Case, strict: RuleSetName) -> LensRuns {
    let run = |set| lens::replay(&case.messages, &case.target, case.tools.as_deref(), set);
    let newest =
        strict == RuleSetName::Pinned && (case.origin == Origin::File || fixed_targets().contains(&case.target));
    LensRuns {
        pinned: run(strict),
        newest: newest.then(|| run(RuleSetName::Newest)),
    }
}

/// The verdict on one case.
#[derive(Debug, Clone, Default)]
pub struct Verdict {
    /// First difference under `2026.9.6` (an oracle error counts here).
    pub pinned: Option<Difference>,
    /// First difference under `newest` beyond the documented deltas.
    pub newest: Option<Difference>,
    /// Documented deltas tolerated under `newest`.
    pub deltas: usize,
}

/// The oracle's messages, or why the reply has none.
pub fn oracle_messages(reply: &Value) -> Result<&[Value], String> {
    if let Some(e) = reply.get("error") {
        return Err(e.as_str().map(str::to_owned).unwrap_or_else(|| e.to_string()));
    }
    reply
        .get("messages")
        .and_then(Value::as_array)
        .map(|a| a.as_slice())
        .ok_or_else(|| "the reply has no messages".to_owned())
}

/// The `invalid_replay_transcript: …` refusal inside an oracle error, if that is what it is.
fn oracle_refusal(error: &str) -> Option<&str> {
    let at = error.find("invalid_replay_transcript:")?;
    let rest = &error[at..];
    Some(rest.split(" | ").next().unwrap_or(rest).trim_end())
}

/// Compare a refusal of OpenClaw's with replaylens' refusal under one rule set.
fn judge_refusal(lens: &Result<LensReplay, String>, theirs: &str) -> Option<Difference> {
    match lens {
        Err(e) => Some(Difference::error("(replaylens error)", e, theirs)),
        Ok(ours) if ours.refusal.as_deref() == Some(theirs) => None,
        Ok(ours) => Some(Difference::error(
            "(refusal)",
            ours.refusal.as_deref().unwrap_or("no refusal"),
            theirs,
        )),
    }
}

/// Compare one side under one rule set.
pub fn judge(lens: &Result<LensReplay, String>, oracle: &[Value], set: RuleSetName) -> (Option<Difference>, usize) {
    match lens {
        Err(e) => (Some(Difference::error("(replaylens error)", e, "")), 0),
        Ok(ours) if ours.refusal.is_some() => (
            Some(Difference::error(
                "(refusal)",
                ours.refusal.as_deref().unwrap_or_default(),
                "no refusal",
            )),
            0,
        ),
        Ok(ours) => {
            let outcome = compare(&ours.messages, oracle, set);
            (outcome.difference, outcome.deltas)
        }
    }
}

/// Judge a case from the replaylens runs (`strict` being the exact one) and the oracle reply.
pub fn verdict(runs: &LensRuns, reply: &Value, strict: RuleSetName) -> Verdict {
    let oracle = match oracle_messages(reply) {
        Ok(m) => m,
        Err(e) if oracle_refusal(&e).is_some() => {
            // OpenClaw refuses the transcript: replaylens must refuse it with the same error.
            let theirs = oracle_refusal(&e).unwrap_or_default();
            return Verdict {
                pinned: judge_refusal(&runs.pinned, theirs),
                newest: runs.newest.as_ref().and_then(|n| judge_refusal(n, theirs)),
                deltas: 0,
            };
        }
        Err(e) => {
            return Verdict {
                pinned: Some(Difference::error("(oracle error)", "", &e)),
                ..Verdict::default()
            };
        }
    };
    let (pinned, _) = judge(&runs.pinned, oracle, strict);
    let (newest, deltas) = match &runs.newest {
        Some(n) => judge(n, oracle, RuleSetName::Newest),
        None => (None, 0),
    };
    Verdict { pinned, newest, deltas }
}

/// Compare replaylens' policy under `rule_set` with the oracle's `policyOnly` reply for every
/// target of `set`.
pub fn policy_findings(pool: &mut OraclePool, set: &TargetSet, rule_set: RuleSetName) -> Result<Vec<Finding>, String> {
    let (all, replies) = policy_replies(pool, set)?;
    let mut out = Vec::new();
    for (t, reply) in all.iter().zip(&replies) {
        let difference = match reply.get("policy") {
            Some(theirs) => compare_policy(&lens::policy(t, rule_set), theirs),
            None => Some(Difference::error("(oracle error)", "", &reply.to_string())),
        };
        if let Some(difference) = difference {
            out.push(Finding {
                case_id: format!("policy@{}", t.label()),
                target: t.clone(),
                run: "policy",
                difference,
            });
        }
    }
    Ok(out)
}

/// The provider plugin the oracle resolved for each target (`None` when it fell back to the
/// core policy), as `(target label, plugin)`.
pub fn resolved_plugins(pool: &mut OraclePool, set: &TargetSet) -> Result<Vec<(String, Option<String>)>, String> {
    let (all, replies) = policy_replies(pool, set)?;
    Ok(all
        .iter()
        .zip(&replies)
        .map(|(t, r)| (t.label(), r.get("plugin").and_then(Value::as_str).map(str::to_owned)))
        .collect())
}

/// Every target and the oracle's `policyOnly` reply for it.
fn policy_replies(pool: &mut OraclePool, set: &TargetSet) -> Result<(Vec<TargetSpec>, Vec<Value>), String> {
    let all = set.targets.clone();
    let requests: Vec<String> = all
        .iter()
        .enumerate()
        .map(|(i, t)| {
            json!({"id": i, "provider": t.provider, "api": t.api, "model": t.model, "messages": [], "policyOnly": true})
                .to_string()
        })
        .collect();
    let replies = pool.run(&requests)?;
    Ok((all, replies))
}
