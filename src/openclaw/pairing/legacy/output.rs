//! Turning the 2026.7 pass's output into a [`Plan`]: each input index kept once, further copies as
//! inserted results, and why each kept message changed or moved.

use super::*;

impl Pass<'_, '_> {
    /// Turn the output entries into a [`Plan`]; `None` when the output equals the input.
    pub(super) fn into_plan(self) -> Option<Plan> {
        let messages = self.messages;
        let n = messages.len();
        let mut used = vec![false; n];
        // First appearance of each input index: kept; further appearances are copies.
        let first: Vec<bool> = self
            .out
            .iter()
            .map(|e| match e.index {
                Some(i) if !used[i] => {
                    used[i] = true;
                    true
                }
                _ => false,
            })
            .collect();
        let kept: Vec<Option<usize>> = self
            .out
            .iter()
            .zip(&first)
            .map(|(e, &f)| if f { e.index } else { None })
            .collect();
        let mut items = Vec::with_capacity(self.out.len());
        for (pos, e) in self.out.iter().enumerate() {
            let Some(index) = kept[pos] else {
                items.push(match e.index {
                    None => Item::Synthetic {
                        owner: e.owner,
                        message: e.msg.clone(),
                        detail: e.note.clone().unwrap_or_default(),
                    },
                    Some(of) => Item::Copy {
                        owner: e.owner,
                        of,
                        message: e.msg.clone(),
                        detail: format!(
                            "copied legacy result without an id as the result for {}: OpenClaw 2026.7.35 lets \
                             every single-call turn adopt it",
                            e.call
                        ),
                    },
                });
                continue;
            };
            let change = (e.msg != *messages[index])
                .then(|| (e.msg.clone(), e.note.clone().unwrap_or_else(|| "normalized".to_owned())));
            let moved = match e.place {
                Place::Plain => None,
                Place::Later | Place::Replacement => {
                    kept[pos + 1..].iter().any(|k| k.is_some_and(|k| k < index)).then(|| {
                        format!(
                            "moved result for {} back to its call: it had been displaced past a later tool-call turn",
                            e.call
                        )
                    })
                }
                Place::Local { frame } => (pos + 1..self.out.len())
                    .find(|&p| self.out[p].place == (Place::Local { frame }) && kept[p].is_some_and(|k| k < index))
                    .map(|p| {
                        format!(
                            "moved result for {} ahead of the result for {}: results follow their calls in order",
                            e.call, self.out[p].call
                        )
                    }),
                Place::Remainder { frame } => {
                    let after: Vec<&str> = (0..pos)
                        .filter(|&p| {
                            self.out[p].place == (Place::Local { frame }) && kept[p].is_some_and(|k| k > index)
                        })
                        .map(|p| self.out[p].call.as_str())
                        .collect();
                    (!after.is_empty()).then(|| {
                        format!(
                            "moved {} message after the results for {}: results must directly follow their tool calls",
                            role_name(messages[index]),
                            after.join(", ")
                        )
                    })
                }
            };
            items.push(Item::Kept { index, change, moved });
        }
        let dropped: Vec<(usize, String)> = (0..n)
            .filter(|&i| !used[i])
            .map(|i| {
                let why = self
                    .reasons
                    .get(&i)
                    .cloned()
                    .unwrap_or_else(|| "dropped by OpenClaw 2026.7.35's pairing repair".to_owned());
                (i, why)
            })
            .collect();
        let identical = dropped.is_empty()
            && items.len() == n
            && items
                .iter()
                .enumerate()
                .all(|(i, it)| matches!(it, Item::Kept { index, change: None, moved: None } if *index == i));
        (!identical).then_some(Plan { items, dropped })
    }
}
