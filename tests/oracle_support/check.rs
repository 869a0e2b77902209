//! Checking one case: replaylens under both rule sets against one oracle reply.

use serde_json::{Value, json};

use super::cases::Case;
use super::compare::{Difference, compare, compare_policy};
use super::lens::{self, LensReplay, RuleSetName};
use super::oracle::OraclePool;
use super::report::Finding;
use super::targets::targets;

/// replaylens' history stage for one case under both rule sets.
#[derive(Debug, Clone)]
pub struct LensRuns {
    /// Under `2026.9.6`.
    pub pinned: Result<LensReplay, String>,
    /// Under `newest`.
    pub newest: Result<LensReplay, String>,
}

/// Replay a case under both rule sets.
pub fn lens_runs(case: &Case) -> LensRuns {
    let run = |set| lens::replay(&case.messages, &case.target, case.tools.as_deref(), set);
    LensRuns {
        pinned: run(RuleSetName::Pinned),
        newest: run(RuleSetName::Newest),
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
        .map(Vec::as_slice)
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

/// Judge a case from both replaylens runs and the oracle reply.
pub fn verdict(runs: &LensRuns, reply: &Value) -> Verdict {
    let oracle = match oracle_messages(reply) {
        Ok(m) => m,
        Err(e) if oracle_refusal(&e).is_some() => {
            // OpenClaw refuses the transcript: replaylens must refuse it with the same error.
            let theirs = oracle_refusal(&e).unwrap_or_default();
            return Verdict {
                pinned: judge_refusal(&runs.pinned, theirs),
                newest: judge_refusal(&runs.newest, theirs),
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
    let (pinned, _) = judge(&runs.pinned, oracle, RuleSetName::Pinned);
    let (newest, deltas) = judge(&runs.newest, oracle, RuleSetName::Newest);
    Verdict { pinned, newest, deltas }
}

/// Compare replaylens' policy with the oracle's `policyOnly` reply for every target.
pub fn policy_findings(pool: &mut OraclePool) -> Result<Vec<Finding>, String> {
    let all = targets();
    let requests: Vec<String> = all
        .iter()
        .enumerate()
        .map(|(i, t)| {
            json!({"id": i, "provider": t.provider, "api": t.api, "model": t.model, "messages": [], "policyOnly": true})
                .to_string()
        })
        .collect();
    let replies = pool.run(&requests)?;
    let mut out = Vec::new();
    for (t, reply) in all.iter().zip(&replies) {
        let difference = match reply.get("policy") {
            Some(theirs) => compare_policy(&lens::policy(t), theirs),
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
