//! Aligning the stored transcript with the replay projection by provenance, for the
//! side-by-side views (inspector, exports). Built from the rewrites the rules recorded,
//! never by diffing the two sides.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::hygiene::{Action, Projection};

/// What happened to the message(s) of one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RowKind {
    /// Sent as stored.
    Same,
    /// Sent, changed in place.
    Modified,
    /// Not sent.
    Dropped,
    /// Synthesized: no stored side.
    Inserted,
    /// Several stored messages sent as one.
    Merged,
    /// Sent at another place: this row is where it lands.
    Moved,
    /// The place a moved message was stored at: no replay side here.
    MovedFrom,
}

/// One row of the side-by-side view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    /// Stored message indices shown on the left (empty for an insert).
    pub stored: Vec<usize>,
    /// Replay message index shown on the right (none for a drop or a moved-from marker).
    pub replay: Option<usize>,
    /// What happened.
    pub kind: RowKind,
    /// Indices into `Projection::rewrites` that touch this row.
    pub rewrites: Vec<usize>,
    /// For a moved-from marker: the replay index the message moved to.
    pub moved_to: Option<usize>,
}

impl Row {
    /// True when the row shows any change.
    pub fn is_changed(&self) -> bool {
        self.kind != RowKind::Same || !self.rewrites.is_empty()
    }
}

/// Align `stored_len` stored messages with a projection.
pub fn align(stored_len: usize, projection: &Projection<'_>) -> Vec<Row> {
    let moved: HashSet<usize> = projection
        .rewrites
        .iter()
        .filter(|rw| rw.action == Action::Move)
        .flat_map(|rw| rw.stored.iter().copied())
        .collect();
    let mut landing: HashMap<usize, usize> = HashMap::new();
    let mut used: HashSet<usize> = HashSet::new();
    for (r, m) in projection.messages.iter().enumerate() {
        for &s in &m.source {
            landing.insert(s, r);
            used.insert(s);
        }
    }
    let mut by_replay: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut by_stored: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, rw) in projection.rewrites.iter().enumerate() {
        for &r in &rw.replay {
            by_replay.entry(r).or_default().push(i);
        }
        if rw.replay.is_empty() {
            for &s in &rw.stored {
                by_stored.entry(s).or_default().push(i);
            }
        }
    }
    let mut rows = Vec::with_capacity(stored_len.max(projection.messages.len()) + 4);
    let mut cursor = 0usize;
    let flush_until = |rows: &mut Vec<Row>, cursor: &mut usize, until: usize| {
        while *cursor < until.min(stored_len) {
            let s = *cursor;
            let rewrites = by_stored.get(&s).cloned().unwrap_or_default();
            if moved.contains(&s) && used.contains(&s) {
                rows.push(Row {
                    stored: vec![s],
                    replay: None,
                    kind: RowKind::MovedFrom,
                    rewrites,
                    moved_to: landing.get(&s).copied(),
                });
            } else if !used.contains(&s) {
                rows.push(Row {
                    stored: vec![s],
                    replay: None,
                    kind: RowKind::Dropped,
                    rewrites,
                    moved_to: None,
                });
            }
            *cursor += 1;
        }
    };
    for (r, m) in projection.messages.iter().enumerate() {
        let rewrites = by_replay.get(&r).cloned().unwrap_or_default();
        let mut stored = m.source.clone();
        stored.sort_unstable();
        let is_move = !stored.is_empty() && stored.iter().all(|s| moved.contains(s));
        let kind = if stored.is_empty() {
            RowKind::Inserted
        } else if is_move {
            RowKind::Moved
        } else if stored.len() > 1 {
            RowKind::Merged
        } else if rewrites.iter().any(|&i| projection.rewrites[i].action != Action::Move) {
            RowKind::Modified
        } else {
            RowKind::Same
        };
        if !is_move && let Some(&first) = stored.first() {
            flush_until(&mut rows, &mut cursor, first);
            cursor = cursor.max(stored.last().map_or(first, |l| l + 1));
        }
        rows.push(Row {
            stored,
            replay: Some(r),
            kind,
            rewrites,
            moved_to: None,
        });
    }
    flush_until(&mut rows, &mut cursor, stored_len);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hygiene::{ReplayMessage, Rewrite};
    use crate::model::Message;
    use std::borrow::Cow;

    fn projection(sources: &[&[usize]], rewrites: Vec<Rewrite>) -> Projection<'static> {
        Projection {
            messages: sources
                .iter()
                .map(|s| ReplayMessage {
                    source: s.to_vec(),
                    message: Cow::Owned(Message::default()),
                })
                .collect(),
            rewrites,
            rules_run: Vec::new(),
        }
    }

    fn rw(rule: &'static str, action: Action, stored: &[usize], replay: &[usize]) -> Rewrite {
        Rewrite {
            rule,
            action,
            stored: stored.to_vec(),
            replay: replay.to_vec(),
            detail: String::new(),
        }
    }

    #[test]
    fn drops_inserts_merges_and_modifications() {
        let p = projection(
            &[&[0], &[], &[2, 3], &[4]],
            vec![
                rw("stream-error-turn", Action::Drop, &[1], &[]),
                rw("tool-result-pairing", Action::Insert, &[], &[1]),
                rw("anthropic-turn-merge", Action::Merge, &[2, 3], &[2]),
                rw("tool-call-id", Action::Modify, &[4], &[3]),
            ],
        );
        let rows = align(5, &p);
        let kinds: Vec<RowKind> = rows.iter().map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            [
                RowKind::Same,
                RowKind::Inserted,
                RowKind::Dropped,
                RowKind::Merged,
                RowKind::Modified
            ]
        );
        assert_eq!(rows[2].stored, [1]);
        assert_eq!(rows[2].rewrites, [0]);
        assert_eq!(rows[3].stored, [2, 3]);
        assert_eq!(rows[4].rewrites, [3]);
        assert!(!rows[0].is_changed());
    }

    #[test]
    fn a_moved_result_shows_where_it_lands_and_where_it_came_from() {
        let p = projection(
            &[&[0], &[1], &[3], &[2]],
            vec![rw("tool-result-pairing", Action::Move, &[3], &[2])],
        );
        let rows = align(4, &p);
        let kinds: Vec<RowKind> = rows.iter().map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            [
                RowKind::Same,
                RowKind::Same,
                RowKind::Moved,
                RowKind::Same,
                RowKind::MovedFrom
            ]
        );
        assert_eq!(rows[4].stored, [3]);
        assert_eq!(rows[4].moved_to, Some(2));
    }

    #[test]
    fn trailing_drops_are_kept_in_order() {
        let p = projection(
            &[&[1]],
            vec![rw("a", Action::Drop, &[0], &[]), rw("b", Action::Drop, &[2], &[])],
        );
        let rows = align(3, &p);
        let stored: Vec<Vec<usize>> = rows.iter().map(|r| r.stored.clone()).collect();
        assert_eq!(stored, [vec![0], vec![1], vec![2]]);
        assert_eq!(rows[2].kind, RowKind::Dropped);
    }
}
