//! Test helpers shared by the replay-normalization rules.

use std::borrow::Cow;

use crate::model::json::Value;

use crate::hygiene::rules::test_support::resolved;
use crate::hygiene::{Context, ReplayOptions, Rule, Working, WorkingMessage};
use crate::model::Message;

/// Messages from a JSON array.
pub fn messages(v: Value) -> Vec<Message> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|m| Message::from_value(m.clone()).expect("object"))
        .collect()
}

/// Apply `rule` to borrowed messages (anthropic target) and assert that it recorded nothing
/// and left every message borrowed (no clone of the transcript).
pub fn assert_untouched(rule: &dyn Rule, v: Value) {
    let stored = messages(v);
    let mut work = Working::default();
    work.messages = stored
        .iter()
        .enumerate()
        .map(|(i, m)| WorkingMessage {
            uid: i as u32,
            message: Cow::Borrowed(m),
            source: vec![i],
        })
        .collect();
    let policy = resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    let options = ReplayOptions::default();
    let ctx = Context {
        resolved: &policy,
        options: &options,
        model_events: &[],
        thinking_level: None,
    };
    let mut rewrites = Vec::new();
    rule.apply(&ctx, &mut work, &mut rewrites);
    assert!(rewrites.is_empty(), "unexpected rewrites: {rewrites:?}");
    assert_eq!(work.messages.len(), stored.len());
    for wm in &work.messages {
        assert!(
            matches!(wm.message, Cow::Borrowed(_)),
            "message {:?} was cloned",
            wm.source
        );
    }
}
