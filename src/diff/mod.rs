//! Stored ↔ replay comparison for display: row alignment by provenance and word diffs.

pub mod align;
pub mod words;

pub use align::{Row, RowKind, align};
pub use words::{Segment, SegmentKind, word_diff};
