//! Tests of the walk on hand-written rollouts, mapped through [`super::map`].

use crate::json;
use crate::model::json::Value;

use super::tests::located;

use crate::model::{Entry, Location, Mapped, Session, SessionFormat, Severity};

fn mapped(lines: Vec<Value>) -> (Session, Mapped) {
    let mut s = Session::new("rollout-test.jsonl", SessionFormat::CodexRollout, "rollout-test");
    for (i, raw) in lines.into_iter().enumerate() {
        s.entries.push(Entry::from_stored(Location::Line(i + 1), raw));
    }
    let before: Vec<Value> = s.entries.iter().map(|e| e.raw.clone()).collect();
    super::map(&mut s);
    let after: Vec<Value> = s.entries.iter().map(|e| e.raw.clone()).collect();
    assert_eq!(before, after, "stored lines are never changed");
    let m = s.mapped.clone().expect("mapped");
    (s, m)
}

fn item(ts: &str, payload: Value) -> Value {
    json!({"timestamp": ts, "type": "response_item", "payload": payload})
}

fn roles(m: &Mapped) -> Vec<&str> {
    m.messages.iter().map(|m| m.message.role().as_str()).collect()
}

#[test]
fn developer_input_images_local_shell_and_summary_compaction() {
    let t = "2026-02-03T10:00:01.000Z";
    let (s, m) = mapped(vec![
        json!({"timestamp": t, "type": "session_meta", "payload": {"session_id": "s-1", "cwd": "/w", "model_provider": "azure"}}),
        json!({"timestamp": t, "type": "turn_context", "payload": {"cwd": "/other", "model": "gpt-a"}}),
        item(
            t,
            json!({"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "be brief"}]}),
        ),
        item(
            t,
            json!({"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "see"},
            {"type": "input_image", "image_url": "data:image/png;base64,AAAA"},
            {"type": "input_image", "image_url": "https://example.invalid/x.png"}]}),
        ),
        item(
            t,
            json!({"type": "local_shell_call", "id": "lsh_1", "call_id": "c1", "status": "completed",
            "action": {"type": "exec", "command": ["ls"]}}),
        ),
        item(
            t,
            json!({"type": "function_call_output", "call_id": "c1", "output": [
            {"type": "input_text", "text": "ok"}, {"type": "input_image", "image_url": "data:image/jpeg;base64,/9j/"}]}),
        ),
        json!({"timestamp": "2026-02-03T10:00:05.000Z", "type": "turn_context", "payload": {"model": "gpt-b"}}),
        json!({"timestamp": "2026-02-03T10:00:06.000Z", "type": "compacted", "payload": {"message": "SUMMARY"}}),
        item(
            "2026-02-03T10:00:07.000Z",
            json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]}),
        ),
    ]);
    assert_eq!(s.id, "s-1");
    assert_eq!(m.model.provider.as_deref(), Some("azure"));
    assert_eq!(m.model.model.as_deref(), Some("gpt-b"));
    assert_eq!(
        m.cwd.as_deref(),
        Some("/w"),
        "session_meta's cwd wins over turn_context's"
    );
    assert_eq!(roles(&m), ["user", "assistant"]);
    assert_eq!(m.messages[0].message.text(), "SUMMARY");
    assert_eq!(m.messages[0].sources, [Location::Line(8)]);
    assert_eq!(m.messages[1].message.model(), Some("gpt-b"));
    assert_eq!(m.messages[1].message.provider(), Some("azure"));
    let c = m.compaction.as_ref().expect("compaction");
    assert_eq!((c.entries_cut, m.branch_len), (4, 6));
    let notes: Vec<String> = m.diagnostics.iter().map(located).collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("line 3: `developer`/`system` message mapped to a user turn:"))
    );
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("line 4: `input_image` part without a `data:` URL:"))
    );
    assert!(m.diagnostics.iter().all(|d| d.severity == Severity::Note), "{notes:?}");
}

#[test]
fn the_transcript_before_a_summary_compaction_is_what_it_replaced() {
    let t = "2026-02-03T10:00:01.000Z";
    let (_, m) = mapped(vec![
        item(
            t,
            json!({"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "be brief"}]}),
        ),
        item(
            t,
            json!({"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "see"},
            {"type": "input_image", "image_url": "data:image/png;base64,AAAA"},
            {"type": "input_image", "image_url": "https://example.invalid/x.png"}]}),
        ),
        item(
            t,
            json!({"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "E"}),
        ),
        item(
            t,
            json!({"type": "local_shell_call", "id": "lsh_1", "call_id": "c1", "action": {"type": "exec", "command": ["ls"]}}),
        ),
        json!({"timestamp": t, "type": "event_msg", "payload": {"type": "exec_command_end"}}),
        item(
            t,
            json!({"type": "function_call_output", "call_id": "c1", "output": [
            {"type": "input_text", "text": "ok"}, {"type": "input_image", "image_url": "data:image/jpeg;base64,/9j/"}]}),
        ),
    ]);
    assert_eq!(roles(&m), ["user", "user", "assistant", "toolResult"]);
    assert_eq!(m.messages[0].message.text(), "be brief");
    let user = m.messages[1].message.content_array().expect("array");
    assert_eq!(
        user[1],
        json!({"type": "image", "data": "AAAA", "mimeType": "image/png"})
    );
    assert_eq!(
        user[2],
        json!({"type": "input_image", "image_url": "https://example.invalid/x.png"})
    );
    let turn = &m.messages[2];
    assert_eq!(turn.entry_id.as_deref(), Some("rs_1"));
    assert_eq!(turn.sources, [Location::Line(3), Location::Line(4)]);
    let blocks = turn.message.content_array().expect("array");
    assert_eq!(blocks[0]["thinking"], "");
    assert_eq!(
        blocks[1],
        json!({"type": "toolCall", "id": "c1|lsh_1", "name": "local_shell",
            "arguments": {"type": "exec", "command": ["ls"]}})
    );
    assert_eq!(turn.message.model(), Some("unknown"));
    assert_eq!(turn.message.provider(), Some("openai"));
    assert_eq!(turn.message.timestamp_ms(), Some(1_770_112_801_000.0));
    let result = &m.messages[3].message;
    assert_eq!(result.tool_call_id(), Some("c1|lsh_1"));
    assert_eq!(result.tool_name(), Some("local_shell"));
    assert_eq!(result.content_array().expect("array")[1]["type"], "image");
    assert_eq!(
        serde_json::to_string(result).expect("serializes"),
        r#"{"role":"toolResult","toolCallId":"c1|lsh_1","toolName":"local_shell","content":[{"type":"text","text":"ok"},{"type":"image","data":"/9j/","mimeType":"image/jpeg"}],"isError":false,"timestamp":1770112801000}"#
    );
    assert!(m.compaction.is_none());
    assert_eq!(m.branch_len, 5);
    assert_eq!(m.model.model, None);
}

#[test]
fn odd_shapes_never_panic_and_are_reported() {
    let (s, m) = mapped(vec![
        json!({"timestamp": 5, "type": "response_item", "payload": "text"}),
        json!({"timestamp": "soon", "type": "response_item", "payload": {"type": "function_call", "call_id": "c", "arguments": "{bad"}}),
        json!({"type": "compacted", "payload": {"replacement_history": [1, {"type": "message", "role": "assistant", "content": 3}], "message": 7}}),
        json!({"type": "compacted", "payload": {"replacement_history": null, "message": null}}),
        json!({"type": "response_item", "payload": {"type": "custom_tool_call_output", "output": null}}),
        json!({"type": "response_item", "payload": {"type": "message", "role": "tool", "content": []}}),
        json!({"type": "response_item", "payload": {"type": "custom_tool_call", "call_id": "c2", "name": "x"}}),
        json!({"type": "event_msg", "payload": []}),
        json!({"unknown": true}),
        json!({"record_type": "state"}),
        json!({"type": [1], "payload": {}}),
    ]);
    assert_eq!(s.id, "rollout-test");
    assert_eq!(roles(&m), ["user", "toolResult", "assistant"]);
    assert_eq!(m.messages[0].message.text(), "");
    assert_eq!(m.messages[1].message.tool_call_id(), Some("call_line5"));
    assert_eq!(m.messages[1].message.text(), "");
    let warnings: Vec<String> = m
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(located)
        .collect();
    for expected in [
        "line 1: `response_item` line whose `payload` is not an object:",
        "line 2: tool call without a name:",
        "line 2: tool call whose `arguments` are not a JSON object:",
        "line 2: line with an unreadable `timestamp`:",
        "line 3: `replacement_history` entry that is not an object:",
        "line 4: `compacted` line with neither `replacement_history` nor a summary:",
        "line 5: tool output without `output`:",
        "line 5: tool output for no earlier call:",
        "line 7: `custom_tool_call` without a string `input`:",
    ] {
        assert!(
            warnings.iter().any(|w| w.starts_with(expected)),
            "{expected}\n{warnings:#?}"
        );
    }
    let notes: Vec<String> = m.diagnostics.iter().map(located).collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("line 6: `message` item with role `tool`:"))
    );
    assert!(notes.iter().any(|n| n.starts_with("line 9: unrecognised line:")));
    assert!(notes.iter().any(|n| n.starts_with("line 11: untyped item:")));
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("line 10: bare-era `record_type` line:"))
    );
    assert!(notes.iter().any(|n| n.contains("by type: (untyped) ×1")));
}
