//! Unit tests of parallel tool-call groups, sent attachments and empty stubs.

use crate::json;
use crate::model::json::Value;

use crate::model::{Location, Role, Session, SessionFormat};

use super::tests::load_lines;

fn line(ty: &str, uuid: &str, parent: Option<&str>, extra: Value) -> Value {
    let mut v = json!({"type": ty, "uuid": uuid, "parentUuid": parent, "sessionId": "s1",
        "timestamp": "2026-05-01T09:00:00.000Z", "isSidechain": false});
    for (k, x) in extra.as_object().unwrap() {
        v[k.as_str()] = x.clone();
    }
    v
}

fn call(uuid: &str, parent: &str, id: &str) -> Value {
    line(
        "assistant",
        uuid,
        Some(parent),
        json!({"message": {"id": "msg_P", "role": "assistant", "model": "claude-opus-4-6",
            "content": [{"type": "tool_use", "id": id, "name": "Read", "input": {}}], "stop_reason": "tool_use"}}),
    )
}

fn result(uuid: &str, parent: &str, id: &str) -> Value {
    line(
        "user",
        uuid,
        Some(parent),
        json!({"message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": id}]}}),
    )
}

fn prompt(uuid: &str, parent: Option<&str>, text: &str) -> Value {
    line(
        "user",
        uuid,
        parent,
        json!({"message": {"role": "user", "content": text}}),
    )
}

fn shape(s: &Session) -> Vec<String> {
    s.mapped
        .as_ref()
        .unwrap()
        .messages
        .iter()
        .map(|m| match m.message.role() {
            Role::ToolResult => format!("result {}", m.message.tool_call_id().unwrap_or_default()),
            Role::Assistant => format!(
                "assistant ×{}",
                m.message
                    .get("content")
                    .and_then(Value::as_array)
                    .map_or(0, |c| c.len())
            ),
            _ => format!("user {}", m.message.text()),
        })
        .collect()
}

#[test]
fn each_parallel_result_hanging_from_its_own_call_line_is_on_the_branch() {
    // Claude Code 2.1.x: c1 → c2 → c3 chained, each result hanging from its own call, written
    // out of order; the next prompt hangs from the last result written (r2).
    let s = load_lines(&[
        prompt("u1", None, "go"),
        call("c1", "u1", "t1"),
        call("c2", "c1", "t2"),
        call("c3", "c2", "t3"),
        result("r3", "c3", "t3"),
        result("r1", "c1", "t1"),
        result("r2", "c2", "t2"),
        prompt("u2", Some("r2"), "next"),
    ]);
    assert_eq!(
        shape(&s),
        [
            "user go",
            "assistant ×3",
            "result t3",
            "result t1",
            "result t2",
            "user next"
        ]
    );
    let d = &s.mapped.as_ref().unwrap().diagnostics;
    assert!(
        d.iter()
            .any(|d| d.message.starts_with("3 line(s) of parallel tool calls")),
        "{d:?}"
    );
    assert!(!d.iter().any(|d| d.message.contains("off the active branch")), "{d:?}");
}

#[test]
fn a_leaf_on_the_first_call_brings_back_the_other_calls_and_results() {
    let s = load_lines(&[
        prompt("u1", None, "go"),
        call("c1", "u1", "t1"),
        call("c2", "c1", "t2"),
        result("r2", "c2", "t2"),
        result("r1", "c1", "t1"),
    ]);
    assert_eq!(shape(&s), ["user go", "assistant ×2", "result t2", "result t1"]);
}

#[test]
fn sidechain_and_rewound_lines_stay_off_the_branch() {
    let mut side = call("s1", "c1", "ts");
    side["isSidechain"] = json!(true);
    let mut side_result = result("sr", "c1", "ts");
    side_result["isSidechain"] = json!(true);
    let s = load_lines(&[
        prompt("u1", None, "go"),
        call("c1", "u1", "t1"),
        side,
        side_result,
        result("r1", "c1", "t1"),
        prompt("old", Some("r1"), "abandoned"),
        prompt("new", Some("r1"), "edited"),
    ]);
    assert_eq!(shape(&s), ["user go", "assistant ×1", "result t1", "user edited"]);
}

#[test]
fn queued_prompts_are_user_content_and_bookkeeping_attachments_are_noted() {
    let queued = line(
        "attachment",
        "q1",
        Some("r1"),
        json!({"attachment": {"type": "queued_command", "prompt": "also fix the README", "commandMode": "prompt"}}),
    );
    let hook = line(
        "attachment",
        "h1",
        Some("q1"),
        json!({"attachment": {"type": "hook_non_blocking_error", "hookName": "PostToolUse", "stderr": "x"}}),
    );
    let s = load_lines(&[
        prompt("u1", None, "go"),
        call("c1", "u1", "t1"),
        result("r1", "c1", "t1"),
        queued,
        hook,
        prompt("u2", Some("h1"), "thanks"),
    ]);
    let m = &s.mapped.as_ref().unwrap().messages;
    assert_eq!(m.len(), 5);
    assert_eq!(m[3].sources, [Location::Line(4)]);
    assert_eq!(
        m[3].message.get("content"),
        Some(
            &json!([{"type": "text", "text": "<system-reminder>\nThe user sent a new message while you were working:\nalso fix the README\n\nIMPORTANT: After completing your current task, you MUST address the user's message above. Do not ignore it.\n</system-reminder>"}])
        )
    );
    let d = &s.mapped.as_ref().unwrap().diagnostics;
    assert!(
        d.iter().any(|d| d.location == Some(Location::Line(5))
            && d.message.starts_with("`attachment/hook_non_blocking_error` line")),
        "{d:?}"
    );
}

#[test]
fn hook_output_is_sent_only_where_claude_code_sends_it() {
    let hook = |uuid: &str, parent: &str, event: &str, content: &str| {
        line(
            "attachment",
            uuid,
            Some(parent),
            json!({"attachment": {"type": "hook_success", "hookName": format!("{event}:x"), "hookEvent": event, "content": content}}),
        )
    };
    let s = load_lines(&[
        prompt("u1", None, "go"),
        hook("h1", "u1", "SessionStart", "branch main is dirty"),
        hook("h2", "h1", "PostToolUse", "formatted"),
        hook("h3", "h2", "UserPromptSubmit", ""),
    ]);
    assert_eq!(
        shape(&s),
        [
            "user go",
            "user <system-reminder>\nSessionStart:x hook success: branch main is dirty\n</system-reminder>"
        ]
    );
}

#[test]
fn a_teleported_from_stub_is_an_empty_claude_code_session() {
    let s = load_lines(&[json!({"type": "teleported-from", "remoteSessionId": "session_01ABC", "messageCount": 3})]);
    assert_eq!(s.format, SessionFormat::ClaudeCodeJsonl);
    let mapped = s.mapped.as_ref().unwrap();
    assert!(mapped.messages.is_empty());
    assert!(
        mapped
            .diagnostics
            .iter()
            .any(|d| d.message.starts_with("an empty Claude Code session")),
        "{:?}",
        mapped.diagnostics
    );
}
