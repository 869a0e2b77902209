//! The replay pipeline: the ordered hygiene rules OpenClaw applies before a model call
//! (OpenClaw's `sanitizeSessionHistory` and `validateReplayTurns`, newest revision). One file per rule under [`rules`];
//! every rule records its own rewrites with provenance.

/// What several rules share and no other layer uses (OpenClaw semantics other layers need live
/// in `crate::openclaw`). Kept out of `rules/`, which holds one file per rule and nothing else.
pub mod helpers;
pub mod pipeline;
/// The rules by id and in pipeline order: what the views and the command line look rules up
/// in (nothing outside `hygiene` reaches into `rules` itself).
pub mod registry {
    pub use super::rules::{by_id, by_step, pipeline};
}
pub mod rewrite;
pub mod rule;
pub mod rules;
pub mod working;

pub use pipeline::{Projection, ReplayMessage, project, project_owned, run};
pub use rewrite::{Action, PendingRewrite, Rewrite, Stage};
pub use rule::{Context, ReplayOptions, Rule, RuleInfo};
pub use working::{Change, Uid, Working, WorkingMessage};
