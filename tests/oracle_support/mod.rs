//! Support code of the OpenClaw differential test (`tests/oracle_differential.rs`).

pub mod blocks;
pub mod cases;
pub mod check;
pub mod compare;
pub mod failures;
pub mod generate;
pub mod image_bytes;
pub mod images;
pub mod lens;
pub mod oracle;
pub mod payload;
pub mod plan;
pub mod report;
pub mod rng;
pub mod run;
pub mod samples;
mod self_tests;
pub mod shrink;
pub mod targets;
pub mod tool_turns;
pub mod wide;
