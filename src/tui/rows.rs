//! Row alignment: stored messages on the left, replay messages on the right, paired by
//! provenance (the replay message's `source`). Terminal-free.

use std::collections::HashSet;

use replaylens::hygiene::{Action, Rewrite};

use super::inspection::Inspection;

/// What happened to the messages of one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    /// The gutter marker: readable without colour.
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

/// One aligned row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Stored indices shown on the left (several for a merge).
    pub stored: Vec<usize>,
    /// Replay index shown on the right (`None` for a dropped row or a moved-from marker).
    pub replay: Option<usize>,
    /// What happened.
    pub kind: RowKind,
    /// Indices into the rewrite list of the rewrites touching this row.
    pub rewrites: Vec<usize>,
    /// For a moved-from marker: the replay index where the message landed.
    pub moved_to: Option<usize>,
}

impl Row {
    /// Whether any rewrite or structural change touches the row.
    pub fn is_rewritten(&self) -> bool {
        self.kind != RowKind::Same || !self.rewrites.is_empty()
    }
}

/// Align the stored transcript with the projection.
pub fn align(insp: &Inspection) -> Vec<Row> {
    let n = insp.stored_len();
    let moved: HashSet<usize> = insp
        .rewrites
        .iter()
        .filter(|r| r.action == Action::Move)
        .flat_map(|r| r.stored.iter().copied())
        .collect();
    let mut landing: Vec<Option<usize>> = vec![None; n];
    for (j, p) in insp.replay.iter().enumerate() {
        for &s in &p.source {
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
                None => row(vec![k], None, RowKind::Dropped),
                Some(j) => Row {
                    moved_to: Some(j),
                    ..row(vec![k], None, RowKind::MovedFrom)
                },
            });
        }
    };
    for (j, p) in insp.replay.iter().enumerate() {
        let mut source: Vec<usize> = p.source.iter().copied().filter(|&s| s < n).collect();
        source.sort_unstable();
        source.dedup();
        let is_moved = source.iter().any(|s| moved.contains(s));
        let kind = if source.is_empty() {
            RowKind::Inserted
        } else if is_moved {
            RowKind::Moved
        } else if source.len() > 1 {
            RowKind::Merged
        } else if p.changed.is_some() {
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
    attach_rewrites(&mut rows, &insp.rewrites, insp.replay.len(), n);
    rows
}

fn row(stored: Vec<usize>, replay: Option<usize>, kind: RowKind) -> Row {
    Row {
        stored,
        replay,
        kind,
        rewrites: Vec::new(),
        moved_to: None,
    }
}

/// Give every row the rewrites that touch it: by replay index, or by stored index for rows
/// that have no replay side (drops, moved-from markers).
fn attach_rewrites(rows: &mut [Row], rewrites: &[Rewrite], replay_len: usize, stored_len: usize) {
    let mut by_replay: Vec<Vec<usize>> = vec![Vec::new(); replay_len];
    let mut by_stored: Vec<Vec<usize>> = vec![Vec::new(); stored_len];
    for (i, r) in rewrites.iter().enumerate() {
        for &j in &r.replay {
            if j < replay_len {
                by_replay[j].push(i);
            }
        }
        if r.replay.is_empty() || r.action == Action::Move {
            for &s in &r.stored {
                if s < stored_len {
                    by_stored[s].push(i);
                }
            }
        }
    }
    for row in rows.iter_mut() {
        let mut ids: Vec<usize> = match row.replay {
            Some(j) => by_replay[j].clone(),
            None => row.stored.iter().flat_map(|&s| by_stored[s].iter().copied()).collect(),
        };
        if row.replay.is_some() {
            ids.extend(
                row.stored
                    .iter()
                    .flat_map(|&s| by_stored[s].iter().copied())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixtures;

    fn kinds(rows: &[Row]) -> Vec<(Vec<usize>, Option<usize>, RowKind)> {
        rows.iter().map(|r| (r.stored.clone(), r.replay, r.kind)).collect()
    }

    #[test]
    fn aligns_drop_insert_merge_and_move() {
        let insp = fixtures::every_kind();
        let rows = align(&insp);
        use RowKind::*;
        assert_eq!(
            kinds(&rows),
            vec![
                (vec![0], Some(0), Same),
                (vec![1], Some(1), Modified),
                (vec![3], Some(2), Moved),
                (vec![2], Some(3), Same),
                (vec![3], None, MovedFrom),
                (vec![4], None, Dropped),
                (vec![5], Some(4), Same),
                (vec![], Some(5), Inserted),
                (vec![6, 7], Some(6), Merged),
                (vec![8], Some(7), Modified),
            ]
        );
        assert_eq!(rows[4].moved_to, Some(2));
        let touched: Vec<bool> = rows.iter().map(|r| !r.rewrites.is_empty()).collect();
        assert_eq!(touched, [false, true, true, false, true, true, false, true, true, true]);
    }

    #[test]
    fn unchanged_projection_is_all_same_rows() {
        let insp = fixtures::plain(5);
        let rows = align(&insp);
        assert_eq!(rows.len(), 5);
        assert!(rows.iter().all(|r| r.kind == RowKind::Same && r.rewrites.is_empty()));
    }
}
