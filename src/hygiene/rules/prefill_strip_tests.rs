//! Unit tests of `prefill-strip` (hygiene-b §2.16).

use crate::json;

use super::*;
use crate::hygiene::rules::helpers::turn_merge::testing::{all_borrowed, assert_json, borrowed, list};
use crate::hygiene::rules::test_support::{msgs, resolved};
use crate::hygiene::{Action, ReplayOptions};
use crate::policy::ResolvedPolicy;

fn ctx<'a>(r: &'a ResolvedPolicy, o: &'a ReplayOptions, level: Option<&'a str>) -> Context<'a> {
    Context {
        resolved: r,
        options: o,
        model_events: &[],
        thinking_level: level,
    }
}

fn on() -> ReplayOptions {
    ReplayOptions {
        thinking: Some(true),
        ..ReplayOptions::default()
    }
}

#[test]
fn thinking_comes_from_the_option_else_the_session_level() {
    let r = resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    let unset = ReplayOptions::default();
    let off = ReplayOptions {
        thinking: Some(false),
        ..ReplayOptions::default()
    };
    assert!(thinking_on(&ctx(&r, &on(), Some("off"))));
    assert!(!thinking_on(&ctx(&r, &off, Some("high"))));
    assert!(thinking_on(&ctx(&r, &unset, Some("high"))));
    assert!(thinking_on(&ctx(&r, &unset, Some("minimal"))));
    for level in ["off", "OFF", "none", " "] {
        assert!(!thinking_on(&ctx(&r, &unset, Some(level))), "{level}");
    }
    assert!(!thinking_on(&ctx(&r, &unset, None)));
}

#[test]
fn gate_is_anthropic_messages_or_openrouter_anthropic_with_thinking_on() {
    let opts = on();
    for (p, a, m, open) in [
        ("anthropic", "anthropic-messages", "claude-sonnet-4-6", true),
        ("cloudflare-ai-gateway", "anthropic-messages", "claude-sonnet-4-6", true),
        ("minimax", "anthropic-messages", "MiniMax-M2.7", true),
        ("openrouter", "openai-completions", "anthropic/claude-sonnet-4-6", true),
        ("openrouter", "", "openrouter/anthropic/claude-opus-4-6", true),
        ("openrouter", "openai-responses", "anthropic/claude-sonnet-4-6", false),
        ("openrouter", "openai-completions", "google/gemini-2.5-pro", false),
        (
            "amazon-bedrock",
            "bedrock-converse-stream",
            "us.anthropic.claude-opus-4-6-v1",
            false,
        ),
        ("google", "google-generative-ai", "gemini-2.5-pro", false),
    ] {
        let r = resolved(p, a, m);
        assert_eq!(PrefillStrip.enabled(&ctx(&r, &opts, None)), open, "{p} {a} {m}");
    }
    let r = resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    assert!(!PrefillStrip.enabled(&ctx(&r, &ReplayOptions::default(), None)));
    assert!(!PrefillStrip.enabled(&ctx(&r, &ReplayOptions::default(), Some("off"))));
    assert!(PrefillStrip.enabled(&ctx(&r, &ReplayOptions::default(), Some("medium"))));
}

#[test]
fn pops_every_trailing_assistant_without_tool_use() {
    let r = resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    let opts = on();
    let mut work = msgs(json!([
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [{"type": "text", "text": "draft"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Sure, here"}]}
    ]));
    let mut rw = Vec::new();
    PrefillStrip.apply(&ctx(&r, &opts, None), &mut work, &mut rw);
    let out: Vec<_> = work.messages.iter().map(|m| m.message.clone().into_owned()).collect();
    assert_json(&out, json!([{"role": "user", "content": "q"}]));
    let summary: Vec<_> = rw
        .iter()
        .map(|r| (r.rule, r.action, r.stored.clone(), r.result.clone()))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("prefill-strip", Action::Drop, vec![1], vec![]),
            ("prefill-strip", Action::Drop, vec![2], vec![]),
        ]
    );
    assert_eq!(
        rw[0].detail,
        "removed trailing assistant prefill: Anthropic extended thinking requires the conversation to end with a user turn"
    );
}

#[test]
fn openrouter_detail_names_reasoning() {
    let r = resolved("openrouter", "openai-completions", "anthropic/claude-sonnet-4-6");
    let opts = on();
    let mut work = msgs(json!([{"role": "user", "content": "q"}, {"role": "assistant", "content": "pre"}]));
    let mut rw = Vec::new();
    PrefillStrip.apply(&ctx(&r, &opts, None), &mut work, &mut rw);
    assert_eq!(work.len(), 1);
    assert_eq!(
        rw[0].detail,
        "removed trailing assistant prefill: reasoning is on and OpenRouter Anthropic requires the conversation to end with a user turn"
    );
}

#[test]
fn stops_at_tool_use_or_a_non_assistant_turn() {
    let r = resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    let opts = on();
    let cases = [
        json!([{"role": "user", "content": "q"},
               {"role": "assistant", "content": [{"type": "toolCall", "id": "c", "name": "read", "arguments": {}}]}]),
        json!([{"role": "user", "content": "q"},
               {"role": "assistant", "content": [{"type": "tool_use", "id": "c", "name": "read", "input": {}}]}]),
        json!([{"role": "user", "content": "q"},
               {"role": "assistant", "content": [], "tool_calls": [{"id": "c"}]}]),
        json!([{"role": "assistant", "content": "a"}, {"role": "toolResult", "toolCallId": "c", "content": []}]),
        json!([{"role": "assistant", "content": "a"}, {"role": "user", "content": "q"}]),
    ];
    for case in cases {
        let stored = list(case.clone());
        let mut work = borrowed(&stored);
        let mut rw = Vec::new();
        PrefillStrip.apply(&ctx(&r, &opts, None), &mut work, &mut rw);
        assert!(rw.is_empty(), "{case}");
        assert!(all_borrowed(&work));
    }
}

#[test]
fn an_empty_tool_calls_array_is_not_tool_use_and_an_all_assistant_history_empties() {
    let r = resolved("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    let opts = on();
    let mut work = msgs(json!([
        {"role": "assistant", "content": "hello"},
        {"role": "assistant", "content": [], "tool_calls": []}
    ]));
    let mut rw = Vec::new();
    PrefillStrip.apply(&ctx(&r, &opts, None), &mut work, &mut rw);
    assert!(work.is_empty());
    assert_eq!(
        rw.iter().map(|r| r.stored.clone()).collect::<Vec<_>>(),
        vec![vec![0], vec![1]]
    );
}
