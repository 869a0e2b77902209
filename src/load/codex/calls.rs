//! Pairing tool outputs with the calls they answer: by `call_id`, or, for drift shapes
//! that have none, with the latest unanswered call of the same name.

use std::collections::HashMap;

/// One tool call seen so far.
#[derive(Debug)]
struct Call {
    /// The id on the `toolCall` block (`call_id|item_id`, `call_id`, or `call_line<N>`).
    id: String,
    name: String,
    answered: bool,
}

/// How an output found its call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Pairing {
    /// By its `call_id`: the call's block id and name.
    ById(String, String),
    /// By name, for an output without `call_id`: the call's block id and name.
    ByName(String, String),
    /// No earlier call matches.
    Orphan,
}

/// Every tool call of the walk, in order.
#[derive(Debug, Default)]
pub(super) struct Calls {
    list: Vec<Call>,
    by_call_id: HashMap<String, usize>,
}

impl Calls {
    /// Record a call: its stored `call_id` (none for drift calls), the id on its block,
    /// and its name. A repeated `call_id` (a resumed or copied thread) names the latest.
    pub(super) fn add(&mut self, call_id: Option<&str>, id: String, name: &str) {
        if let Some(cid) = call_id {
            self.by_call_id.insert(cid.to_owned(), self.list.len());
        }
        self.list.push(Call {
            id,
            name: name.to_owned(),
            answered: false,
        });
    }

    /// The call an output answers: by `call_id` when it has one, else the latest
    /// unanswered call named `name`.
    pub(super) fn answer(&mut self, call_id: Option<&str>, name: Option<&str>) -> Pairing {
        let index = match (call_id, name) {
            (Some(cid), _) => self.by_call_id.get(cid).copied(),
            (None, Some(n)) => self.list.iter().rposition(|c| !c.answered && c.name == n),
            (None, None) => None,
        };
        let Some(call) = index.and_then(|i| self.list.get_mut(i)) else {
            return Pairing::Orphan;
        };
        call.answered = true;
        if call_id.is_some() {
            Pairing::ById(call.id.clone(), call.name.clone())
        } else {
            Pairing::ByName(call.id.clone(), call.name.clone())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_by_call_id_then_by_latest_unanswered_name() {
        let mut calls = Calls::default();
        calls.add(Some("call_1"), "call_1|fc_1".into(), "shell");
        calls.add(None, "call_line4".into(), "translate");
        calls.add(None, "call_line5".into(), "translate");
        assert_eq!(
            calls.answer(Some("call_1"), None),
            Pairing::ById("call_1|fc_1".into(), "shell".into())
        );
        assert_eq!(
            calls.answer(None, Some("translate")),
            Pairing::ByName("call_line5".into(), "translate".into())
        );
        assert_eq!(
            calls.answer(None, Some("translate")),
            Pairing::ByName("call_line4".into(), "translate".into())
        );
        assert_eq!(calls.answer(None, Some("translate")), Pairing::Orphan);
        assert_eq!(calls.answer(Some("call_9"), Some("shell")), Pairing::Orphan);
        assert_eq!(calls.answer(None, None), Pairing::Orphan);
    }
}
