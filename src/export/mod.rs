//! Machine- and human-readable renderings of a replay.

pub mod json;
