//! Stored ↔ replay comparison for display: row alignment by provenance and word diffs.

pub mod align;
pub mod words;

pub use align::{ReplaySide, Row, RowKind, align, align_sides};
pub use words::{Segment, SegmentKind, word_diff};
