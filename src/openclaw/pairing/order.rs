//! The order questions a pairing plan answers about a turn's results, in linear or `n log n`
//! work: which later result was stored before this one, whether any later result was, which
//! results a moved message now follows. A turn may hold tens of thousands of calls; asking
//! each question by scanning the turn made a plan quadratic (80,000 results in call order:
//! 3.7 s, where loading the file takes 0.27 s).

use std::collections::BTreeSet;

use crate::openclaw::work::examined;

/// For each position, the nearest later position holding a smaller value: for results in
/// call order with their stored indices, the first later call whose result was stored
/// before this one.
pub fn next_smaller(values: &[usize]) -> Vec<Option<usize>> {
    let mut out = vec![None; values.len()];
    // Positions to the right, values increasing from bottom to top.
    let mut stack: Vec<usize> = Vec::new();
    for (p, &v) in values.iter().enumerate().rev() {
        while stack.last().is_some_and(|&q| values[q] >= v) {
            examined(1);
            stack.pop();
        }
        examined(1);
        out[p] = stack.last().copied();
        stack.push(p);
    }
    out
}

/// For each position, whether a later position holds a smaller value (`None` holds none).
pub fn any_later_smaller(values: &[Option<usize>]) -> Vec<bool> {
    let mut out = vec![false; values.len()];
    let mut least_later: Option<usize> = None;
    for (p, v) in values.iter().enumerate().rev() {
        examined(1);
        if let Some(v) = *v {
            out[p] = least_later.is_some_and(|m| m < v);
            least_later = Some(least_later.map_or(v, |m| m.min(v)));
        }
    }
    out
}

/// For each query, how many positions hold a greater value and the first `keep` of them in
/// position order: for a message moved behind the results of its span, the results it now
/// follows that were stored after it.
pub fn greater_than_each(values: &[usize], queries: &[usize], keep: usize) -> Vec<(Vec<usize>, usize)> {
    let mut by_value: Vec<usize> = (0..values.len()).collect();
    by_value.sort_unstable_by_key(|&p| std::cmp::Reverse(values[p]));
    let mut by_query: Vec<usize> = (0..queries.len()).collect();
    by_query.sort_unstable_by_key(|&q| std::cmp::Reverse(queries[q]));
    let mut greater: BTreeSet<usize> = BTreeSet::new();
    let mut next = by_value.iter().peekable();
    let mut out = vec![(Vec::new(), 0); queries.len()];
    for q in by_query {
        while let Some(&&p) = next.peek() {
            if values[p] <= queries[q] {
                break;
            }
            examined(1);
            greater.insert(p);
            next.next();
        }
        let first: Vec<usize> = greater.iter().take(keep).copied().collect();
        examined(1 + first.len());
        out[q] = (first, greater.len());
    }
    out
}

/// Most results a moved message's note names before it counts the rest.
pub const NAMED: usize = crate::text::LIST_ITEMS;

/// Why a message of a span moved: it now follows the results of `after` (the first of `count`).
pub fn moved_behind_results(role: &str, after: &[&str], count: usize) -> String {
    let list = crate::text::join_first(after, count);
    format!("moved {role} message after the results for {list}: results must directly follow their tool calls")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn each_answer_equals_the_scan_it_replaces(values in prop::collection::vec(0usize..40, 0..60),
            queries in prop::collection::vec(0usize..40, 0..20)) {
            let n = values.len();
            let scan: Vec<Option<usize>> =
                (0..n).map(|p| (p + 1..n).find(|&q| values[q] < values[p])).collect();
            prop_assert_eq!(next_smaller(&values), scan);
            let holes: Vec<Option<usize>> =
                values.iter().map(|&v| (v % 3 != 0).then_some(v)).collect();
            let scan: Vec<bool> = (0..n)
                .map(|p| holes[p].is_some_and(|v| holes[p + 1..].iter().any(|w| w.is_some_and(|w| w < v))))
                .collect();
            prop_assert_eq!(any_later_smaller(&holes), scan);
            let scan: Vec<(Vec<usize>, usize)> = queries
                .iter()
                .map(|&r| {
                    let all: Vec<usize> = (0..n).filter(|&p| values[p] > r).collect();
                    (all.iter().take(3).copied().collect(), all.len())
                })
                .collect();
            prop_assert_eq!(greater_than_each(&values, &queries, 3), scan);
        }
    }

    #[test]
    fn a_turn_in_call_order_is_answered_in_linear_work() {
        let values: Vec<usize> = (0..100_000).collect();
        crate::openclaw::work::reset();
        assert!(next_smaller(&values).iter().all(Option::is_none));
        let reversed: Vec<usize> = values.iter().rev().copied().collect();
        assert_eq!(next_smaller(&reversed)[0], Some(1));
        let queries: Vec<usize> = (0..100_000).step_by(2).collect();
        let answers = greater_than_each(&values, &queries, 8);
        assert_eq!(answers[0].1, 99_999);
        assert_eq!(answers[0].0, [1, 2, 3, 4, 5, 6, 7, 8]);
        let looked = crate::openclaw::work::count();
        assert!(looked <= 10 * values.len(), "{looked} entries looked at");
    }
}
