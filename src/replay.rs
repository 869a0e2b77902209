//! One replay: a session, a target and options → policy, stored transcript and projection.

use crate::hygiene::{Context, Projection, ReplayOptions, project, project_owned};
use std::borrow::Cow;

use crate::model::{Message, ModelRef, Session, StoredMessage, Transcript};
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

/// The policy a replay uses: the effective target ([`effective_target`]) and, with a
/// configuration ([`ReplayOptions::config`]), what OpenClaw's model resolution takes from it:
/// a custom provider's `api` where the request names none (the configuration, not the
/// session's record, is what the runtime reads), the installation its plugin records and load
/// paths describe, and the configured model object the unowned fallback reads
/// ([`crate::policy::config::apply::resolve`]).
pub fn resolve_replay(requested: &Target, session_model: &ModelRef, options: &ReplayOptions) -> ResolvedPolicy {
    let target = effective_target(requested, session_model);
    let Some(config) = &options.config else {
        return match crate::policy::config::plugins::installation_without_config() {
            crate::policy::Installation::Unknown => resolve_for(&target, options.rule_set),
            known => crate::policy::resolve_with(&target, options.rule_set, &known),
        };
    };
    let mut target = target;
    if requested.api.as_deref().is_none_or(|a| a.trim().is_empty()) {
        let open = Target {
            api: None,
            ..target.clone()
        };
        let applied = crate::policy::config::apply(config, &open);
        if !applied.sources.is_empty() {
            target.api = applied.target.api;
        }
    }
    let installation = crate::policy::config::plugins::installation(config);
    crate::policy::config::apply::resolve(config, &target, options.rule_set, &installation)
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
    let resolved = resolve_replay(requested, &transcript.model, options);
    replayed(transcript, resolved, options.clone())
}

/// Run the rules over a stored transcript, keeping it beside the projection.
fn replayed(transcript: Transcript<'_>, resolved: ResolvedPolicy, options: ReplayOptions) -> Replay<'_> {
    let projection = project(&transcript.messages, &context(&resolved, &options, &transcript));
    Replay {
        transcript,
        resolved,
        options,
        projection,
    }
}

/// What the rules see of a replay besides its messages.
fn context<'a>(
    resolved: &'a ResolvedPolicy,
    options: &'a ReplayOptions,
    transcript: &'a Transcript<'_>,
) -> Context<'a> {
    Context {
        resolved,
        options,
        model_events: &transcript.model_events,
        thinking_level: transcript.thinking_level.as_deref(),
    }
}

/// A replay prepared to run once, holding as little as it can: the stored transcript owns
/// its messages and the session keeps no entries, so running it changes each message in
/// place and frees what the replay drops. For one-shot commands (`replay --format json`)
/// that write the stored side before the projection exists.
#[derive(Debug)]
pub struct PreparedReplay {
    /// The session, with its entries, bare messages and mapped messages released.
    pub session: Session,
    /// The stored transcript, owning its messages.
    pub transcript: Transcript<'static>,
    /// The target, family and policy.
    pub resolved: ResolvedPolicy,
    /// The options used.
    pub options: ReplayOptions,
}

impl PreparedReplay {
    /// Build the stored transcript of a session for a target and release the session's
    /// entries, so the transcript's messages are referenced from nowhere else.
    pub fn new(mut session: Session, requested: &Target, options: &ReplayOptions) -> Self {
        let options = options_for_session(&session, options);
        let transcript = session.transcript().into_owned();
        session.entries = Vec::new();
        session.bare_messages = Vec::new();
        session.mapped = None;
        let resolved = resolve_replay(requested, &transcript.model, &options);
        Self {
            session,
            transcript,
            resolved,
            options,
        }
    }

    /// Run the rules keeping the stored transcript beside the projection, for commands that
    /// show both sides (`export`, `lint`, `payload`): a message no rule changes is shared by
    /// both, and the session's entries are already gone.
    pub fn into_replay(self) -> (Session, Replay<'static>) {
        (self.session, replayed(self.transcript, self.resolved, self.options))
    }

    /// Run the rules consuming the stored messages, like [`PreparedReplay::run`], and keep
    /// beside the projection a stored transcript in which every message `read_back` accepts is
    /// left empty: the caller reads those again from where they were stored
    /// ([`crate::export::stored_file`]). A message no rule changes then exists once, in the
    /// projection, and one a rule changes does not keep its stored copy.
    pub fn into_replay_reading_back(
        self,
        read_back: impl Fn(&StoredMessage<'_>) -> bool,
    ) -> (Session, Replay<'static>) {
        let (messages, mut transcript) = self.transcript.into_parts();
        transcript.messages = messages
            .iter()
            .map(|m| StoredMessage {
                entry_id: m.entry_id.clone(),
                location: m.location,
                origin: m.origin,
                message: if read_back(m) {
                    Cow::Owned(Message::default())
                } else {
                    m.message.clone()
                },
            })
            .collect();
        let projection = project_owned(messages, &context(&self.resolved, &self.options, &transcript));
        let replay = Replay {
            transcript,
            resolved: self.resolved,
            options: self.options,
            projection,
        };
        (self.session, replay)
    }

    /// Run the rules, consuming the prepared replay and its stored messages.
    pub fn run(self) -> Projection<'static> {
        let (messages, transcript) = self.transcript.into_parts();
        project_owned(messages, &context(&self.resolved, &self.options, &transcript))
    }
}
