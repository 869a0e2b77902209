//! The turn-ordering, merge and payload rules (OpenClaw's `sanitizeGoogleAssistantFirstOrdering`,
//! `validateGeminiTurns`, `validateAnthropicTurns` and the prefill wrappers) through the whole pipeline,
//! on realistic transcripts: the full projection, every rewrite and the merged messages' sources.
//!
//! The transcripts are built so that the other rules leave them alone (alphanumeric tool-call
//! ids, results right after their calls, normalized usage, no thinking, images or metadata).

use replaylens::hygiene::{Action, Context, Projection, ReplayOptions, Stage, Working, run};
use replaylens::json;
use replaylens::model::Message;
use replaylens::model::json::Value;
use replaylens::policy::{ResolvedPolicy, Target, resolve};

fn target(provider: &str, api: &str, model: &str) -> ResolvedPolicy {
    resolve(&Target::new(Some(provider), Some(api), Some(model)))
}

fn messages(v: Value) -> Vec<Message> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|m| Message::from_value(m.clone()).expect("object"))
        .collect()
}

fn project(resolved: &ResolvedPolicy, options: &ReplayOptions, level: Option<&str>, v: Value) -> Projection<'static> {
    let ctx = Context {
        resolved,
        options,
        model_events: &[],
        thinking_level: level,
    };
    run(Working::from_messages(messages(v)), &ctx)
}

/// A normalized usage snapshot (what stale-usage would produce), so that rule has nothing to do.
fn usage(input: u64, output: u64) -> Value {
    json!({"input": input, "output": output, "cacheRead": 0, "cacheWrite": 0, "totalTokens": input + output,
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}})
}

fn call(id: &str, name: &str, args: Value) -> Value {
    json!({"type": "toolCall", "id": id, "name": name, "arguments": args})
}

fn result(id: &str, name: &str, text: &str, ts: u64) -> Value {
    json!({"role": "toolResult", "toolCallId": id, "toolName": name,
        "content": [{"type": "text", "text": text}], "isError": false, "timestamp": ts})
}

fn text(t: &str) -> Value {
    json!({"type": "text", "text": t})
}

/// Assert the replay messages (exact JSON, key order included) and their sources.
fn assert_replay(p: &Projection<'_>, expected: Value, sources: &[&[usize]]) {
    let got: Vec<&Message> = p.messages.iter().map(|m| m.message.as_ref()).collect();
    assert_eq!(
        serde_json::to_string_pretty(&got).unwrap(),
        serde_json::to_string_pretty(&expected).unwrap()
    );
    let got_sources: Vec<&[usize]> = p.messages.iter().map(|m| m.source.as_slice()).collect();
    assert_eq!(got_sources, sources);
}

type RewriteRow = (&'static str, Action, Vec<usize>, Vec<usize>);

fn rewrites(p: &Projection<'_>) -> Vec<RewriteRow> {
    p.rewrites
        .iter()
        .map(|r| (r.rule, r.action, r.stored.clone(), r.replay.clone()))
        .collect()
}

#[test]
fn google_gemini_bootstraps_and_merges_consecutive_assistants() {
    let r = target("google", "google-generative-ai", "gemini-2.5-pro");
    let gemini = |stop: &str, content: Value, u: Value, ts: u64| {
        json!({"role": "assistant", "content": content, "api": "google-generative-ai", "provider": "google",
            "model": "gemini-2.5-pro", "usage": u, "stopReason": stop, "timestamp": ts})
    };
    let stored = json!([
        gemini("stop", json!([text("Hi! I'm ready to help with the repository.")]), usage(12, 9), 1_000),
        {"role": "user", "content": "How many Rust files are in src?", "timestamp": 2_000},
        gemini("stop", json!([text("Let me count them.")]), usage(40, 6), 3_000),
        gemini("toolUse", json!([call("call1", "bash", json!({"command": "ls src | wc -l"}))]), usage(52, 14), 3_500),
        result("call1", "bash", "12", 4_000),
        gemini("stop", json!([text("There are 12 Rust files in src.")]), usage(70, 10), 5_000)
    ]);
    let p = project(&r, &ReplayOptions::default(), None, stored);
    assert_replay(
        &p,
        json!([
            {"role": "user", "content": "(session bootstrap)", "timestamp": 1_000},
            gemini("stop", json!([text("Hi! I'm ready to help with the repository.")]), usage(12, 9), 1_000),
            {"role": "user", "content": "How many Rust files are in src?", "timestamp": 2_000},
            gemini("toolUse", json!([text("Let me count them."), call("call1", "bash", json!({"command": "ls src | wc -l"}))]),
                usage(52, 14), 3_000),
            result("call1", "bash", "12", 4_000),
            gemini("stop", json!([text("There are 12 Rust files in src.")]), usage(70, 10), 5_000)
        ]),
        &[&[], &[0], &[1], &[2, 3], &[4], &[5]],
    );
    assert_eq!(
        rewrites(&p),
        vec![
            ("google-bootstrap", Action::Insert, vec![], vec![0]),
            ("gemini-turn-merge", Action::Merge, vec![2, 3], vec![3]),
        ]
    );
    assert_eq!(
        p.rewrites[1].detail,
        "merged 2 consecutive assistant turns (stored [2] + [3]) for Gemini alternation: content concatenated, \
         fields of the first turn except usage/stopReason/errorMessage taken from later turns when set (usage; stopReason)"
    );
    assert!(!p.rules_run.contains(&"anthropic-turn-merge"));
    assert!(!p.rules_run.contains(&"prefill-strip"));
}

fn claude(provider: &str, api: &str, model: &str, stop: &str, content: Value, u: Value, ts: u64) -> Value {
    json!({"role": "assistant", "content": content, "api": api, "provider": provider, "model": model,
        "usage": u, "stopReason": stop, "timestamp": ts})
}

#[test]
fn anthropic_sonnet_merges_users_and_assistants_after_pairing_drops_an_aborted_tool_turn() {
    let r = target("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    let a = |stop: &str, content: Value, u: Value, ts: u64| {
        claude(
            "anthropic",
            "anthropic-messages",
            "claude-sonnet-4-6",
            stop,
            content,
            u,
            ts,
        )
    };
    let stored = json!([
        {"role": "user", "content": "The parser test fails.", "timestamp": 100},
        {"role": "user", "content": [text("It is tests/parse.rs, case `nested_arrays`.")], "timestamp": 101},
        a("stop", json!([text("I'll read the test first.")]), usage(900, 20), 102),
        a("toolUse", json!([call("call1", "read", json!({"path": "tests/parse.rs"}))]), usage(930, 40), 103),
        result("call1", "read", "fn nested_arrays() { … }", 104),
        a("aborted", json!([text("Running the suite now."), call("call2", "bash", json!({"command": "cargo test"}))]),
            usage(1_400, 25), 105),
        {"role": "user", "content": "Stop, just explain the fix.", "timestamp": 106},
        a("stop", json!([text("The nested branch never resets the depth counter.")]), usage(1_500, 60), 107)
    ]);
    let p = project(&r, &ReplayOptions::default(), None, stored);
    assert_replay(
        &p,
        json!([
            {"role": "user", "content": [text("The parser test fails."), text("It is tests/parse.rs, case `nested_arrays`.")],
             "timestamp": 101},
            a("toolUse", json!([text("I'll read the test first."), call("call1", "read", json!({"path": "tests/parse.rs"}))]),
                usage(930, 40), 102),
            result("call1", "read", "fn nested_arrays() { … }", 104),
            {"role": "user", "content": "Stop, just explain the fix.", "timestamp": 106},
            a("stop", json!([text("The nested branch never resets the depth counter.")]), usage(1_500, 60), 107)
        ]),
        &[&[0, 1], &[2, 3], &[4], &[6], &[7]],
    );
    assert_eq!(
        rewrites(&p),
        vec![
            ("tool-result-pairing", Action::Drop, vec![5], vec![]),
            ("anthropic-turn-merge", Action::Merge, vec![2, 3], vec![1]),
            ("anthropic-turn-merge", Action::Merge, vec![0, 1], vec![0]),
        ]
    );
    assert!(!p.rules_run.contains(&"prefill-strip"), "thinking is off");
}

#[test]
fn anthropic_signed_thinking_turn_with_a_mismatched_result_name_loses_its_calls() {
    let r = target("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    let a = |stop: &str, content: Value, u: Value, ts: u64| {
        claude(
            "anthropic",
            "anthropic-messages",
            "claude-sonnet-4-6",
            stop,
            content,
            u,
            ts,
        )
    };
    let thinking = json!({"type": "thinking", "thinking": "Run cargo test.", "thinkingSignature": "EqQBCkYIBxgCKkB0ZXN0c2lnbmF0dXJl"});
    let stored = json!([
        {"role": "user", "content": "Run the tests.", "timestamp": 100},
        a("toolUse", json!([thinking, call("toolu_01A", "exec", json!({"command": "cargo test"}))]), usage(10, 5), 101),
        result("toolu_01A", "bash", "ok", 102),
        a("stop", json!([text("All tests pass.")]), usage(20, 5), 103)
    ]);
    let p = project(&r, &ReplayOptions::default(), None, stored);
    assert_replay(
        &p,
        json!([
            {"role": "user", "content": "Run the tests.", "timestamp": 100},
            a("toolUse", json!([text("[tool calls omitted]")]), usage(10, 5), 101),
            a("stop", json!([text("All tests pass.")]), usage(20, 5), 103)
        ]),
        &[&[0], &[1], &[3]],
    );
    // OpenClaw's final pairing pass drops the result its call no longer exists for (Anthropic
    // would reject it: "unexpected `tool_use_id` found in `tool_result` blocks").
    assert_eq!(
        rewrites(&p),
        vec![
            ("dangling-tool-call", Action::Modify, vec![1], vec![1]),
            ("tool-result-pairing", Action::Drop, vec![2], vec![]),
        ]
    );
    assert!(
        p.rewrites[0].detail.contains("toolu_01A (exec) has no matching result"),
        "{}",
        p.rewrites[0].detail
    );
}

fn fable_transcript(provider: &str, api: &str, model: &str) -> (Value, impl Fn(&str, Value, Value, u64) -> Value) {
    let (provider, api, model) = (provider.to_owned(), api.to_owned(), model.to_owned());
    let a = move |stop: &str, content: Value, u: Value, ts: u64| claude(&provider, &api, &model, stop, content, u, ts);
    let stored = json!([
        {"role": "user", "content": "/think high", "timestamp": 10},
        {"role": "user", "content": "Summarize README.md in one line.", "timestamp": 11},
        a("stop", json!([text("Reading README.md.")]), usage(300, 8), 12),
        a("toolUse", json!([call("call1", "read", json!({"path": "README.md"}))]), usage(310, 20), 13),
        result("call1", "read", "# replaylens\nShows what OpenClaw replays.", 14),
        a("stop", json!([text("replaylens shows what OpenClaw replays to a provider.")]), usage(400, 15), 15)
    ]);
    (stored, a)
}

#[test]
fn prefix_binding_claude_keeps_users_separate_on_the_messages_api() {
    let r = target("anthropic", "anthropic-messages", "claude-fable-5-1");
    assert_eq!(r.policy.append_only_runtime_context, Some(true));
    let (stored, a) = fable_transcript("anthropic", "anthropic-messages", "claude-fable-5-1");
    let p = project(&r, &ReplayOptions::default(), None, stored);
    assert_replay(
        &p,
        json!([
            {"role": "user", "content": "/think high", "timestamp": 10},
            {"role": "user", "content": "Summarize README.md in one line.", "timestamp": 11},
            a("toolUse", json!([text("Reading README.md."), call("call1", "read", json!({"path": "README.md"}))]),
                usage(310, 20), 12),
            result("call1", "read", "# replaylens\nShows what OpenClaw replays.", 14),
            a("stop", json!([text("replaylens shows what OpenClaw replays to a provider.")]), usage(400, 15), 15)
        ]),
        &[&[0], &[1], &[2, 3], &[4], &[5]],
    );
    assert_eq!(
        rewrites(&p),
        vec![("anthropic-turn-merge", Action::Merge, vec![2, 3], vec![2])]
    );
}

#[test]
fn prefix_binding_claude_on_bedrock_converse_still_merges_users() {
    let model = "us.anthropic.claude-fable-5-1-v1:0";
    let r = target("amazon-bedrock", "bedrock-converse-stream", model);
    assert_eq!(r.policy.append_only_runtime_context, Some(true));
    let (stored, a) = fable_transcript("amazon-bedrock", "bedrock-converse-stream", model);
    let p = project(&r, &ReplayOptions::default(), None, stored);
    assert_replay(
        &p,
        json!([
            {"role": "user", "content": [text("/think high"), text("Summarize README.md in one line.")], "timestamp": 11},
            a("toolUse", json!([text("Reading README.md."), call("call1", "read", json!({"path": "README.md"}))]),
                usage(310, 20), 12),
            result("call1", "read", "# replaylens\nShows what OpenClaw replays.", 14),
            a("stop", json!([text("replaylens shows what OpenClaw replays to a provider.")]), usage(400, 15), 15)
        ]),
        &[&[0, 1], &[2, 3], &[4], &[5]],
    );
    assert_eq!(
        rewrites(&p),
        vec![
            ("anthropic-turn-merge", Action::Merge, vec![2, 3], vec![1]),
            ("anthropic-turn-merge", Action::Merge, vec![0, 1], vec![0]),
        ]
    );
}

#[test]
fn openrouter_anthropic_with_reasoning_on_strips_the_trailing_prefill() {
    let model = "anthropic/claude-sonnet-4-6";
    let r = target("openrouter", "openai-completions", model);
    let a =
        |content: Value, u: Value, ts: u64| claude("openrouter", "openai-completions", model, "stop", content, u, ts);
    let stored = json!([
        {"role": "user", "content": "Write a haiku about Rust.", "timestamp": 1},
        a(json!([text("Borrowed, never lost —\nthe checker hums through the night;\nno data races.")]), usage(30, 22), 2),
        {"role": "user", "content": "Now one about Go, as JSON.", "timestamp": 3},
        a(json!([text("{\"haiku\": \"")]), usage(60, 4), 4)
    ]);
    let p = project(&r, &ReplayOptions::default(), Some("high"), stored.clone());
    assert_replay(
        &p,
        json!([
            {"role": "user", "content": "Write a haiku about Rust.", "timestamp": 1},
            a(json!([text("Borrowed, never lost —\nthe checker hums through the night;\nno data races.")]), usage(30, 22), 2),
            {"role": "user", "content": "Now one about Go, as JSON.", "timestamp": 3}
        ]),
        &[&[0], &[1], &[2]],
    );
    assert_eq!(rewrites(&p), vec![("prefill-strip", Action::Drop, vec![3], vec![])]);
    assert_eq!(
        p.rewrites[0].detail,
        "removed trailing assistant prefill: reasoning is on and OpenRouter Anthropic requires the conversation to end with a user turn"
    );
    // A stream-stage step: the history stage (what OpenClaw's history holds) keeps the turn.
    assert_eq!(p.rewrites[0].stage, Stage::Stream);
    assert_eq!(p.rewrites[0].action_label(), "drop (stream stage)");
    assert_eq!(p.history_stage().len(), 4);
    assert_eq!(p.history_stage()[3].source, [3]);

    let off = project(&r, &ReplayOptions::default(), Some("off"), stored.clone());
    assert!(off.rewrites.is_empty() && off.messages.len() == 4);
    let forced_off = ReplayOptions {
        thinking: Some(false),
        ..ReplayOptions::default()
    };
    let p = project(&r, &forced_off, Some("high"), stored);
    assert!(
        p.rewrites.is_empty() && p.messages.len() == 4,
        "--thinking off wins over the session level"
    );
}
