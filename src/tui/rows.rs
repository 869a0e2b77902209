//! Row alignment for the inspector: the library's provenance alignment
//! ([`replaylens::alignment::align_sides`]) applied to an owned [`Inspection`].

use replaylens::alignment::{ReplaySide, align_sides};
pub use replaylens::alignment::{Row, RowKind};

use super::inspection::Inspection;

/// Align the stored transcript with the projection.
pub fn align(insp: &Inspection) -> Vec<Row> {
    if insp.pending {
        // The stored side alone, one row per message, until the projection arrives.
        return (0..insp.stored_len())
            .map(|s| Row {
                stored: smallvec::smallvec![s],
                replay: None,
                kind: RowKind::Same,
                rewrites: Default::default(),
                moved_to: None,
            })
            .collect();
    }
    let sides: Vec<ReplaySide<'_>> = insp
        .replay
        .iter()
        .map(|p| ReplaySide {
            source: &p.source,
            changed: p.changed.is_some(),
        })
        .collect();
    align_sides(insp.stored_len(), &sides, &insp.rewrites)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixtures;

    fn kinds(rows: &[Row]) -> Vec<(Vec<usize>, Option<usize>, RowKind)> {
        rows.iter().map(|r| (r.stored.to_vec(), r.replay, r.kind)).collect()
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
