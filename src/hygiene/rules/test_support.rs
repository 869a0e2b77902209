//! Helpers for rule unit tests.

use crate::model::json::Value;

use crate::hygiene::{Context, PendingRewrite, ReplayOptions, Rule, Working};
use crate::model::{Message, ModelEvent};
use crate::policy::{ResolvedPolicy, Target, resolve};

/// A working transcript from a JSON array of messages.
pub fn msgs(v: Value) -> Working<'static> {
    let list = v
        .as_array()
        .expect("array")
        .iter()
        .map(|m| Message::from_value(m.clone()).expect("object"))
        .collect();
    Working::from_messages(list)
}

/// The resolved policy of a target.
pub fn resolved(provider: &str, api: &str, model: &str) -> ResolvedPolicy {
    resolve(&Target {
        provider: Some(provider.into()),
        api: Some(api.into()),
        model: Some(model.into()),
    })
}

/// Apply one rule with a default (anthropic) target; returns the messages and rewrites.
pub fn apply_rule(rule: &dyn Rule, work: Working<'static>) -> (Vec<Message>, Vec<PendingRewrite>) {
    apply_rule_for(
        rule,
        work,
        &resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6"),
        &ReplayOptions::default(),
    )
}

/// Apply one rule under a rule set, for the OpenAI chat target (no provider-specific gates).
pub fn apply_rule_in(
    rule: &dyn Rule,
    work: Working<'static>,
    set: &'static crate::rule_set::RuleSet,
) -> (Vec<Message>, Vec<PendingRewrite>) {
    let options = ReplayOptions {
        rule_set: set,
        ..ReplayOptions::default()
    };
    apply_rule_for(
        rule,
        work,
        &resolved("openai", "openai-completions", "gpt-4o"),
        &options,
    )
}

/// Apply several rules in order to one working transcript (state they share in [`Working`]
/// carries over), for the default Anthropic target.
pub fn apply_rules(rules: &[&dyn Rule], mut work: Working<'static>) -> (Vec<Message>, Vec<PendingRewrite>) {
    let resolved = resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    let options = ReplayOptions::default();
    let ctx = Context {
        resolved: &resolved,
        options: &options,
        model_events: &[],
        thinking_level: None,
    };
    let mut rewrites = Vec::new();
    for rule in rules {
        rule.apply(&ctx, &mut work, &mut rewrites);
    }
    (
        work.messages.into_iter().map(|m| m.message.into_owned()).collect(),
        rewrites,
    )
}

/// Apply one rule for a given policy and options.
pub fn apply_rule_for(
    rule: &dyn Rule,
    work: Working<'static>,
    resolved: &ResolvedPolicy,
    options: &ReplayOptions,
) -> (Vec<Message>, Vec<PendingRewrite>) {
    apply_rule_with_events(rule, work, resolved, options, &[])
}

/// Apply one rule for a given policy, options and recorded model events.
pub fn apply_rule_with_events(
    rule: &dyn Rule,
    mut work: Working<'static>,
    resolved: &ResolvedPolicy,
    options: &ReplayOptions,
    model_events: &[ModelEvent],
) -> (Vec<Message>, Vec<PendingRewrite>) {
    let ctx = Context {
        resolved,
        options,
        model_events,
        thinking_level: None,
    };
    let mut rewrites = Vec::new();
    rule.apply(&ctx, &mut work, &mut rewrites);
    (
        work.messages.into_iter().map(|m| m.message.into_owned()).collect(),
        rewrites,
    )
}

/// Whether a rule runs for a target under a rule set.
pub fn enabled_in(
    rule: &dyn Rule,
    (provider, api, model): (&str, &str, &str),
    set: &'static crate::rule_set::RuleSet,
) -> bool {
    let options = ReplayOptions {
        rule_set: set,
        ..ReplayOptions::default()
    };
    let r = resolved(provider, api, model);
    let ctx = Context {
        resolved: &r,
        options: &options,
        model_events: &[],
        thinking_level: None,
    };
    rule.enabled(&ctx)
}

/// Assert a rule's gate for `(provider, api, model, enabled)` targets, with default options.
pub fn assert_gate(rule: &dyn Rule, cases: &[(&str, &str, &str, bool)]) {
    for &(provider, api, model, on) in cases {
        assert_eq!(
            enabled_in(rule, (provider, api, model), crate::rule_set::RuleSet::newest()),
            on,
            "{provider} {api} {model}"
        );
    }
}
