//! Aligning the stored transcript with the replay projection by provenance, for the
//! side-by-side views (inspector, exports). Built from the provenance and the rewrites the
//! rules recorded, never by diffing the two sides.

use std::collections::HashSet;

use serde::Serialize;

use crate::hygiene::{Action, Projection, Rewrite};
use crate::model::StoredMessage;

/// What happened to the message(s) of one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RowKind {
    /// The replay message is its stored message, unchanged.
    Same,
    /// The replay message differs from its stored message.
    Modified,
    /// A stored message that the replay does not send.
    Dropped,
    /// A synthesized replay message with no stored source.
    Inserted,
    /// Several stored messages merged into one replay message.
    Merged,
    /// A replay message that was moved; shown where it lands.
    Moved,
    /// The old stored position of a moved message.
    MovedFrom,
}

impl RowKind {
    /// A one-character marker, readable without colour.
    pub fn marker(self) -> &'static str {
        match self {
            Self::Same => " ",
            Self::Modified => "~",
            Self::Dropped => "-",
            Self::Inserted => "+",
            Self::Merged => "=",
            Self::Moved => ">",
            Self::MovedFrom => "<",
        }
    }
}

/// A row's stored or rewrite indices (the model's provenance type).
use crate::model::Indices;

/// One aligned row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    /// Stored indices shown on the left (several for a merge).
    pub stored: Indices,
    /// Replay index shown on the right (`None` for a dropped row or a moved-from marker).
    pub replay: Option<usize>,
    /// What happened.
    pub kind: RowKind,
    /// Indices into the rewrite list of the rewrites touching this row.
    pub rewrites: Indices,
    /// For a moved-from marker: the replay index where the message landed.
    pub moved_to: Option<usize>,
}

impl Row {
    /// Whether any rewrite or structural change touches the row.
    pub fn is_rewritten(&self) -> bool {
        self.kind != RowKind::Same || !self.rewrites.is_empty()
    }
}

/// One replay message as the alignment needs it.
#[derive(Debug, Clone, Copy)]
pub struct ReplaySide<'a> {
    /// Stored indices it came from.
    pub source: &'a [usize],
    /// Whether it differs from its single stored source.
    pub changed: bool,
}

/// Align a stored transcript with its projection.
pub fn align(stored: &[StoredMessage<'_>], projection: &Projection<'_>) -> Vec<Row> {
    let sides: Vec<ReplaySide<'_>> = projection
        .messages
        .iter()
        .map(|m| ReplaySide {
            source: &m.source,
            changed: match m.source.as_slice() {
                [s] => stored
                    .get(*s)
                    .is_none_or(|st| st.message.as_ref() != m.message.as_ref()),
                _ => true,
            },
        })
        .collect();
    align_sides(stored.len(), &sides, &projection.rewrites)
}

/// Align `stored_len` stored messages with replay messages described by their provenance.
pub fn align_sides(stored_len: usize, replay: &[ReplaySide<'_>], rewrites: &[Rewrite]) -> Vec<Row> {
    let n = stored_len;
    let moved: HashSet<usize> = rewrites
        .iter()
        .filter(|r| r.action == Action::Move)
        .flat_map(|r| r.stored.iter().copied())
        .collect();
    let mut landing: Vec<Option<usize>> = vec![None; n];
    for (j, p) in replay.iter().enumerate() {
        for &s in p.source {
            if s < n && landing[s].is_none() {
                landing[s] = Some(j);
            }
        }
    }
    let mut emitted = vec![false; n];
    let mut rows = Vec::with_capacity(n + 8);
    let mut cursor = 0usize;
    let flush_until = |limit: usize, cursor: &mut usize, emitted: &mut [bool], rows: &mut Vec<Row>| {
        while *cursor < limit {
            let k = *cursor;
            *cursor += 1;
            if emitted[k] {
                continue;
            }
            emitted[k] = true;
            rows.push(match landing[k] {
                None => row(smallvec::smallvec![k], None, RowKind::Dropped),
                Some(j) => Row {
                    moved_to: Some(j),
                    ..row(smallvec::smallvec![k], None, RowKind::MovedFrom)
                },
            });
        }
    };
    for (j, p) in replay.iter().enumerate() {
        let mut source: Indices = p.source.iter().copied().filter(|&s| s < n).collect();
        source.sort_unstable();
        source.dedup();
        let is_moved = source.iter().any(|s| moved.contains(s));
        let kind = if source.is_empty() {
            RowKind::Inserted
        } else if is_moved {
            RowKind::Moved
        } else if source.len() > 1 {
            RowKind::Merged
        } else if p.changed {
            RowKind::Modified
        } else {
            RowKind::Same
        };
        if !is_moved && let Some(&first) = source.first() {
            flush_until(first, &mut cursor, &mut emitted, &mut rows);
        }
        if !is_moved {
            for &s in &source {
                emitted[s] = true;
            }
        }
        rows.push(row(source, Some(j), kind));
    }
    flush_until(n, &mut cursor, &mut emitted, &mut rows);
    attach_rewrites(&mut rows, rewrites, replay.len(), n);
    rows
}

fn row(stored: Indices, replay: Option<usize>, kind: RowKind) -> Row {
    Row {
        stored,
        replay,
        kind,
        rewrites: Indices::new(),
        moved_to: None,
    }
}

/// Give every row the rewrites that touch it: by replay index, or by stored index for rows
/// that have no replay side (drops, moved-from markers).
fn attach_rewrites(rows: &mut [Row], rewrites: &[Rewrite], replay_len: usize, stored_len: usize) {
    let mut by_replay = Postings::default();
    let mut by_stored = Postings::default();
    for (i, r) in rewrites.iter().enumerate() {
        by_replay.extend(r.replay.iter().filter(|&&j| j < replay_len).map(|&j| (j, i)));
        if r.replay.is_empty() || r.action == Action::Move {
            by_stored.extend(r.stored.iter().filter(|&&s| s < stored_len).map(|&s| (s, i)));
        }
    }
    let (by_replay, by_stored) = (by_replay.sorted(), by_stored.sorted());
    for row in rows.iter_mut() {
        let mut ids: Indices = match row.replay {
            Some(j) => by_replay.of(j).collect(),
            None => row.stored.iter().flat_map(|&s| by_stored.of(s)).collect(),
        };
        if row.replay.is_some() {
            ids.extend(
                row.stored
                    .iter()
                    .flat_map(|&s| by_stored.of(s))
                    .filter(|&i| rewrites[i].action != Action::Move && rewrites[i].replay.is_empty()),
            );
        }
        ids.sort_unstable();
        ids.dedup();
        if row.kind == RowKind::Same && !ids.is_empty() {
            row.kind = RowKind::Modified;
        }
        row.rewrites = ids;
    }
}

/// `(message, rewrite)` pairs sorted by message, so the rewrites of one message are found by
/// binary search: one list for the whole session instead of one per message.
#[derive(Default)]
struct Postings(Vec<(usize, usize)>);

impl Postings {
    fn extend(&mut self, pairs: impl Iterator<Item = (usize, usize)>) {
        self.0.extend(pairs);
    }

    fn sorted(mut self) -> Self {
        self.0.sort_unstable();
        self
    }

    /// The rewrites of message `m`, in rewrite order.
    fn of(&self, m: usize) -> impl Iterator<Item = usize> + '_ {
        let start = self.0.partition_point(|&(k, _)| k < m);
        self.0[start..]
            .iter()
            .take_while(move |&&(k, _)| k == m)
            .map(|&(_, i)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hygiene::Stage;

    fn rw(rule: &'static str, action: Action, stored: &[usize], replay: &[usize]) -> Rewrite {
        Rewrite {
            rule,
            action,
            stage: Stage::History,
            stored: stored.to_vec(),
            replay: replay.to_vec(),
            detail: Default::default(),
        }
    }

    fn sides<'a>(sources: &'a [&'a [usize]], changed: &[bool]) -> Vec<ReplaySide<'a>> {
        sources
            .iter()
            .zip(changed)
            .map(|(s, c)| ReplaySide { source: s, changed: *c })
            .collect()
    }

    #[test]
    fn drops_inserts_merges_and_modifications() {
        let sources: [&[usize]; 4] = [&[0], &[], &[2, 3], &[4]];
        let rewrites = vec![
            rw("stream-error-turn", Action::Drop, &[1], &[]),
            rw("tool-result-pairing", Action::Insert, &[], &[1]),
            rw("anthropic-turn-merge", Action::Merge, &[2, 3], &[2]),
            rw("tool-call-id", Action::Modify, &[4], &[3]),
        ];
        let rows = align_sides(5, &sides(&sources, &[false, true, true, true]), &rewrites);
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
        assert_eq!(rows[2].stored[..], [1]);
        assert_eq!(rows[2].rewrites[..], [0]);
        assert_eq!(rows[3].stored[..], [2, 3]);
        assert_eq!(rows[4].rewrites[..], [3]);
        assert!(!rows[0].is_rewritten());
    }

    #[test]
    fn a_moved_result_shows_where_it_lands_and_where_it_came_from() {
        let sources: [&[usize]; 4] = [&[0], &[1], &[3], &[2]];
        let rewrites = vec![rw("tool-result-pairing", Action::Move, &[3], &[2])];
        let rows = align_sides(4, &sides(&sources, &[false; 4]), &rewrites);
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
        assert_eq!(rows[4].stored[..], [3]);
        assert_eq!(rows[4].moved_to, Some(2));
    }

    #[test]
    fn a_modification_of_a_message_dropped_later_stays_on_its_row() {
        let sources: [&[usize]; 1] = [&[1]];
        let rewrites = vec![
            rw("internal-metadata", Action::Modify, &[0], &[]),
            rw("duplicate-mirror", Action::Drop, &[0], &[]),
        ];
        let rows = align_sides(3, &sides(&sources, &[false]), &rewrites);
        let stored: Vec<Vec<usize>> = rows.iter().map(|r| r.stored.to_vec()).collect();
        assert_eq!(stored, [vec![0], vec![1], vec![2]]);
        assert_eq!(rows[0].rewrites[..], [0, 1]);
        assert_eq!(rows[2].kind, RowKind::Dropped);
    }
}
