//! Stored ↔ replay comparison for display, shared by the inspector and every export: row
//! alignment by provenance ([`align`]), the structural JSON diff ([`json`]) and line and word
//! marks over rendered text ([`lines`]).

pub mod align;
pub mod json;
pub mod lines;

pub use align::{ReplaySide, Row, RowKind, align, align_sides};
