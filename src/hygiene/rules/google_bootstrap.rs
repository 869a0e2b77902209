//! `google-bootstrap`: prepend the `(session bootstrap)` user turn when history starts with the
//! assistant.

use crate::model::json::{Map, Value};

use crate::hygiene::{Action, Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;
use crate::policy::Family;

/// The text of the synthesized bootstrap user turn (hygiene-b constants).
pub const BOOTSTRAP_TEXT: &str = "(session bootstrap)";

static INFO: RuleInfo = RuleInfo {
    id: "google-bootstrap",
    summary: "prepend the `(session bootstrap)` user turn when history starts with the assistant",
    explanation: "Google chat APIs (and strict OpenAI-compatible servers) reject a conversation whose first turn \
        is the model's. OpenClaw's sanitizeGoogleAssistantFirstOrdering therefore prepends a user turn \
        `{role: \"user\", content: \"(session bootstrap)\", timestamp}` when the first message has role \
        `assistant`; any other first message (a user turn, including an existing bootstrap turn, a toolResult, \
        a compaction summary or a custom role) leaves the history unchanged, so the fix is idempotent. The \
        Google plugin applies it in its replay-history hook (which also records a \
        `google-turn-ordering-bootstrap` custom entry in the session; replaylens never writes the session, so \
        that marker is not reproduced) and the generic pass applies it whenever the policy sets \
        applyGoogleTurnOrdering; the two are the same function and the Google family always sets the flag, so \
        this rule runs once for either. Upstream stamps the bootstrap with the current time; for deterministic \
        output the timestamp is copied from the first message that has one (the assistant turn it precedes, \
        normally), and omitted when no message has a timestamp. The inserted turn has no stored source.",
    families: "Google / Gemini / Antigravity, unowned Google APIs, OpenAI-compatible chat completions (generic helper and unowned `openai-completions`)",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Google · sanitizeGoogleAssistantFirstOrdering",
};

/// The `google-bootstrap` rule.
pub struct GoogleBootstrap;

impl Rule for GoogleBootstrap {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.resolved.policy.apply_google_turn_ordering || ctx.resolved.family == Family::Google
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let Some(first) = work.messages.first() else { return };
        if !first.message.is_assistant() {
            return;
        }
        let timestamp = work
            .iter_messages()
            .find_map(|m| m.get("timestamp").filter(|t| !t.is_null()))
            .cloned();
        let mut obj = Map::new();
        obj.insert("role".into(), Value::from("user"));
        obj.insert("content".into(), Value::from(BOOTSTRAP_TEXT));
        if let Some(ts) = timestamp {
            obj.insert("timestamp".into(), ts);
        }
        let wm = work.synthesized(Message::from_map(obj));
        rewrites.push(PendingRewrite::on(
            INFO.id,
            Action::Insert,
            &wm,
            "prepended a `(session bootstrap)` user turn: the history starts with an assistant turn",
        ));
        work.messages.insert(0, wm);
    }
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;
    use crate::hygiene::ReplayOptions;
    use crate::hygiene::rules::helpers::turn_merge::testing::{all_borrowed, assert_json, borrowed, list};
    use crate::hygiene::rules::test_support::{apply_rule_for, assert_gate, msgs, resolved};

    fn google() -> crate::policy::ResolvedPolicy {
        resolved("google", "google-generative-ai", "gemini-2.5-pro")
    }

    #[test]
    fn gate_is_apply_google_turn_ordering_or_the_google_plugin() {
        assert_gate(
            &GoogleBootstrap,
            &[
                ("google", "google-generative-ai", "gemini-2.5-pro", true),
                ("google-gemini-cli", "google-gemini-cli", "gemini-2.5-pro", true),
                ("custom-gemini", "google-generative-ai", "gemini-2.5-flash", true),
                ("local-llm", "openai-completions", "qwen3-coder-30b", true),
                ("openrouter", "openai-completions", "google/gemini-2.5-pro", false),
                ("anthropic", "anthropic-messages", "claude-sonnet-4-6", false),
                ("openai", "openai-completions", "gpt-4.1", false),
            ],
        );
    }

    #[test]
    fn prepends_the_bootstrap_with_the_first_message_timestamp() {
        let work = msgs(json!([
            {"role": "assistant", "content": [{"type": "text", "text": "Hi, I'm ready."}], "timestamp": 1_700_000_000_000_i64},
            {"role": "user", "content": "thanks", "timestamp": 1_700_000_005_000_i64}
        ]));
        let (out, rw) = apply_rule_for(&GoogleBootstrap, work, &google(), &ReplayOptions::default());
        assert_json(
            &out,
            json!([
                {"role": "user", "content": "(session bootstrap)", "timestamp": 1_700_000_000_000_i64},
                {"role": "assistant", "content": [{"type": "text", "text": "Hi, I'm ready."}], "timestamp": 1_700_000_000_000_i64},
                {"role": "user", "content": "thanks", "timestamp": 1_700_000_005_000_i64}
            ]),
        );
        assert_eq!(rw.len(), 1);
        assert_eq!((rw[0].rule, rw[0].action), ("google-bootstrap", Action::Insert));
        assert!(rw[0].stored.is_empty());
        assert_eq!(rw[0].result, vec![2], "a fresh uid");
        assert_eq!(
            rw[0].detail,
            "prepended a `(session bootstrap)` user turn: the history starts with an assistant turn"
        );
    }

    #[test]
    fn timestamp_comes_from_the_first_message_that_has_one_or_is_omitted() {
        let work = msgs(json!([
            {"role": "assistant", "content": []},
            {"role": "user", "content": "x", "timestamp": "2026-01-02T03:04:05.000Z"}
        ]));
        let (out, _) = apply_rule_for(&GoogleBootstrap, work, &google(), &ReplayOptions::default());
        assert_json(
            &out[..1],
            json!([{"role": "user", "content": "(session bootstrap)", "timestamp": "2026-01-02T03:04:05.000Z"}]),
        );
        let (out, _) = apply_rule_for(
            &GoogleBootstrap,
            msgs(json!([{"role": "assistant", "content": []}])),
            &google(),
            &ReplayOptions::default(),
        );
        assert_json(&out[..1], json!([{"role": "user", "content": "(session bootstrap)"}]));
    }

    #[test]
    fn other_first_messages_and_existing_bootstrap_are_untouched() {
        for first in [
            json!({"role": "user", "content": " (session bootstrap) "}),
            json!({"role": "user", "content": "hello"}),
            json!({"role": "toolResult", "toolCallId": "c", "content": []}),
            json!({"role": "compactionSummary", "summary": "s"}),
        ] {
            let stored = list(json!([first, {"role": "assistant", "content": []}]));
            let mut work = borrowed(&stored);
            let r = google();
            let opts = ReplayOptions::default();
            let ctx = Context {
                resolved: &r,
                options: &opts,
                model_events: &[],
                thinking_level: None,
            };
            let mut rw = Vec::new();
            GoogleBootstrap.apply(&ctx, &mut work, &mut rw);
            assert!(rw.is_empty());
            assert_eq!(work.len(), 2);
            assert!(all_borrowed(&work));
        }
        let mut empty = Working::default();
        let mut rw = Vec::new();
        let r = google();
        let opts = ReplayOptions::default();
        let ctx = Context {
            resolved: &r,
            options: &opts,
            model_events: &[],
            thinking_level: None,
        };
        GoogleBootstrap.apply(&ctx, &mut empty, &mut rw);
        assert!(empty.is_empty() && rw.is_empty());
    }
}
