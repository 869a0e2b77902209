//! Unit tests of the Claude Code mapping on small hand-written sessions.

use std::io::Write;

use crate::json;
use crate::model::json::Value;

use crate::load::{LoadOptions, load_path};
use crate::model::{Location, Role, Session, SessionFormat};

/// Load `lines` written as one JSONL file.
pub(super) fn load_lines(lines: &[Value]) -> Session {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    for l in lines {
        writeln!(file, "{l}").unwrap();
    }
    load_path(file.path(), &LoadOptions::default()).unwrap()
}

fn line(ty: &str, uuid: &str, parent: Option<&str>, extra: Value) -> Value {
    let mut v = json!({"type": ty, "uuid": uuid, "parentUuid": parent, "sessionId": "s1",
        "timestamp": "2026-05-01T09:00:00.000Z", "cwd": "/home/u/app", "isSidechain": false});
    for (k, x) in extra.as_object().unwrap() {
        v[k.as_str()] = x.clone();
    }
    v
}

fn assistant(uuid: &str, parent: &str, id: &str, block: Value, stop: Option<&str>) -> Value {
    line(
        "assistant",
        uuid,
        Some(parent),
        json!({"message": {"id": id, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [block], "stop_reason": stop, "usage": {"input_tokens": 4, "output_tokens": 80}}}),
    )
}

#[test]
fn one_response_written_as_several_lines_is_one_assistant_message() {
    let s = load_lines(&[
        line(
            "user",
            "u1",
            None,
            json!({"message": {"role": "user", "content": "why?"}}),
        ),
        assistant(
            "a1",
            "u1",
            "msg_A",
            json!({"type": "thinking", "thinking": "", "signature": "EpYB"}),
            None,
        ),
        assistant(
            "a2",
            "a1",
            "msg_A",
            json!({"type": "tool_use", "id": "toolu_B", "name": "Bash", "input": {"command": "ls"}}),
            Some("tool_use"),
        ),
        line(
            "user",
            "u2",
            Some("a2"),
            json!({"message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_B", "content": "a.txt", "is_error": true},
            {"type": "text", "text": "and then?"}]}}),
        ),
    ]);
    assert_eq!(s.format, SessionFormat::ClaudeCodeJsonl);
    assert_eq!(s.id, "s1");
    let mapped = s.mapped.as_ref().unwrap();
    let roles: Vec<Role<'_>> = mapped.messages.iter().map(|m| m.message.role()).collect();
    assert_eq!(roles, [Role::User, Role::Assistant, Role::ToolResult, Role::User]);
    let reply = &mapped.messages[1];
    assert_eq!(reply.sources, [Location::Line(2), Location::Line(3)]);
    assert_eq!(
        reply.message.get("content"),
        Some(&json!([
            {"type": "thinking", "thinking": "", "thinkingSignature": "EpYB"},
            {"type": "toolCall", "id": "toolu_B", "name": "Bash", "arguments": {"command": "ls"}}
        ]))
    );
    assert_eq!(reply.message.str_field("stopReason"), Some("toolUse"));
    assert_eq!(reply.message.str_field("api"), Some("anthropic-messages"));
    let result = &mapped.messages[2].message;
    assert_eq!(result.str_field("toolCallId"), Some("toolu_B"));
    assert_eq!(result.str_field("toolName"), Some("Bash"));
    assert_eq!(result.get("isError"), Some(&json!(true)));
    assert_eq!(mapped.messages[3].sources, [Location::Line(4)]);
    assert_eq!(mapped.cwd.as_deref(), Some("/home/u/app"));
    assert_eq!(mapped.model.model.as_deref(), Some("claude-sonnet-4-5"));
}

#[test]
fn a_rewind_keeps_the_latest_branch_only() {
    let s = load_lines(&[
        line(
            "user",
            "u1",
            None,
            json!({"message": {"role": "user", "content": "first"}}),
        ),
        assistant(
            "a1",
            "u1",
            "msg_1",
            json!({"type": "text", "text": "reply"}),
            Some("end_turn"),
        ),
        line(
            "user",
            "old",
            Some("a1"),
            json!({"message": {"role": "user", "content": "abandoned"}}),
        ),
        line(
            "user",
            "new",
            Some("a1"),
            json!({"message": {"role": "user", "content": "edited"}}),
        ),
    ]);
    let t = s.transcript();
    let texts: Vec<String> = t.messages.iter().map(|m| m.message.text()).collect();
    assert_eq!(texts, ["first", "reply", "edited"]);
    assert!(t.diagnostics.iter().any(|d| d.location == Some(Location::Line(3))));
}

#[test]
fn synthetic_api_errors_are_failed_turns_and_unknown_blocks_are_kept() {
    let s = load_lines(&[
        line(
            "user",
            "u1",
            None,
            json!({"message": {"role": "user", "content": "hi"}}),
        ),
        line(
            "assistant",
            "a1",
            Some("u1"),
            json!({"isApiErrorMessage": true, "message": {"id": "x", "role": "assistant",
            "model": "<synthetic>", "content": [{"type": "text", "text": "API Error: 529 overloaded"}]}}),
        ),
        assistant(
            "a2",
            "a1",
            "msg_2",
            json!({"type": "server_tool_use", "id": "srv_1", "name": "web_search"}),
            Some("end_turn"),
        ),
    ]);
    let m = &s.mapped.as_ref().unwrap().messages;
    assert_eq!(m[1].message.str_field("stopReason"), Some("error"));
    assert_eq!(
        m[1].message.str_field("errorMessage"),
        Some("API Error: 529 overloaded")
    );
    assert_eq!(
        m[2].message.get("content"),
        Some(&json!([{"type": "server_tool_use", "id": "srv_1", "name": "web_search"}]))
    );
    assert_eq!(s.transcript().model.model.as_deref(), Some("claude-sonnet-4-5"));
    assert!(
        s.transcript()
            .diagnostics
            .iter()
            .any(|d| d.location == Some(Location::Line(3)) && d.message.starts_with("`server_tool_use` block: "))
    );
}

#[test]
fn images_map_to_openclaw_image_blocks() {
    let s = load_lines(&[line(
        "user",
        "u1",
        None,
        json!({"message": {"role": "user", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
            {"type": "text", "text": "what is this?"}]}}),
    )]);
    let m = &s.mapped.as_ref().unwrap().messages[0].message;
    assert_eq!(
        m.get("content"),
        Some(&json!([
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            {"type": "text", "text": "what is this?"}
        ]))
    );
}

#[test]
fn thousands_of_lines_of_one_response_merge_without_comparing_every_pair() {
    let n = 4_000;
    let mut lines = vec![line(
        "user",
        "u0",
        None,
        json!({"message": {"role": "user", "content": "go"}}),
    )];
    for i in 0..n {
        let parent = if i == 0 { "u0".to_owned() } else { format!("a{}", i - 1) };
        let block = json!({"type": "tool_use", "id": format!("toolu_{i}"), "name": "Bash", "input": {"command": format!("ls {i}")}});
        lines.push(assistant(&format!("a{i}"), &parent, "msg_1", block, None));
    }
    // The same block written twice (Claude Code repeats a line on resume) is kept once.
    lines.push(assistant(
        "again",
        &format!("a{}", n - 1),
        "msg_1",
        json!({"type": "tool_use", "id": "toolu_7", "name": "Bash", "input": {"command": "ls 7"}}),
        Some("tool_use"),
    ));
    super::messages::COMPARED.with(|c| c.set(0));
    let s = load_lines(&lines);
    let compared = super::messages::COMPARED.with(std::cell::Cell::get);
    let assistant = &s.mapped.as_ref().unwrap().messages[1].message;
    assert_eq!(assistant.as_map()["content"].as_array().unwrap().len(), n);
    assert_eq!(assistant.str_field("stopReason"), Some("toolUse"));
    // Each new block is compared only with blocks of the same hash: about one comparison in
    // all, where comparing with every earlier block took n²/2 = 8 million.
    assert!(compared <= 10, "{compared} comparisons");
}
