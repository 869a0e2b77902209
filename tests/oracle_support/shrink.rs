//! Greedy shrinking of a failing case: drop whole messages, then content blocks, then
//! optional block and message fields, keeping a change only while the `2026.9.6` run still differs the
//! same way (same path kind and value sketch). Bounded by an oracle-call budget.

use replaylens::model::json::Value;

use super::cases::Case;
use super::check::{judge, oracle_messages};
use super::compare::Difference;
use super::lens::{self, RuleSetName};
use super::oracle::OracleProcess;

/// A shrunk case and what it took.
#[derive(Debug, Clone)]
pub struct Shrunk {
    /// The smallest failing case found.
    pub case: Case,
    /// Its first difference.
    pub difference: Difference,
    /// Oracle calls spent.
    pub calls: usize,
}

const KEPT_FIELDS: [&str; 2] = ["role", "content"];
const KEPT_BLOCK_FIELDS: [&str; 1] = ["type"];

struct Shrinker<'a> {
    oracle: &'a mut OracleProcess,
    signature: String,
    calls: usize,
    budget: usize,
    best: Case,
    difference: Difference,
}

impl Shrinker<'_> {
    /// Whether `candidate` still fails the same way; adopts it if so.
    fn try_adopt(&mut self, candidate: Case) -> bool {
        if self.calls >= self.budget {
            return false;
        }
        self.calls += 1;
        let Ok(reply) = self.oracle.call(&candidate.request_line(&Value::from(0))) else {
            return false;
        };
        let Ok(theirs) = oracle_messages(&reply) else {
            return false;
        };
        let ours = lens::replay(
            &candidate.messages,
            &candidate.target,
            candidate.tools.as_deref(),
            RuleSetName::Pinned,
        );
        match judge(&ours, theirs, RuleSetName::Pinned).0 {
            Some(d) if d.signature() == self.signature => {
                self.best = candidate;
                self.difference = d;
                true
            }
            _ => false,
        }
    }

    fn drop_messages(&mut self) -> bool {
        let mut progress = false;
        let mut i = self.best.messages.len();
        while i > 0 && self.calls < self.budget {
            i -= 1;
            let mut c = self.best.clone();
            std::sync::Arc::make_mut(&mut c.messages).remove(i);
            progress |= self.try_adopt(c);
            i = i.min(self.best.messages.len());
        }
        progress
    }

    fn drop_blocks(&mut self) -> bool {
        let mut progress = false;
        for m in (0..self.best.messages.len()).rev() {
            let count = block_count(&self.best.messages[m]);
            for b in (0..count).rev() {
                if self.calls >= self.budget || m >= self.best.messages.len() {
                    return progress;
                }
                let mut c = self.best.clone();
                if let Some(blocks) = std::sync::Arc::make_mut(&mut c.messages)[m]
                    .get_mut("content")
                    .and_then(Value::as_array_mut)
                    && b < blocks.len()
                {
                    blocks.remove(b);
                    progress |= self.try_adopt(c);
                }
            }
        }
        progress
    }

    fn drop_fields(&mut self) -> bool {
        let mut progress = false;
        if self.best.tools.is_some() {
            let mut c = self.best.clone();
            c.tools = None;
            progress |= self.try_adopt(c);
        }
        for m in (0..self.best.messages.len()).rev() {
            for b in (0..block_count(&self.best.messages[m])).rev() {
                progress |= self.drop_keys(m, Some(b));
            }
            progress |= self.drop_keys(m, None);
        }
        progress
    }

    /// Try removing each optional key of message `m` (or of its content block `block`).
    fn drop_keys(&mut self, m: usize, block: Option<usize>) -> bool {
        let kept: &[&str] = if block.is_some() {
            &KEPT_BLOCK_FIELDS
        } else {
            &KEPT_FIELDS
        };
        let message = self.best.messages.get(m);
        let object = match block {
            None => message.and_then(Value::as_object),
            Some(b) => message
                .and_then(|x| x.get("content")?.get(b))
                .and_then(Value::as_object),
        };
        let keys: Vec<String> = object
            .map(|o| {
                o.keys()
                    .filter(|k| !kept.contains(&k.as_str()))
                    .map(|k| k.to_string())
                    .collect()
            })
            .unwrap_or_default();
        let mut progress = false;
        for key in keys {
            if self.calls >= self.budget {
                break;
            }
            let mut c = self.best.clone();
            let messages: &mut Vec<Value> = std::sync::Arc::make_mut(&mut c.messages);
            if let Some(obj) = object_at(messages, m, block) {
                obj.shift_remove(&key);
                progress |= self.try_adopt(c);
            }
        }
        progress
    }
}

/// Message `m`, or its content block `block`, as a JSON object.
fn object_at(messages: &mut [Value], m: usize, block: Option<usize>) -> Option<&mut replaylens::model::json::Map> {
    let message = messages.get_mut(m)?;
    match block {
        None => message.as_object_mut(),
        Some(b) => message.get_mut("content")?.get_mut(b)?.as_object_mut(),
    }
}

fn block_count(message: &Value) -> usize {
    message.get("content").and_then(Value::as_array).map_or(0, |a| a.len())
}

/// Shrink `case`, which differs with `first`, spending at most `budget` oracle calls.
pub fn shrink(case: &Case, first: &Difference, oracle: &mut OracleProcess, budget: usize) -> Shrunk {
    let mut s = Shrinker {
        oracle,
        signature: first.signature(),
        calls: 0,
        budget,
        best: case.clone(),
        difference: first.clone(),
    };
    loop {
        let a = s.drop_messages();
        let b = s.drop_blocks();
        let c = s.drop_fields();
        if !(a || b || c) || s.calls >= s.budget {
            break;
        }
    }
    Shrunk {
        case: s.best,
        difference: s.difference,
        calls: s.calls,
    }
}
