//! Helpers the hygiene rules share and no other layer uses: inbound-metadata stripping,
//! signed-thinking and thinking-block handling, tool-call reading, the tool-call id allocator,
//! turn merging, usage snapshots and the OpenAI Responses ids and signatures that
//! `responses-reasoning` works with. Helpers other layers need live in [`crate::openclaw`].

pub mod inbound_metadata;
pub mod inbound_metadata_legacy;
pub mod metadata_strip;
pub mod responses_reasoning_ids;
pub mod responses_result_ids;
pub mod signed_thinking;
pub mod thinking_blocks;
pub mod tool_calls;
pub mod tool_id_allocator;
pub mod turn_merge;
pub mod usage_snapshot;
