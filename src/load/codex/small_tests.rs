//! Tests on the CLI 0.146 sample (`agent-sessions/small.jsonl`): its first window (ids,
//! signatures, call pairing), its six `compacted` lines, and `developer` messages.

use crate::json;
use crate::model::json::Value;

use super::tests::{content, has_note, load, load_head, mapped, roles};
use crate::model::{Location, Severity};

#[test]
fn first_window_of_small_maps_ids_signatures_and_pairs() {
    let Some(s) = load_head("agent-sessions/small.jsonl", 25) else {
        return;
    };
    let m = mapped(&s);
    assert_eq!(roles(m), ["user", "assistant", "toolResult", "toolResult", "assistant"]);
    assert_eq!(m.messages[0].entry_id.as_deref(), Some("msg-1"));
    assert_eq!(content(m, 0)[0], json!({"type": "text", "text": "List the files"}));
    assert_eq!(
        content(m, 0)[1]["type"],
        "input_image",
        "an image without data is kept as stored"
    );

    let turn = content(m, 1);
    assert_eq!(m.messages[1].entry_id.as_deref(), Some("rs-1"));
    assert_eq!(
        m.messages[1].sources,
        [Location::Line(7), Location::Line(9), Location::Line(10)]
    );
    assert_eq!(turn[0]["type"], "thinking");
    let signature: Value = serde_json::from_str(turn[0]["thinkingSignature"].as_str().expect("string")).expect("JSON");
    assert_eq!(signature, s.entries[6].raw["payload"]);
    assert_eq!(turn[1]["id"], "call-1|fc-1");
    assert_eq!(turn[1]["arguments"], json!({"input": "{\"command\":[\"ls\"]}"}));
    assert_eq!(turn[2]["id"], "call-2|fn-1");
    assert_eq!(turn[2]["arguments"], json!({"command": ["ls"]}));
    assert_eq!(m.messages[1].message.model(), Some("gpt-5.6-luna"));

    assert_eq!(m.messages[2].message.tool_call_id(), Some("call-2|fn-1"));
    assert_eq!(m.messages[2].message.text(), "a.txt\n");
    assert_eq!(m.messages[3].message.tool_call_id(), Some("call-1|fc-1"));
    assert_eq!(m.messages[3].message.tool_name(), Some("shell"));
    assert_eq!(m.messages[3].message.text(), "a.txt\nb.txt\n");

    let text = &content(m, 4)[0];
    assert_eq!(text["text"], "Found 2 files.");
    assert_eq!(text["textSignature"], r#"{"v":1,"id":"msg-2","phase":"output"}"#);
    assert!(has_note(m, Severity::Note, "line 14: `web_search_call` item:"));
    assert!(has_note(m, Severity::Note, "line 12: `tool_search_call` item:"));
}

#[test]
fn compacted_replacement_history_replaces_the_transcript() {
    let Some(s) = load_head("agent-sessions/small.jsonl", 26) else {
        return;
    };
    let m = mapped(&s);
    assert_eq!(roles(m), ["user"]);
    assert_eq!(m.messages[0].entry_id.as_deref(), Some("msg-0"));
    assert_eq!(m.messages[0].sources, [Location::Line(26)]);
    let c = m.compaction.as_ref().expect("compaction applied");
    assert_eq!((c.kind, c.entries_cut, m.branch_len), ("compaction", 7, 8));

    let Some(s) = load("agent-sessions/small.jsonl") else {
        return;
    };
    let m = mapped(&s);
    assert_eq!(s.id, "019fc8be-3658-7ca3-9e29-000000000000");
    assert_eq!(m.messages.len(), 14);
    assert!(
        m.messages[..12]
            .iter()
            .all(|x| x.sources == [Location::Line(111)] && x.message.is_user())
    );
    assert_eq!(roles(m)[12..], ["assistant", "toolResult"]);
    let call = &content(m, 12)[0];
    assert_eq!(call["arguments"], json!({}), "`arguments: null` falls back to {{}}");
    assert_eq!(m.messages[13].message.tool_call_id(), call["id"].as_str());
    let c = m.compaction.as_ref().expect("compaction applied");
    assert_eq!((c.entries_cut, m.branch_len), (17, 20));
    assert!(has_note(
        m,
        Severity::Note,
        "`compacted` line (applied) ×6 (line 26, line 47, line 69"
    ));
    assert!(has_note(
        m,
        Severity::Warning,
        "line 114: tool call whose `arguments` are not a JSON object:"
    ));
    assert!(has_note(
        m,
        Severity::Note,
        "`ghost_snapshot` item ×25 (line 80, line 81)"
    ));
    assert!(has_note(m, Severity::Note, "further `session_meta` line ×6"));
}

#[test]
fn developer_messages_become_user_turns_with_one_note() {
    let Some(s) = load("agent-sessions/small.jsonl") else {
        return;
    };
    let m = mapped(&s);
    let notes: Vec<_> = m
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("`developer`/`system` message mapped to a user turn"))
        .collect();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].severity, Severity::Note);
    assert!(
        notes[0]
            .message
            .starts_with("`developer`/`system` message mapped to a user turn ×8 (line 47, line 89, line 98, line 111)")
    );
    assert!(notes[0].message.contains("developer input"));
    let developer = &s.entries[110].raw["payload"]["replacement_history"][7];
    assert_eq!(developer["role"], "developer");
    assert!(m.messages[7].message.is_user());
    assert_eq!(
        m.messages[7].message.block_count(),
        developer["content"].as_array().map_or(0, |a| a.len())
    );
    assert_eq!(m.model.model.as_deref(), Some("gpt-5.6-sol"));
    assert_eq!(m.model.provider.as_deref(), Some("openai"));
    assert_eq!(m.cwd.as_deref(), Some("/tmp/repo"));
}
