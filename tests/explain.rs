//! `lint --explain`: for each pairing error the lint knows (`src/lint/error_patterns.rs`), a crafted session where
//! the stored transcript sent as is really draws that error, the error text as the provider
//! fills it in (ids, indices, envelope), and what replaylens makes of it: the constraint, the
//! stored messages to blame, and whether the current projection avoids it.

mod explain_support;

use explain_support::*;
use replaylens::json;
use replaylens::model::json::Value;

#[test]
fn anthropic_tool_use_without_results_in_every_envelope() {
    let ids = ("toolu_01HqfLWiAKQLsniF2fBGF2KD", "toolu_01SJzDkeAZER935cpGFptTNk");
    let session = [
        user("list the files and read the config"),
        calls(ANTHROPIC, Some("Looking."), &[(ids.0, "exec"), (ids.1, "read")]),
        user("never mind, just say hi"),
        said(ANTHROPIC, "Hi."),
    ];
    let text = format!(
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: {}, {}. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
        ids.0, ids.1
    );
    let direct = format!(
        r#"{{"type":"error","error":{{"type":"invalid_request_error","message":{}}},"request_id":"req_011CWq2b7gT1nJ8d9VvP3kLm"}}"#,
        quoted(&text)
    );
    let vertex = format!(
        r#"{{"error":{{"code":400,"message":{},"status":"INVALID_ARGUMENT"}}}}"#,
        quoted(&direct)
    );
    let invoke_model = format!(
        "An error occurred (ValidationException) when calling the InvokeModel operation: The model returned the following errors: {text}"
    );
    let want = Expect::paired("anthropic-tool-use-adjacency", &[1]);
    for error in [text.clone(), direct, vertex, invoke_model, format!("400 {text}")] {
        let doc = check(&session, &error, &want);
        assert_eq!(doc["explain"]["index"], 1);
        assert_eq!(doc["explain"]["ids"], json!([ids.0, ids.1]));
    }
}

#[test]
fn anthropic_orphan_result_after_front_truncation() {
    let id = "toolu_019ETtGZEhTBXgWPVsdVnXMh";
    let session = [
        result(id, "read", "fn main() {}"),
        said(ANTHROPIC, "The file only has an empty main."),
        user("add a test"),
        said(ANTHROPIC, "Added."),
    ];
    let error = format!(
        "messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
    );
    let want = Expect::paired("anthropic-tool-result-orphan", &[0]);
    check(&session, &error, &want);
}

#[test]
fn anthropic_orphan_duplicate_result_blames_the_duplicate_not_the_call() {
    let id = "toolu_01AyZNVx7HyXezryvjtssPwk";
    let session = [
        user("run the tests"),
        calls(ANTHROPIC, None, &[(id, "exec")]),
        result(id, "exec", "3 passed"),
        said(ANTHROPIC, "All 3 tests pass."),
        result(id, "exec", "3 passed"),
        user("thanks"),
        said(ANTHROPIC, "You are welcome."),
    ];
    let error = format!(
        "messages.4.content.0: unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
    );
    let want = Expect::paired("anthropic-tool-result-orphan", &[4]);
    check(&session, &error, &want);
}

fn chat_session(answer_first: bool) -> Vec<Value> {
    let (a, b, c) = (
        "call_RTlWVuE5MqEb3WZJgTIl7Rsb",
        "call_8kQ2mZ4bXc7LrT1vN9pWd3Ye",
        "call_Jh5sK0aQ3uV6yB8nE2tR4wXz",
    );
    let mut s = vec![
        user("what's in src?"),
        calls(OPENAI_CHAT, None, &[(a, "exec")]),
        result(a, "exec", "main.rs lib.rs"),
        calls(OPENAI_CHAT, Some("Two files."), &[(b, "read"), (c, "read")]),
    ];
    if answer_first {
        s.push(result(b, "read", "fn main() {}"));
    }
    s.extend([
        user("stop, just summarize"),
        said(OPENAI_CHAT, "src has main.rs and lib.rs."),
    ]);
    s
}

#[test]
fn openai_chat_unanswered_tool_calls_counts_the_system_prompt() {
    // Sent: system, user, assistant, tool, assistant(b, c), tool(b), user → the provider's
    // param names the user message at 6 (5 in the payload without the system prompt); the
    // lint names it as the provider does.
    let text = "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_Jh5sK0aQ3uV6yB8nE2tR4wXz";
    let want = Expect::paired("openai-chat-tool-calls-answered", &[3]);
    let doc = check(&chat_session(true), &openai_envelope(text, "messages.[6].role"), &want);
    assert_eq!(doc["explain"]["index"], 6);
    assert!(
        findings(&doc, "stored")
            .iter()
            .any(|f| f["path"] == "messages.[6].role")
    );
    check(&chat_session(true), text, &want);
}

#[test]
fn openai_chat_several_unanswered_ids_are_all_read() {
    let text = "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_8kQ2mZ4bXc7LrT1vN9pWd3Ye, call_Jh5sK0aQ3uV6yB8nE2tR4wXz";
    let want = Expect::paired("openai-chat-tool-calls-answered", &[3]);
    let doc = check(&chat_session(false), &openai_envelope(text, "messages.[5].role"), &want);
    assert_eq!(
        doc["explain"]["ids"],
        json!(["call_8kQ2mZ4bXc7LrT1vN9pWd3Ye", "call_Jh5sK0aQ3uV6yB8nE2tR4wXz"])
    );
}

#[test]
fn openai_chat_tool_message_without_its_call() {
    let id = "call_Zx81QwErTy45UiOp09AsDfGh";
    let session = [
        user("check the disk"),
        calls(OPENAI_CHAT, None, &[(id, "exec")]),
        result(id, "exec", "/dev/sda1 40%"),
        said(OPENAI_CHAT, "The disk is 40% full."),
        result(id, "exec", "/dev/sda1 40%"),
        user("and memory?"),
        said(OPENAI_CHAT, "8 GB free."),
    ];
    // The provider's own spelling ("preceeding"); messages.[5] counts the system prompt.
    let text =
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
    let want = Expect::paired("openai-chat-tool-message-answers-call", &[4]);
    check(&session, &openai_envelope(text, "messages.[5].role"), &want);
    check(&session, text, &want);
}

#[test]
fn responses_function_call_without_output_names_the_right_call() {
    // Two calls never answered; the provider names the first, whose stored id is `call|fc`.
    let first = "call_uvtcg8y9PllKDmBUIYmuEMbq|fc_29296e3cab554bd45b93a02f4ec0d51680252a23444e0a2468";
    let second = "call_nVpDMSNiaYyO3YqXrtNNIwr4|fc_9d0b204747c7a10f9eab3542e5fdad60df4351e0e50416edcb";
    let session = [
        user("add a --json flag"),
        calls(RESPONSES, None, &[(first, "edit")]),
        user("wait, use click instead"),
        calls(RESPONSES, Some("Switching to click."), &[(second, "edit")]),
        user("and keep argparse for --version"),
        said(RESPONSES, "Done."),
    ];
    let text = "No tool output found for function call call_uvtcg8y9PllKDmBUIYmuEMbq.";
    let want = Expect::paired("openai-responses-function-call-output", &[1]);
    let doc = check(&session, &openai_envelope(text, "input"), &want);
    assert_eq!(doc["explain"]["ids"], json!(["call_uvtcg8y9PllKDmBUIYmuEMbq"]));
    assert_eq!(findings(&doc, "stored").len(), 2);
    let codex = format!(r#"{{"detail":{}}}"#, quoted(text.trim_end_matches('.')));
    check(&session, &codex, &want);
}

#[test]
fn responses_output_without_its_call() {
    let own = "call_nVpDMSNiaYyO3YqXrtNNIwr4|fc_9d0b204747c7a10f9eab3542e5fdad60df4351e0e50416edcb";
    let stray = "call_1ZVy0kxw3DtbRKEG5keEQ4tY|fc_0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f607182";
    let session = [
        user("add a --json flag"),
        calls(RESPONSES, None, &[(own, "read")]),
        result(own, "read", "import argparse"),
        result(stray, "exec", "ok"),
        said(RESPONSES, "It uses argparse."),
    ];
    let text = "No tool call found for function call output with call_id call_1ZVy0kxw3DtbRKEG5keEQ4tY.";
    let want = Expect::paired("openai-responses-function-call-output-orphan", &[3]);
    check(&session, &openai_envelope(text, "input"), &want);
}

#[test]
fn gemini_fewer_responses_than_calls() {
    let session = [
        user("audit the dependencies"),
        calls(
            GEMINI,
            None,
            &[("exec_1773273606130_0", "exec"), ("exec_1773273606130_1", "exec")],
        ),
        result("exec_1773273606130_0", "exec", "lodash 4.17.20 -> 4.17.21"),
        said(GEMINI, "lodash is outdated."),
        user("update it"),
        said(GEMINI, "Updated."),
    ];
    let text = "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.";
    let want = Expect::paired("gemini-function-response-count", &[2]);
    for error in gemini_envelopes(text) {
        check(&session, &error, &want);
    }
}

#[test]
fn an_error_naming_no_place_points_at_the_first_violation() {
    let call = |n: &str| calls(GEMINI, None, &[(n, "exec"), ("exec_1773273606130_9", "exec")]);
    let session = [
        user("audit the dependencies"),
        call("exec_1773273606130_0"),
        result("exec_1773273606130_0", "exec", "lodash 4.17.20 -> 4.17.21"),
        said(GEMINI, "lodash is outdated."),
        user("and the dev dependencies?"),
        call("exec_1773273606130_1"),
        result("exec_1773273606130_1", "exec", "jest 29 -> 30"),
        said(GEMINI, "jest too."),
    ];
    let text = "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.";
    let doc = check(
        &session,
        &gemini_envelopes(text)[0],
        &Expect::paired("gemini-function-response-count", &[2]),
    );
    let summary = doc["explain"]["summary"].as_str().unwrap();
    assert!(summary.contains("(the first of the 2 places"), "{summary}");
}

#[test]
fn gemini_call_turn_placement_names_the_rule_that_fixed_it() {
    let text =
        "Please ensure that function call turn comes immediately after a user turn or after a function response turn.";
    let call = || calls(GEMINI, None, &[("exec_1773273606130_0", "exec")]);
    let answer = || result("exec_1773273606130_0", "exec", "lodash 4.17.20 -> 4.17.21");
    // A cron-started history that begins with the model's call.
    let starts_with_call = [
        call(),
        answer(),
        said(GEMINI, "lodash is outdated."),
        user("update it"),
        said(GEMINI, "Done."),
    ];
    let want = Expect::fixed("gemini-function-call-placement", &[0], "google-bootstrap");
    for error in gemini_envelopes(text) {
        check(&starts_with_call, &error, &want);
    }
    // A call turn right after another model turn: merged, not bootstrapped.
    let after_model = [
        user("audit"),
        said(GEMINI, "Let me check."),
        call(),
        answer(),
        said(GEMINI, "lodash is outdated."),
    ];
    let want = Expect::fixed("gemini-function-call-placement", &[2], "gemini-turn-merge");
    check(&after_model, &gemini_envelopes(text)[0], &want);
}

#[test]
fn gemini_response_turn_without_a_call_turn() {
    let session = [
        user("audit the dependencies"),
        said(GEMINI, "Running npm audit."),
        result("exec_1773273606130_0", "exec", "0 vulnerabilities"),
        user("and outdated ones?"),
        said(GEMINI, "lodash."),
    ];
    let text = "Please ensure that function response turn comes immediately after a function call turn.";
    let want = Expect::paired("gemini-function-response-placement", &[2]);
    check(&session, &gemini_envelopes(text)[0], &want);
}

#[test]
fn bedrock_more_results_than_uses_in_its_wrappers() {
    let id = "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q";
    let text = "The number of toolResult blocks exceeds the number of toolUse blocks of previous turn";
    let wrapped = [
        text.to_string(),
        format!("An error occurred (ValidationException) when calling the ConverseStream operation: {text}"),
        format!("ValidationException: {text}"),
        format!(r#"{{"message":{}}}"#, quoted(text)),
    ];
    // A result stored twice: both land in one user turn, two results for one use.
    let duplicated = [
        user("refactor the tile loader"),
        calls(BEDROCK, None, &[(id, "read")]),
        result(id, "read", "pub fn load() {}"),
        result(id, "read", "pub fn load() {}"),
        said(BEDROCK, "The loader is a stub."),
    ];
    let want = Expect::paired("bedrock-tool-result-count", &[2, 3]);
    for error in &wrapped {
        check(&duplicated, error, &want);
    }
    // A late result after the model already answered in text.
    let late = [
        user("refactor the tile loader"),
        calls(BEDROCK, None, &[(id, "read")]),
        result(id, "read", "pub fn load() {}"),
        said(BEDROCK, "The loader is a stub."),
        result("tooluse_Q2xV8bNfT0mY5wLcR7pAsd", "exec", "cargo test: ok"),
        user("go on"),
        said(BEDROCK, "Refactored."),
    ];
    let want = Expect::paired("bedrock-tool-result-count", &[4]);
    check(&late, &wrapped[1], &want);
}

#[test]
fn mistral_count_and_id_errors() {
    let (a, b) = ("Xk3m9Qp2T", "Bv7nR4s1W");
    let count = [
        user("why does the invoice table overflow?"),
        calls(MISTRAL, None, &[(a, "read"), (b, "read")]),
        result(a, "read", "table { width: 120%; }"),
        said(MISTRAL, "The table is 120% wide."),
        user("fix it"),
        said(MISTRAL, "Set to 100%."),
    ];
    let error = mistral_envelope(
        "Not the same number of function calls and responses",
        "invalid_request_error",
        "null",
    );
    let want = Expect::paired("mistral-tool-call-count", &[1]);
    check(&count, &error, &want);
    let foreign = "call_abc|fc_123";
    let ids = [
        user("why does the invoice table overflow?"),
        calls(CODEX, None, &[(foreign, "read")]),
        result(foreign, "read", "table { width: 120%; }"),
        said(CODEX, "The table is 120% wide."),
        user("fix it"),
        said(MISTRAL, "Set to 100%."),
    ];
    let text = format!("Tool call id was {foreign} but must be a-z, A-Z, 0-9, with a length of 9.");
    let want = Expect::fixed("mistral-tool-call-id-format", &[1, 2], "tool-call-id");
    let doc = check(
        &ids,
        &mistral_envelope(&text, "invalid_function_call", "\"3280\""),
        &want,
    );
    assert_eq!(doc["explain"]["ids"], json!([foreign]));
}

#[test]
fn mistral_tool_after_user_is_avoided() {
    let id = "Xk3m9Qp2T";
    let session = [
        user("why does the invoice table overflow?"),
        calls(MISTRAL, None, &[(id, "read")]),
        user("also check the print stylesheet"),
        result(id, "read", "table { width: 120%; }"),
        said(MISTRAL, "The table is 120% wide; print is fine."),
    ];
    let error = mistral_envelope(
        "Unexpected role 'tool' after role 'user'",
        "invalid_request_message_order",
        "\"3230\"",
    );
    let want = Expect::paired("mistral-tool-after-user", &[3]);
    let doc = check(&session, &error, &want);
    // Moving the late result puts a user turn after it, which nothing fixes.
    let summary = doc["explain"]["summary"].as_str().unwrap();
    assert!(
        summary.contains("still rejected for another reason (mistral-user-after-tool)"),
        "{summary}"
    );
}

/// A user turn right after a tool result: no hygiene rule inserts the assistant turn Mistral
/// wants in between, so the projection is rejected too.
fn user_after_tool() -> Vec<Value> {
    let id = "Xk3m9Qp2T";
    vec![
        user("why does the invoice table overflow?"),
        calls(MISTRAL, None, &[(id, "read")]),
        result(id, "read", "table { width: 120%; }"),
        user("also check the print stylesheet"),
        said(MISTRAL, "The print stylesheet is fine."),
    ]
}

#[test]
fn mistral_user_after_tool_is_not_avoided() {
    let error = mistral_envelope(
        "Unexpected role 'user' after role 'tool'",
        "invalid_request_message_order",
        "\"3230\"",
    );
    let want = Expect {
        constraint: "mistral-user-after-tool",
        stored: &[3],
        avoided: false,
        fixed_by: None,
    };
    let doc = check(&user_after_tool(), &error, &want);
    assert_eq!(doc["verdict"], "would be rejected");
}

#[test]
fn an_unrecognised_text_leaves_the_exit_status_to_the_lint() {
    let text =
        r#"{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT"}}"#;
    let clean = [user("hi"), said(GEMINI, "Hello.")];
    for (session, status) in [(clean.to_vec(), 0), (user_after_tool(), 1)] {
        let (doc, code) = explain(&session, text);
        let e = &doc["explain"];
        assert_eq!(e["message"], "Request contains an invalid argument.");
        assert!(
            e["constraint"].is_null() && e["provider"].is_null() && e["avoided"].is_null(),
            "{e:#}"
        );
        assert_eq!(e["stored"], json!([]));
        assert!(e["summary"].as_str().unwrap().contains("does not recognise"));
        assert_eq!(code, status, "{}", doc["verdict"]);
    }
}

#[test]
fn context_length_and_request_size_texts_are_recognised_for_every_family() {
    let clean = [user("hi"), said(GEMINI, "Hello.")];
    for (text, provider) in [
        (
            r#"{"error":{"message":"This model's maximum context length is 131072 tokens. However, you requested 140231 tokens (132231 in the messages, 8000 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","code":"invalid_request_error"}}"#,
            "OpenAI Chat Completions",
        ),
        (
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 215031 tokens > 200000 maximum"}}"#,
            "Anthropic",
        ),
        (
            "Your input exceeds the context window of this model. Please adjust your input and try again.",
            "OpenAI Responses",
        ),
        (
            "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
            "Gemini",
        ),
        (
            "ValidationException: Input is too long for requested model.",
            "Amazon Bedrock",
        ),
        (
            "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length",
            "Mistral",
        ),
        ("ollama error: context length exceeded", "Ollama"),
        (
            "This model's maximum prompt length is 131072 but the request contains 150000 tokens.",
            "xAI",
        ),
    ] {
        let (doc, code) = explain(&clean, text);
        let e = &doc["explain"];
        assert!(
            e["provider"].as_str().unwrap_or("").starts_with(provider),
            "{text}: {e:#}"
        );
        assert!(e["summary"].as_str().unwrap().contains("context length"), "{e:#}");
        assert_eq!(e["stored"], json!([]));
        assert_eq!(code, 0, "a clean session stays clean");
    }
    let (doc, _) = explain(&clean, "Request payload size exceeds the limit: 20971520 bytes.");
    assert_eq!(doc["explain"]["constraint"], "gemini-request-size");
    let out = lint(
        &clean,
        &["--explain", "This model's maximum context length is 131072 tokens."],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("recognised: OpenAI Chat Completions"), "{text}");
}

#[test]
fn the_text_form_names_the_stored_message() {
    let out = lint(
        &user_after_tool(),
        &["--explain", "Unexpected role 'user' after role 'tool'"],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("recognised: Mistral, constraint mistral-user-after-tool"),
        "{text}"
    );
    assert!(text.contains("stored messages: s3"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}

/// The pairing constraints whose errors name ids or an index.
const PAIRING: [&str; 6] = [
    "anthropic-tool-use-adjacency",
    "anthropic-tool-result-orphan",
    "openai-chat-tool-calls-answered",
    "openai-chat-tool-message-answers-call",
    "openai-responses-function-call-output",
    "openai-responses-function-call-output-orphan",
];

#[test]
fn every_pairing_finding_of_a_bundled_sample_pasted_back_is_located() {
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions/anthropic-tool-repair.jsonl");
    let mut seen = 0;
    for api in ["anthropic-messages", "openai-completions", "openai-responses"] {
        let target = ["--provider", "openai", "--api", api, "--model", "gpt-4.1"];
        let target = if api == "anthropic-messages" {
            &target[..0]
        } else {
            &target[..]
        };
        let stored = document(&run(
            &sample,
            &[target, &["--stage", "stored", "--format", "json"]].concat(),
        ));
        for f in findings(&stored, "stored") {
            let constraint = f["constraint"].as_str().unwrap();
            if !PAIRING.contains(&constraint) {
                continue;
            }
            let message = f["message"].as_str().unwrap();
            // The lint's Chat paths count payload items; the provider also counts the system prompt.
            let error = match f["path"].as_str().unwrap().strip_prefix("messages.[") {
                Some(rest) => {
                    let n: usize = rest.split(']').next().unwrap().parse().unwrap();
                    openai_envelope(message, &format!("messages.[{}].role", n + 1))
                }
                None => message.to_string(),
            };
            let args = [target, &["--stage", "both", "--format", "json", "--explain", &error]].concat();
            let e = document(&run(&sample, &args))["explain"].clone();
            assert_eq!(e["constraint"], constraint, "{error}");
            let blamed: Vec<u64> = e["stored"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_u64().unwrap())
                .collect();
            let from = f["stored"].as_array().unwrap();
            assert!(
                !blamed.is_empty() && blamed.iter().all(|s| from.contains(&json!(s))),
                "{error}: {e:#}"
            );
            seen += 1;
        }
    }
    assert!(seen >= 8, "only {seen} pairing findings in the sample");
}
