//! Turning the 2026.7 pass's output into a [`Plan`]: each input index kept once, further copies as
//! inserted results, and why each kept message changed or moved.

use super::*;
use crate::openclaw::pairing::order;

/// Per moved message's output position: the output positions of the first results it now
/// follows, and how many it follows.
type FollowedResults = HashMap<usize, (Vec<usize>, usize)>;

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
        let later_smaller = order::any_later_smaller(&kept);
        let (ahead_of, follows) = self.frame_order(&kept);
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
                Place::Later | Place::Replacement => later_smaller[pos].then(|| {
                    format!(
                        "moved result for {} back to its call: it had been displaced past a later tool-call turn",
                        e.call
                    )
                }),
                Place::Local { .. } => ahead_of[pos].map(|p| {
                    format!(
                        "moved result for {} ahead of the result for {}: results follow their calls in order",
                        e.call, self.out[p].call
                    )
                }),
                Place::Remainder { .. } => follows.get(&pos).map(|(after, count)| {
                    let after: Vec<&str> = after.iter().map(|&p| self.out[p].call.as_str()).collect();
                    order::moved_behind_results(role_name(messages[index]), &after, *count)
                }),
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

    /// Per output position: the later kept result of the same span stored before it (a span's
    /// result), and the kept results of its span stored after it with their count (a message
    /// moved behind the span's results, which the pass places after all of them).
    fn frame_order(&self, kept: &[Option<usize>]) -> (Vec<Option<usize>>, FollowedResults) {
        let mut locals: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut remainders: HashMap<usize, Vec<usize>> = HashMap::new();
        for (p, e) in self.out.iter().enumerate() {
            match (e.place, kept[p]) {
                (Place::Local { frame }, Some(_)) => locals.entry(frame).or_default().push(p),
                (Place::Remainder { frame }, Some(_)) => remainders.entry(frame).or_default().push(p),
                _ => {}
            }
        }
        let stored = |positions: &[usize]| -> Vec<usize> { positions.iter().filter_map(|&p| kept[p]).collect() };
        let mut ahead_of = vec![None; self.out.len()];
        let mut follows = HashMap::new();
        for (frame, positions) in &locals {
            let values = stored(positions);
            for (&p, q) in positions.iter().zip(order::next_smaller(&values)) {
                ahead_of[p] = q.map(|q| positions[q]);
            }
            let Some(moved) = remainders.get(frame) else { continue };
            for (&r, (after, count)) in
                moved
                    .iter()
                    .zip(order::greater_than_each(&values, &stored(moved), order::NAMED))
            {
                if count > 0 {
                    follows.insert(r, (after.into_iter().map(|q| positions[q]).collect(), count));
                }
            }
        }
        (ahead_of, follows)
    }
}
