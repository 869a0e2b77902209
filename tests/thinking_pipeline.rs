//! Realistic transcripts through the whole pipeline, one per provider family, checking the
//! thinking / signature / usage rules: the full projection and every rewrite.

use replaylens::json;
use replaylens::model::json::Value;

use replaylens::hygiene::{Context, ReplayOptions, Working, run};
use replaylens::model::{Message, ModelEvent, ModelRef};
use replaylens::policy::{Target, resolve};

/// A usage snapshot that is already in normalized form.
fn usage(input: i64, output: i64) -> Value {
    json!({"input": input, "output": output, "cacheRead": 0, "cacheWrite": 0, "totalTokens": input + output,
           "cost": {"input": 0.001, "output": 0.002, "cacheRead": 0, "cacheWrite": 0, "total": 0.003}})
}

fn zero() -> Value {
    json!({"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
           "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}})
}

struct Outcome {
    replay: Value,
    sources: Vec<Vec<usize>>,
    rewrites: Vec<(String, String, Vec<usize>)>,
    details: Vec<String>,
}

fn project(stored: Value, target: (&str, &str, &str), events: &[ModelEvent]) -> Outcome {
    let messages = stored
        .as_array()
        .unwrap()
        .iter()
        .map(|m| Message::from_value(m.clone()).unwrap())
        .collect();
    let resolved = resolve(&Target::new(Some(target.0), Some(target.1), Some(target.2)));
    let options = ReplayOptions::default();
    let ctx = Context {
        resolved: &resolved,
        options: &options,
        model_events: events,
        thinking_level: None,
    };
    let p = run(Working::from_messages(messages), &ctx);
    Outcome {
        replay: Value::Array(
            p.messages
                .iter()
                .map(|m| replaylens::model::json::to_value(m.message.as_ref()).unwrap())
                .collect(),
        ),
        sources: p.messages.iter().map(|m| m.source.clone()).collect(),
        rewrites: p
            .rewrites
            .iter()
            .map(|r| (r.rule.to_owned(), r.action.as_str().to_owned(), r.stored.clone()))
            .collect(),
        details: p.rewrites.iter().map(|r| r.detail.to_string()).collect(),
    }
}

fn rw(rule: &str, action: &str, stored: &[usize]) -> (String, String, Vec<usize>) {
    (rule.to_owned(), action.to_owned(), stored.to_vec())
}

#[test]
fn anthropic_sonnet_4_6_keeps_signed_thinking_and_cleans_compaction_leftovers() {
    let out = project(
        json!([
            {"role": "compactionSummary", "summary": "User asked to inspect main.ts.", "tokensBefore": 120000, "timestamp": 5000},
            {"role": "user", "content": "Read main.ts", "timestamp": 1000},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Need the file.", "thinkingSignature": "sigA"},
                {"type": "toolCall", "id": "toolu_01", "name": "read", "arguments": {"path": "main.ts"}}
            ], "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-6",
               "usage": usage(900, 40), "stopReason": "toolUse", "timestamp": 2000},
            {"role": "toolResult", "toolCallId": "toolu_01", "toolName": "read", "content": [{"type": "text", "text": "export {}"}], "isError": false, "timestamp": 2100},
            {"role": "user", "content": "Now add a greet function.", "timestamp": 6000},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Write it.", "thinkingSignature": "sigB"},
                {"type": "thinking", "thinking": "Double-check.", "thinkingSignature": "  "},
                {"type": "text", "text": "Added greet()."}
            ], "usage": usage(1000, 60), "stopReason": "stop", "timestamp": 7000},
            {"role": "user", "content": "Thanks", "timestamp": 8000},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Reply briefly.", "thinkingSignature": "sigC"},
                {"type": "text", "text": "You're welcome."}
            ], "usage": usage(1100, 5), "stopReason": "stop", "timestamp": 9000}
        ]),
        ("anthropic", "anthropic-messages", "claude-sonnet-4-6"),
        &[],
    );
    assert_eq!(
        out.replay,
        json!([
            {"role": "compactionSummary", "summary": "User asked to inspect main.ts.", "tokensBefore": 120000, "timestamp": 5000},
            {"role": "user", "content": "Read main.ts", "timestamp": 1000},
            {"role": "assistant", "content": [
                {"type": "toolCall", "id": "toolu_01", "name": "read", "arguments": {"path": "main.ts"}}
            ], "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-6",
               "usage": zero(), "stopReason": "toolUse", "timestamp": 2000},
            {"role": "toolResult", "toolCallId": "toolu_01", "toolName": "read", "content": [{"type": "text", "text": "export {}"}], "isError": false, "timestamp": 2100},
            {"role": "user", "content": "Now add a greet function.", "timestamp": 6000},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Write it.", "thinkingSignature": "sigB"},
                {"type": "text", "text": "Added greet()."}
            ], "usage": usage(1000, 60), "stopReason": "stop", "timestamp": 7000},
            {"role": "user", "content": "Thanks", "timestamp": 8000},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Reply briefly.", "thinkingSignature": "sigC"},
                {"type": "text", "text": "You're welcome."}
            ], "usage": usage(1100, 5), "stopReason": "stop", "timestamp": 9000}
        ])
    );
    assert_eq!(out.sources, (0..8).map(|i| vec![i]).collect::<Vec<_>>());
    assert_eq!(
        out.rewrites,
        vec![
            rw("compaction-signature", "modify", &[2]),
            rw("invalid-thinking-signature", "modify", &[2]),
            rw("invalid-thinking-signature", "modify", &[5]),
            rw("stale-usage", "modify", &[2]),
        ]
    );
    assert_eq!(
        out.details,
        vec![
            "stripped thinkingSignature from thinking block 0: turn at 2000 predates the latest compaction at 5000",
            "removed thinking block 0: missing signature",
            "removed thinking block 1: blank signature",
            "zeroed usage recorded before the latest compaction (turn at 2000 ≤ compaction at 5000)",
        ]
    );
}

#[test]
fn anthropic_claude_3_7_drops_thinking_from_older_turns() {
    let out = project(
        json!([
            {"role": "user", "content": "hi", "timestamp": 1},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Greet.", "thinkingSignature": "s1"},
                {"type": "text", "text": "Hello!"}
            ], "usage": usage(10, 3), "stopReason": "stop", "timestamp": 2},
            {"role": "user", "content": "Anything secret?", "timestamp": 3},
            {"role": "assistant", "content": [{"type": "redacted_thinking", "data": "EmwKAhgBEgy"}], "usage": usage(20, 9), "stopReason": "stop", "timestamp": 4},
            {"role": "user", "content": "ok, bye", "timestamp": 5},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Say bye.", "thinkingSignature": "s3"},
                {"type": "text", "text": "Bye!"}
            ], "usage": usage(30, 2), "stopReason": "stop", "timestamp": 6}
        ]),
        ("anthropic", "anthropic-messages", "claude-3-7-sonnet-20250219"),
        &[],
    );
    assert_eq!(
        out.replay,
        json!([
            {"role": "user", "content": "hi", "timestamp": 1},
            {"role": "assistant", "content": [{"type": "text", "text": "Hello!"}], "usage": usage(10, 3), "stopReason": "stop", "timestamp": 2},
            {"role": "user", "content": "Anything secret?", "timestamp": 3},
            {"role": "assistant", "content": [{"type": "text", "text": "[assistant reasoning omitted]"}], "usage": usage(20, 9), "stopReason": "stop", "timestamp": 4},
            {"role": "user", "content": "ok, bye", "timestamp": 5},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Say bye.", "thinkingSignature": "s3"},
                {"type": "text", "text": "Bye!"}
            ], "usage": usage(30, 2), "stopReason": "stop", "timestamp": 6}
        ])
    );
    assert_eq!(
        out.rewrites,
        vec![rw("drop-thinking", "modify", &[1]), rw("drop-thinking", "modify", &[3])]
    );
    assert_eq!(
        out.details,
        vec![
            "removed thinking block 0: older turn and the policy drops thinking blocks",
            "removed redacted_thinking block 0: older turn and the policy drops thinking blocks; nothing left, so the turn keeps `[assistant reasoning omitted]`",
        ]
    );
}

#[test]
fn openai_completions_strips_history_but_keeps_the_current_tool_turn() {
    let out = project(
        json!([
            {"role": "user", "content": "List the files", "timestamp": 1},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Use ls."},
                {"type": "text", "text": "a.txt, b.txt"}
            ], "usage": usage(50, 10), "stopReason": "stop", "timestamp": 2},
            {"role": "user", "content": "Read a.txt", "timestamp": 3},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Call read."},
                {"type": "toolCall", "id": "call1", "name": "read", "arguments": {"path": "a.txt"}}
            ], "usage": usage(70, 12), "stopReason": "toolUse", "timestamp": 4},
            {"role": "toolResult", "toolCallId": "call1", "toolName": "read", "content": [{"type": "text", "text": "alpha"}], "isError": false, "timestamp": 5}
        ]),
        ("vllm", "openai-completions", "qwen3-32b"),
        &[],
    );
    assert_eq!(
        out.replay,
        json!([
            {"role": "user", "content": "List the files", "timestamp": 1},
            {"role": "assistant", "content": [{"type": "text", "text": "a.txt, b.txt"}], "usage": usage(50, 10), "stopReason": "stop", "timestamp": 2},
            {"role": "user", "content": "Read a.txt", "timestamp": 3},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Call read."},
                {"type": "toolCall", "id": "call1", "name": "read", "arguments": {"path": "a.txt"}}
            ], "usage": usage(70, 12), "stopReason": "toolUse", "timestamp": 4},
            {"role": "toolResult", "toolCallId": "call1", "toolName": "read", "content": [{"type": "text", "text": "alpha"}], "isError": false, "timestamp": 5}
        ])
    );
    assert_eq!(out.rewrites, vec![rw("drop-reasoning-history", "modify", &[1])]);
    assert_eq!(
        out.details,
        vec!["removed thinking block 0: historical reasoning is not replayed to chat completions"]
    );
}

#[test]
fn google_gemini_keeps_only_base64_thought_signatures() {
    let out = project(
        json!([
            {"role": "user", "content": "Plan the refactor", "timestamp": 1},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Outline.", "thought_signature": "msg_01XYZ"},
                {"type": "toolCall", "id": "call1", "name": "read", "arguments": {"path": "src"}, "thoughtSignature": "CiQBjz1rX2Fh"},
                {"type": "text", "text": "Reading.", "thoughtSignature": "not base64!"}
            ], "usage": usage(40, 8), "stopReason": "toolUse", "timestamp": 2},
            {"role": "toolResult", "toolCallId": "call1", "toolName": "read", "content": [{"type": "text", "text": "lib.rs"}], "isError": false, "timestamp": 3},
            {"role": "assistant", "content": [{"type": "text", "text": "Done.", "thought_signature": "AAEC"}], "usage": usage(60, 4), "stopReason": "stop", "timestamp": 4}
        ]),
        ("google", "google-generative-ai", "gemini-2.5-pro"),
        &[],
    );
    assert_eq!(
        out.replay,
        json!([
            {"role": "user", "content": "Plan the refactor", "timestamp": 1},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Outline."},
                {"type": "toolCall", "id": "call1", "name": "read", "arguments": {"path": "src"}, "thoughtSignature": "CiQBjz1rX2Fh"},
                {"type": "text", "text": "Reading."}
            ], "usage": usage(40, 8), "stopReason": "toolUse", "timestamp": 2},
            {"role": "toolResult", "toolCallId": "call1", "toolName": "read", "content": [{"type": "text", "text": "lib.rs"}], "isError": false, "timestamp": 3},
            {"role": "assistant", "content": [{"type": "text", "text": "Done.", "thought_signature": "AAEC"}], "usage": usage(60, 4), "stopReason": "stop", "timestamp": 4}
        ])
    );
    assert_eq!(out.rewrites, vec![rw("thought-signature", "modify", &[1])]);
    assert_eq!(
        out.details,
        vec![
            "stripped thought_signature of thinking block 0: not base64; stripped thoughtSignature of text block 2: not base64"
        ]
    );
}

fn rs(id: &str) -> String {
    json!({"type": "reasoning", "id": id, "encrypted_content": "gAAAAB", "summary": []}).to_string()
}

fn snapshot(before: usize, model: &str) -> ModelEvent {
    ModelEvent {
        before_message: before,
        model: ModelRef {
            provider: Some("openai".into()),
            api: Some("openai-responses".into()),
            model: Some(model.into()),
        },
        source: "model-snapshot",
    }
}

#[test]
fn openai_responses_drops_pre_switch_reasoning_and_downgrades_pairs() {
    let events = [snapshot(0, "gpt-5"), snapshot(3, "gpt-5.1")];
    let out = project(
        json!([
            {"role": "user", "content": "Read main.ts", "timestamp": 1},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_old")},
                {"type": "toolCall", "id": "call_9|fc_9", "name": "read", "arguments": {"path": "main.ts"}}
            ], "api": "openai-responses", "provider": "openai", "model": "gpt-5", "usage": usage(1200, 30), "stopReason": "toolUse", "timestamp": 2},
            {"role": "toolResult", "toolCallId": "call_9|fc_9", "toolName": "read", "content": [{"type": "text", "text": "export {}"}], "isError": false, "timestamp": 3},
            {"role": "user", "content": "Continue", "timestamp": 4},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_new")},
                {"type": "text", "text": "Done.", "textSignature": "{\"v\":1,\"id\":\"msg_2\",\"phase\":\"final_answer\"}"}
            ], "api": "openai-responses", "provider": "openai", "model": "gpt-5.1", "usage": usage(1300, 20), "stopReason": "stop", "timestamp": 5},
            {"role": "assistant", "content": [
                {"type": "text", "text": "One more note."},
                {"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_tail")}
            ], "api": "openai-responses", "provider": "openai", "model": "gpt-5.1", "usage": usage(1400, 10), "stopReason": "stop", "timestamp": 6}
        ]),
        ("openai", "openai-responses", "gpt-5.1"),
        &events,
    );
    assert_eq!(
        out.replay,
        json!([
            {"role": "user", "content": "Read main.ts", "timestamp": 1},
            {"role": "assistant", "content": [
                {"type": "toolCall", "id": "call_9", "name": "read", "arguments": {"path": "main.ts"}}
            ], "api": "openai-responses", "provider": "openai", "model": "gpt-5", "usage": usage(1200, 30), "stopReason": "toolUse", "timestamp": 2},
            {"role": "toolResult", "toolCallId": "call_9", "toolName": "read", "content": [{"type": "text", "text": "export {}"}], "isError": false, "timestamp": 3},
            {"role": "user", "content": "Continue", "timestamp": 4},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_new")},
                {"type": "text", "text": "Done.", "textSignature": "{\"v\":1,\"id\":\"msg_2\",\"phase\":\"final_answer\"}"}
            ], "api": "openai-responses", "provider": "openai", "model": "gpt-5.1", "usage": usage(1300, 20), "stopReason": "stop", "timestamp": 5},
            // Trailing reasoning stays: OpenClaw's transport drops it only when item ids are
            // replayed (the wire stage does so), and it keeps the history's.
            {"role": "assistant", "content": [
                {"type": "text", "text": "One more note."},
                {"type": "thinking", "thinking": "", "thinkingSignature": rs("rs_tail")}
            ], "api": "openai-responses", "provider": "openai", "model": "gpt-5.1", "usage": usage(1400, 10), "stopReason": "stop", "timestamp": 6}
        ])
    );
    assert_eq!(
        out.rewrites,
        vec![
            rw("responses-reasoning", "modify", &[1]),
            rw("responses-reasoning", "modify", &[1]),
            rw("responses-reasoning", "modify", &[2]),
        ]
    );
    assert_eq!(
        out.details,
        vec![
            "dropped replayable reasoning block 0 (rs_old): recorded before the model switch to openai/openai-responses/gpt-5.1",
            "downgraded tool call id call_9|fc_9 → call_9: no replayable reasoning item precedes it in the turn",
            "downgraded result id toolCallId call_9|fc_9 → call_9 with its call",
        ]
    );
}
