//! Stored ↔ replay comparison for display: row alignment by provenance.

pub mod align;
pub mod json;

pub use align::{Indices, ReplaySide, Row, RowKind, align, align_sides};
