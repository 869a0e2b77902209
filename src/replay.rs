//! One replay: a session, a target and options → policy, stored transcript and projection.

use crate::hygiene::{Context, Projection, ReplayOptions, project};
use crate::model::{ModelRef, Session, Transcript};
use crate::policy::{ResolvedPolicy, Target, effective, resolve_for};

/// Everything one replay computed.
#[derive(Debug, Clone)]
pub struct Replay<'s> {
    /// The stored transcript the replay starts from.
    pub transcript: Transcript<'s>,
    /// The target (after filling missing parts from the session), family and policy.
    pub resolved: ResolvedPolicy,
    /// The options used.
    pub options: ReplayOptions,
    /// The projection and its rewrites.
    pub projection: Projection<'s>,
}

/// The target a replay uses: the parts of `requested` that are missing come from the session's
/// latest model, or from the requested provider's defaults when it is another known provider
/// ([`crate::policy::effective`], which also says where each part came from).
pub fn effective_target(requested: &Target, session_model: &ModelRef) -> Target {
    effective(requested, session_model).target
}

/// Replay a session for a target.
pub fn replay<'s>(session: &'s Session, requested: &Target, options: &ReplayOptions) -> Replay<'s> {
    let transcript = session.transcript();
    let options = options_for_session(session, options);
    replay_transcript(transcript, requested, &options)
}

/// `options` with the rule set of the OpenClaw release the session records, when
/// `rule_set_from_session` asks for it and a set covers that release.
pub fn options_for_session(session: &Session, options: &ReplayOptions) -> ReplayOptions {
    let mut options = options.clone();
    if options.rule_set_from_session
        && let Some(version) = &session.openclaw_version
        && let (Some(set), _) = crate::rule_set::RuleSet::for_recorded(version)
    {
        options.rule_set = set;
    }
    options
}

/// Replay an already built stored transcript for a target.
pub fn replay_transcript<'s>(transcript: Transcript<'s>, requested: &Target, options: &ReplayOptions) -> Replay<'s> {
    let resolved = resolve_for(&effective_target(requested, &transcript.model), options.rule_set);
    let ctx = Context {
        resolved: &resolved,
        options,
        model_events: &transcript.model_events,
        thinking_level: transcript.thinking_level.as_deref(),
    };
    let projection = project(&transcript.messages, &ctx);
    Replay {
        transcript,
        resolved,
        options: options.clone(),
        projection,
    }
}
