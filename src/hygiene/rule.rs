//! The rule interface: every rule carries its own documentation and reports its rewrites.

use serde::Serialize;

use super::rewrite::PendingRewrite;
use super::working::Working;
use crate::model::ModelEvent;
use crate::policy::ResolvedPolicy;
use crate::rule_set::RuleSet;

/// What a rule is, for `replaylens rules`, exports and the inspector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RuleInfo {
    /// Stable id (`replaylens rules` lists them); part of the public contract.
    pub id: &'static str,
    /// One line.
    pub summary: &'static str,
    /// Why the rule exists and exactly what it does, including the edge cases.
    pub explanation: &'static str,
    /// The provider families it applies to, in words.
    pub families: &'static str,
    /// Where a user can read about it: the section of OpenClaw's published
    /// `docs/reference/transcript-hygiene.md` and the OpenClaw function that implements it, as
    /// `transcript-hygiene.md › "Section" [› provider entry] · functionName`.
    pub reference: &'static str,
}

/// Options of one replay that do not come from the policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayOptions {
    /// `--tools`: the current tool names; tool calls naming others are dropped.
    pub allowed_tools: Option<Vec<String>>,
    /// `--thinking on|off`; `None` = from the session's thinking level.
    pub thinking: Option<bool>,
    /// `--image-max-px`: longest image side sent.
    pub image_max_px: u32,
    /// `--openclaw`: the OpenClaw release whose behaviour is reproduced.
    pub rule_set: &'static RuleSet,
    /// Whether the OpenClaw release the session records, when a rule set covers it, replaces
    /// `rule_set` (the command line sets this when `--openclaw` is not given).
    pub rule_set_from_session: bool,
    /// The user's OpenClaw configuration (`--config`, else where OpenClaw finds it): its custom
    /// providers, installed plugins and model objects decide the policy and the payload
    /// ([`crate::replay::resolve_replay`]).
    pub config: Option<std::sync::Arc<crate::policy::config::OpenClawConfig>>,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        Self {
            allowed_tools: None,
            thinking: None,
            image_max_px: 1200,
            rule_set: RuleSet::newest(),
            rule_set_from_session: false,
            config: None,
        }
    }
}

/// Everything a rule may read besides the working transcript.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// Target, family and policy flags.
    pub resolved: &'a ResolvedPolicy,
    /// Replay options.
    pub options: &'a ReplayOptions,
    /// Model selections recorded on the session's branch.
    pub model_events: &'a [ModelEvent],
    /// The session's thinking level, when recorded.
    pub thinking_level: Option<&'a str>,
}

impl Context<'_> {
    /// The target model API, or `""`.
    pub fn api(&self) -> &str {
        self.resolved.target.api.as_deref().unwrap_or("")
    }

    /// Whether the target is an OpenAI Responses-family API.
    pub fn is_openai_responses(&self) -> bool {
        matches!(
            self.api(),
            "openai-responses" | "openai-chatgpt-responses" | "azure-openai-responses"
        )
    }
}

/// One hygiene rule.
pub trait Rule: Send + Sync {
    /// The rule's documentation.
    fn info(&self) -> &'static RuleInfo;

    /// The name of this step: the rule id, or, for a step that shares its id with the rule it
    /// belongs to (an older release's placement, a second pass), `id/what-it-is`. Rule case
    /// files address steps by it.
    fn step(&self) -> &'static str {
        self.info().id
    }

    /// Whether the rule runs for this target (its policy gate).
    fn enabled(&self, ctx: &Context<'_>) -> bool;

    /// Whether this step only runs for an older rule set, at a place the rule no longer runs
    /// (the rule listing skips it, keeping the order in which rules first run today).
    fn older_releases_only(&self) -> bool {
        false
    }

    /// A cheap check, before a stream-stage step runs, of whether it can change this transcript
    /// at all; the history stage is kept apart only when some stream step can.
    fn may_change(&self, _ctx: &Context<'_>, _work: &Working<'_>) -> bool {
        true
    }

    /// Rewrite the working transcript in place, recording one rewrite per change.
    /// A rule that changes nothing must leave the messages (and their borrows) untouched.
    fn apply<'s>(&self, ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>);
}
