//! The OpenClaw layer: the neutral layer below hygiene, wire, lint and repair, holding the
//! ports of OpenClaw's own semantics that more than one of them relies on — JavaScript
//! behaviour ([`js`], [`js_map`]), image handling ([`image`]), the tool-result pairing planner
//! ([`pairing`]), synthetic results ([`synthetic`]), compaction checkpoints
//! ([`compaction_replay`]), the silent-reply token
//! ([`silent_token`]) and the shared text and turn predicates ([`assistant_text`]).
//!
//! It depends only on the model; nothing here knows about rules, rewrites or providers'
//! wire formats.

pub mod assistant_text;
pub mod claude_model;
pub mod compaction_replay;
pub mod image;
pub mod js;
pub mod js_map;
pub mod pairing;
pub mod result_ids;
pub mod silent_token;
pub mod synthetic;
pub mod work;
