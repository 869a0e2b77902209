//! `gemini-turn-merge`: merge consecutive assistant turns (Gemini alternation).

use crate::hygiene::{Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Role;

use super::helpers::turn_merge::{MergeSpec, merge_assistants, merge_consecutive};

static INFO: RuleInfo = RuleInfo {
    id: "gemini-turn-merge",
    summary: "merge consecutive assistant turns (Gemini alternation)",
    explanation: "Gemini requires strictly alternating turns and rejects two model turns in a row. OpenClaw's \
        validateGeminiTurns merges every run of adjacent assistant messages into one: the merged turn keeps \
        every field of the earlier turn (in its key order) with the content of both concatenated, except that \
        `usage`, `stopReason` and `errorMessage` are taken from the later turn when they are truthy there \
        (a JavaScript spread; a falsy value such as an empty errorMessage is ignored, and a field the earlier \
        turn lacks is appended at the end). A run of three or more merges left to right and is recorded as \
        one merge whose replay message lists the stored indices of every member. Only neighbours merge: a \
        toolResult, user, custom-role message, or a message without a role between two assistant turns \
        breaks the run (OpenClaw's code would fold an assistant into a message without a role right before \
        it; here only adjacent assistants merge). OpenClaw concatenates array content only; here assistant \
        content stored as a plain string (normally converted to a text block \
        by the earlier legacy-content normalization) contributes one text block instead of being lost, and \
        any other non-array content contributes nothing. The merged message keeps the first turn's place.",
    families: "Google / Gemini / Antigravity, unowned Google APIs, OpenAI-compatible chat completions (generic helper and unowned `openai-completions`)",
    reference: "transcript-hygiene.md › \"Provider matrix (current behavior)\" › Google · validateGeminiTurns",
};

/// The `gemini-turn-merge` rule.
pub struct GeminiTurnMerge;

impl Rule for GeminiTurnMerge {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, ctx: &Context<'_>) -> bool {
        ctx.resolved.policy.validate_gemini_turns
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let spec = MergeSpec {
            rule: INFO.id,
            role: Role::Assistant,
            why: "for Gemini alternation",
            fields: "fields of the first turn except usage/stopReason/errorMessage taken from later turns when set",
            union_notes: true,
        };
        merge_consecutive(work, &spec, merge_assistants, rewrites);
    }
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;
    use crate::hygiene::Action;
    use crate::hygiene::rules::helpers::turn_merge::testing::{all_borrowed, assert_json, borrowed, list};
    use crate::hygiene::rules::test_support::{apply_rule_for, assert_gate, msgs, resolved};
    use crate::hygiene::{Context, ReplayOptions};
    use crate::model::Message;

    fn gemini() -> crate::policy::ResolvedPolicy {
        resolved("google", "google-generative-ai", "gemini-2.5-pro")
    }

    fn run(work: Working<'static>) -> (Vec<Message>, Vec<PendingRewrite>, Vec<Vec<usize>>) {
        let r = gemini();
        let opts = ReplayOptions::default();
        let ctx = Context {
            resolved: &r,
            options: &opts,
            model_events: &[],
            thinking_level: None,
        };
        let mut work = work;
        let mut rw = Vec::new();
        GeminiTurnMerge.apply(&ctx, &mut work, &mut rw);
        let sources = work.messages.iter().map(|m| m.source.clone()).collect();
        let out = work.messages.into_iter().map(|m| m.message.into_owned()).collect();
        (out, rw, sources)
    }

    #[test]
    fn gate_is_validate_gemini_turns() {
        assert_gate(
            &GeminiTurnMerge,
            &[
                ("google", "google-generative-ai", "gemini-2.5-pro", true),
                ("deepseek", "openai-completions", "deepseek-chat", true),
                ("anthropic", "anthropic-messages", "claude-sonnet-4-6", false),
                ("openrouter", "openai-completions", "google/gemini-2.5-pro", false),
            ],
        );
    }

    #[test]
    fn merges_adjacent_assistants_with_later_usage_stop_reason_and_error() {
        let work = msgs(json!([
            {"role": "user", "content": "go", "timestamp": 1},
            {"role": "assistant", "content": [{"type": "text", "text": "first"}], "api": "google-generative-ai",
             "provider": "google", "model": "gemini-2.5-pro", "usage": {"input": 1, "output": 1}, "stopReason": "stop", "timestamp": 2},
            {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {}}],
             "api": "google-generative-ai", "provider": "google", "model": "gemini-2.5-flash",
             "usage": {"input": 5, "output": 7}, "stopReason": "error", "errorMessage": "boom", "timestamp": 3}
        ]));
        let (out, rw, sources) = run(work);
        assert_json(
            &out,
            json!([
                {"role": "user", "content": "go", "timestamp": 1},
                {"role": "assistant", "content": [{"type": "text", "text": "first"},
                    {"type": "toolCall", "id": "c1", "name": "read", "arguments": {}}],
                 "api": "google-generative-ai", "provider": "google", "model": "gemini-2.5-pro",
                 "usage": {"input": 5, "output": 7}, "stopReason": "error", "timestamp": 2, "errorMessage": "boom"}
            ]),
        );
        assert_eq!(sources, vec![vec![0], vec![1, 2]]);
        assert_eq!(rw.len(), 1);
        assert_eq!(
            (rw[0].rule, rw[0].action, rw[0].stored.clone()),
            ("gemini-turn-merge", Action::Merge, vec![1, 2])
        );
        assert_eq!(rw[0].result, vec![1]);
        assert_eq!(
            rw[0].detail,
            "merged 2 consecutive assistant turns (stored [1] + [2]) for Gemini alternation: content concatenated, \
             fields of the first turn except usage/stopReason/errorMessage taken from later turns when set \
             (usage; stopReason; errorMessage)"
        );
    }

    #[test]
    fn falsy_later_fields_do_not_override() {
        let work = msgs(json!([
            {"role": "assistant", "content": [{"type": "text", "text": "a"}], "stopReason": "toolUse", "usage": {"input": 1}},
            {"role": "assistant", "content": [], "stopReason": "", "usage": null, "errorMessage": ""}
        ]));
        let (out, rw, _) = run(work);
        assert_json(
            &out,
            json!([{"role": "assistant", "content": [{"type": "text", "text": "a"}], "stopReason": "toolUse", "usage": {"input": 1}}]),
        );
        assert!(rw[0].detail.ends_with("when set"), "{}", rw[0].detail);
    }

    #[test]
    fn a_run_of_three_is_one_merge_rewrite() {
        let work = msgs(json!([
            {"role": "assistant", "content": [{"type": "text", "text": "1"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "2"}]},
            {"role": "assistant", "content": "3", "stopReason": "stop"}
        ]));
        let (out, rw, sources) = run(work);
        assert_json(
            &out,
            json!([{"role": "assistant", "content": [{"type": "text", "text": "1"}, {"type": "text", "text": "2"},
                {"type": "text", "text": "3"}], "stopReason": "stop"}]),
        );
        assert_eq!(sources, vec![vec![0, 1, 2]]);
        assert_eq!(rw.len(), 1);
        assert_eq!(rw[0].stored, vec![0, 1, 2]);
        assert!(
            rw[0]
                .detail
                .starts_with("merged 3 consecutive assistant turns (stored [0] + [1] + [2])")
        );
    }

    #[test]
    fn tool_results_users_and_roleless_messages_break_adjacency() {
        let stored = list(json!([
            {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {}}]},
            {"role": "toolResult", "toolCallId": "c1", "toolName": "read", "content": [], "isError": false},
            {"role": "assistant", "content": [{"type": "text", "text": "done"}]},
            {"content": "no role"},
            {"role": "assistant", "content": [{"type": "text", "text": "again"}]},
            {"role": "user", "content": "u1"},
            {"role": "user", "content": "u2"}
        ]));
        let mut work = borrowed(&stored);
        let r = gemini();
        let opts = ReplayOptions::default();
        let ctx = Context {
            resolved: &r,
            options: &opts,
            model_events: &[],
            thinking_level: None,
        };
        let mut rw = Vec::new();
        GeminiTurnMerge.apply(&ctx, &mut work, &mut rw);
        assert!(rw.is_empty());
        assert_eq!(work.len(), 7);
        assert!(all_borrowed(&work), "nothing changed, nothing cloned");
    }

    #[test]
    fn empty_assistants_merge_into_one() {
        // apply() itself is not gated: the pipeline checks enabled().
        let (out, rw) = apply_rule_for(
            &GeminiTurnMerge,
            msgs(json!([{"role": "assistant", "content": []}, {"role": "assistant", "content": []}])),
            &gemini(),
            &ReplayOptions::default(),
        );
        assert_json(&out, json!([{"role": "assistant", "content": []}]));
        assert_eq!(rw.len(), 1);
    }
}
