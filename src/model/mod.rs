//! The lossless transcript model.
//!
//! Everything is kept as the JSON that was stored; typed views ([`Message`], [`Block`],
//! [`Entry`]) read it without copying, so unknown fields, block types, roles and entry
//! types survive load → replay → export unchanged.

pub mod block;
mod branch_walk;
pub mod coverage;
pub mod diagnostic;
pub mod entry;
pub mod image;
pub mod json;
mod leaf_controls;
pub mod mapped;
pub mod message;
pub mod owned_transcript;
mod projected;
pub mod session;
pub mod time;
pub mod transcript;

pub use block::{Block, BlockKind, ToolCallSpelling};
pub use coverage::{Hidden, ModelSource};
pub use diagnostic::{Diagnostic, Location, Severity};
pub use entry::{Entry, EntryKind};
pub use image::ImageSummary;
pub use mapped::{Agent, Mapped, MappedMessage};
pub use message::{Message, Role, StopReason};
pub use projected::as_loaded;
pub use session::{BareMessage, DbWindow, Session, SessionFormat};
pub use transcript::{AppliedCompaction, ModelEvent, ModelRef, Origin, StoredMessage, Transcript};

/// Message indices a derived item came from (provenance: a replay message's stored sources,
/// a payload item's replay messages); one is kept inline, so most cost no allocation.
pub type Indices = smallvec::SmallVec<[usize; 1]>;
