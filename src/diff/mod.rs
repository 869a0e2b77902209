//! Stored ↔ replay comparison for display: row alignment by provenance.

pub mod align;

pub use align::{ReplaySide, Row, RowKind, align, align_sides};
