//! replaylens: see what an agent actually replays to an LLM provider, and why.
//!
//! The library holds no terminal code. [`model`] is the lossless transcript model,
//! [`load`] reads the session formats users have, [`policy`] resolves the transcript policy for a
//! replay target, [`text`] makes untrusted text safe to show.

pub mod load;
pub mod model;
pub mod policy;
pub mod text;
