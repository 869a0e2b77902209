//! Unit tests for the item mappers, on hand-written items.

use crate::json;
use crate::model::json::{Map, Value};

use super::items::*;

fn obj(v: Value) -> Map {
    match v {
        Value::Object(m) => m,
        other => panic!("test item is not an object: {other}"),
    }
}

#[test]
fn classifies_every_era_and_drift_spelling() {
    let kind = |v: Value| format!("{:?}", classify(&obj(v)));
    assert_eq!(
        kind(json!({"type": "message", "role": "user"})),
        "UserMessage { developer: false }"
    );
    assert_eq!(
        kind(json!({"role": "developer", "content": []})),
        "UserMessage { developer: true }"
    );
    assert_eq!(
        kind(json!({"type": "message", "role": "system"})),
        "UserMessage { developer: true }"
    );
    assert_eq!(kind(json!({"role": "assistant", "content": "x"})), "AssistantMessage");
    assert_eq!(kind(json!({"type": "message", "role": "tool"})), "OtherRole(\"tool\")");
    assert_eq!(kind(json!({"type": "message"})), "OtherRole(\"\")");
    assert_eq!(kind(json!({"type": "tool_call"})), "FunctionCall");
    assert_eq!(kind(json!({"type": "function_result"})), "Output");
    assert_eq!(kind(json!({"type": "tool_result"})), "Output");
    assert_eq!(kind(json!({"type": "custom_tool_call_output"})), "Output");
    assert_eq!(kind(json!({"type": "ghost_snapshot"})), "Unmapped(\"ghost_snapshot\")");
    assert_eq!(kind(json!({"type": 7})), "Unmapped(\"\")");
    assert_eq!(kind(json!({"payload": {}})), "Unmapped(\"\")");
}

#[test]
fn reasoning_becomes_thinking_signed_with_the_whole_item() {
    let stored = r#"{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"**Plan**"},{"type":"summary_text","text":"then act"}],"content":null,"encrypted_content":"gAAA=="}"#;
    let item: Map = serde_json::from_str(stored).expect("test JSON");
    let block = thinking_block(&item);
    assert_eq!(
        serde_json::to_string(&block).expect("serializes"),
        format!(
            r#"{{"type":"thinking","thinking":"**Plan**\n\nthen act","thinkingSignature":{}}}"#,
            serde_json::to_string(stored).expect("serializes")
        )
    );
    let bare = thinking_block(&obj(json!({"type": "reasoning", "summary": "odd"})));
    assert_eq!(bare["thinking"], json!(""));
}

#[test]
fn assistant_text_is_one_block_with_a_v1_signature() {
    let item = obj(json!({
        "type": "message", "id": "msg_9", "role": "assistant", "phase": "final_answer",
        "content": [
            {"type": "output_text", "text": "Hello, "},
            {"type": "refusal", "refusal": "no."},
            {"type": "input_image", "image_url": null}
        ]
    }));
    let (block, kept) = assistant_text(&item);
    assert_eq!(
        serde_json::to_string(&block).expect("serializes"),
        r#"{"type":"text","text":"Hello, no.","textSignature":"{\"v\":1,\"id\":\"msg_9\",\"phase\":\"final_answer\"}"}"#
    );
    assert_eq!(kept.len(), 1);
    assert!(matches!(&kept[0], Part::Kept(v, k) if v["type"] == "input_image" && k == "`input_image` part"));

    let (block, kept) = assistant_text(&obj(json!({"role": "assistant", "content": "\"hola\""})));
    assert_eq!(block, json!({"type": "text", "text": "\"hola\""}));
    assert!(kept.is_empty());
    let (block, _) = assistant_text(&obj(json!({"role": "assistant", "id": "m", "phase": ""})));
    assert_eq!(block["textSignature"], json!(r#"{"v":1,"id":"m"}"#));
}

#[test]
fn user_parts_map_text_and_data_url_images_and_keep_the_rest() {
    let item = obj(json!({"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": "look"},
        {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0K", "detail": "auto"},
        {"type": "input_image", "image_url": "https://example.invalid/a.png"},
        {"type": "input_image", "image_url": {"url": "data:image/jpeg;base64,/9j/"}},
        {"type": "input_file", "file_id": "f"}
    ]}));
    let parts = message_parts(&item);
    assert_eq!(parts[0], Part::Block(json!({"type": "text", "text": "look"})));
    assert_eq!(
        parts[1],
        Part::Block(json!({"type": "image", "data": "iVBORw0K", "mimeType": "image/png"}))
    );
    assert_eq!(
        parts[2],
        Part::Kept(
            json!({"type": "input_image", "image_url": "https://example.invalid/a.png"}),
            IMAGE_WITHOUT_DATA.to_owned()
        )
    );
    assert_eq!(
        parts[3],
        Part::Block(json!({"type": "image", "data": "/9j/", "mimeType": "image/jpeg"}))
    );
    assert!(matches!(&parts[4], Part::Kept(_, k) if k == "`input_file` part"));

    let drift = message_parts(&obj(json!({"role": "user", "message": "Translate"})));
    assert_eq!(drift, vec![Part::Block(json!({"type": "text", "text": "Translate"}))]);
    assert!(message_parts(&obj(json!({"role": "user", "content": 5}))).is_empty());
}

#[test]
fn data_urls_need_a_mime_type_and_base64() {
    assert!(data_url_image("data:image/gif;base64,R0lG").is_some());
    assert!(data_url_image("data:image/svg+xml;utf8,<svg/>").is_none());
    assert!(data_url_image("data:;base64,AAAA").is_none());
    assert!(data_url_image("data:image/png;base64").is_none());
    assert!(data_url_image("http://x/data:image/png;base64,AAAA").is_none());
}

#[test]
fn function_calls_parse_their_arguments_or_fall_back_to_an_empty_object() {
    let item = obj(
        json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "shell", "arguments": "{\"command\":[\"ls\"]}"}),
    );
    let parts = call_parts(classify(&item), &item);
    assert_eq!(parts.call_id, Some("call_1"));
    assert_eq!(parts.item_id, Some("fc_1"));
    assert_eq!(parts.name, Some("shell"));
    assert_eq!(parts.arguments, json!({"command": ["ls"]}));
    assert!(!parts.guessed);
    assert_eq!(tool_call_id("call_1", Some("fc_1")), "call_1|fc_1");
    assert_eq!(tool_call_id("call_1", None), "call_1");

    for bad in [json!("[1,2]"), json!("{not json"), json!(null), json!(""), json!(3)] {
        let item = obj(json!({"type": "function_call", "call_id": "c", "name": "f", "arguments": bad}));
        let parts = call_parts(classify(&item), &item);
        assert_eq!(parts.arguments, json!({}), "{item:?}");
        assert!(parts.guessed);
    }

    let drift = obj(json!({"type": "tool_call", "function": {"name": "run"}, "arguments": {"cmd": "ls"}}));
    let parts = call_parts(classify(&drift), &drift);
    assert_eq!((parts.call_id, parts.name), (None, Some("run")));
    assert_eq!(parts.arguments, json!({"cmd": "ls"}));
    assert!(!parts.guessed);
}

#[test]
fn custom_and_local_shell_calls_carry_input_and_action() {
    let custom =
        obj(json!({"type": "custom_tool_call", "call_id": "c1", "name": "apply_patch", "input": "*** Begin Patch"}));
    let parts = call_parts(classify(&custom), &custom);
    assert_eq!(parts.arguments, json!({"input": "*** Begin Patch"}));
    assert!(!parts.guessed);
    let odd = obj(json!({"type": "custom_tool_call", "call_id": "c1", "name": "x", "input": {"a": 1}}));
    let parts = call_parts(classify(&odd), &odd);
    assert_eq!(parts.arguments, json!({"input": {"a": 1}}));
    assert!(parts.guessed);

    let shell = obj(
        json!({"type": "local_shell_call", "id": "lsh_1", "call_id": "c2", "status": "completed",
        "action": {"type": "exec", "command": ["ls", "-la"], "timeout_ms": 1000}}),
    );
    let parts = call_parts(classify(&shell), &shell);
    assert_eq!(parts.name, Some("local_shell"));
    assert_eq!(parts.arguments["command"], json!(["ls", "-la"]));
    assert_eq!(
        tool_call_block("c2|lsh_1", "local_shell", parts.arguments.clone())["id"],
        json!("c2|lsh_1")
    );
}

#[test]
fn outputs_map_strings_arrays_single_parts_and_other_values() {
    let text = |s: &str| Part::Block(json!({"type": "text", "text": s}));
    assert_eq!(output_parts(&json!("ok")), vec![text("ok")]);
    assert_eq!(
        output_parts(
            &json!([{"type": "input_text", "text": "a"}, {"type": "output_text", "text": "b"},
            {"type": "encrypted_content", "encrypted_content": "z"}])
        )[..2],
        [text("a"), text("b")]
    );
    assert!(matches!(
        &output_parts(&json!([{"type": "encrypted_content"}]))[0],
        Part::Kept(_, k) if k == "`encrypted_content` part"
    ));
    assert_eq!(
        output_parts(&json!({"type": "input_text", "text": "a.txt\n", "image_url": null})),
        vec![text("a.txt\n")]
    );
    assert_eq!(
        output_parts(&json!({"stdout": "x", "exitCode": 0})),
        vec![text(r#"{"stdout":"x","exitCode":0}"#)]
    );
    assert_eq!(output_parts(&json!(12)), vec![text("12")]);

    let drift = obj(json!({"type": "function_result", "name": "t", "result": "hola"}));
    assert_eq!(output_value(&drift), Some(&json!("hola")));
    let none = obj(json!({"type": "function_call_output", "call_id": "c", "output": null}));
    assert_eq!(output_value(&none), None);
}

#[test]
fn environment_context_cwd_is_found_only_inside_the_block() {
    assert_eq!(
        environment_cwd("<environment_context>\n  <cwd>/Users/me/app</cwd>\n</environment_context>"),
        Some("/Users/me/app")
    );
    assert_eq!(environment_cwd("<cwd>/elsewhere</cwd>"), None);
    assert_eq!(environment_cwd("<environment_context><cwd>  </cwd>"), None);
    assert_eq!(environment_cwd("<environment_context><cwd>/x"), None);
}

#[test]
fn zero_usage_has_openclaw_key_order() {
    assert_eq!(
        serde_json::to_string(&zero_usage()).expect("serializes"),
        r#"{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}"#
    );
}
