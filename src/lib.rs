//! replaylens: see what an agent actually replays to an LLM provider, and why.
//!
//! The library holds no terminal code. [`model`] is the lossless transcript model,
//! [`load`] reads the session formats users have, [`policy`] maps a target to policy flags,
//! [`hygiene`] is the rule pipeline, [`rule_set`] names the OpenClaw release it reproduces,
//! [`replay`] ties them together, [`wire`] builds the provider payload and [`lint`] checks
//! it, [`scan`] runs all of that over a fleet of sessions, [`alignment`] aligns stored and
//! replayed messages (rows by provenance, fields and lines within a row), [`export`] renders results, [`repair`] is the explicit on-disk session
//! repair, [`text`] makes untrusted text safe to show, and [`write`] is the one safe way
//! every output file is written.

pub mod alignment;
pub mod export;
pub mod hygiene;
pub mod lint;
pub mod load;
pub mod model;
pub mod openclaw;
pub mod policy;
pub mod reduce;
pub mod repair;
pub mod replay;
pub mod rule_set;
pub mod scan;
pub mod text;
pub mod wire;
pub mod write;
