//! `reference_cases.json` holds message arrays and the `messages` the plugin's
//! `convertMessages` returned for them: the compiled plugin code run under Node with
//! OpenClaw 2026.9.6's real plugin SDK (`describeToolResultMediaPlaceholder`,
//! `canonicalizeBase64`, `resolveClaudeModelIdentity`, `bindsClaudeThinkingPrefix`), bytes
//! base64-encoded as the AWS SDK serializes them, default cache retention.

use crate::json;

use super::*;
use crate::wire::test_support::{assert_matches_every_case, inputs, oracle_cases, values};

fn bedrock(id: &str) -> WireModel {
    WireModel::new("amazon-bedrock", "bedrock-converse-stream", id)
}

const SONNET: &str = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";

#[test]
fn matches_the_plugin_on_every_reference_case() {
    let cases = oracle_cases(include_str!("reference_cases.json"), "", 15);
    assert_matches_every_case(&cases, |case| values(&convert(&inputs(&case.messages), &case.model)));
}

#[test]
fn tool_result_runs_merge_into_one_user_message_traced_to_each_result() {
    let messages = [
        json!({"role": "assistant", "content": [{"type": "toolCall", "id": "a", "name": "x", "arguments": {}},
                                                {"type": "toolCall", "id": "b", "name": "y", "arguments": {}}]}),
        json!({"role": "toolResult", "toolCallId": "a", "toolName": "x", "content": [{"type": "text", "text": "1"}]}),
        json!({"role": "toolResult", "toolCallId": "b", "toolName": "y", "isError": true, "content": []}),
        json!({"role": "assistant", "content": [{"type": "text", "text": "done"}]}),
    ];
    let items = convert(&inputs(&messages), &bedrock(SONNET));
    assert_eq!(
        items.iter().map(|i| i.source.to_vec()).collect::<Vec<_>>(),
        [vec![0], vec![1, 2], vec![3]]
    );
    assert_eq!(
        items[1].value["content"][1],
        json!({"toolResult": {"toolUseId": "b", "content": [{"text": "(no output)"}], "status": "error"}})
    );
}

#[test]
fn images_the_plugin_would_reject_keep_their_shape() {
    let messages = [json!({"role": "user", "content": [
        {"type": "image", "mimeType": "image/bmp", "data": "Qk0="},
        {"type": "image", "mimeType": "image/png", "data": "not base64!"}
    ]})];
    let items = convert(&inputs(&messages), &bedrock("meta.llama3-70b-instruct-v1:0"));
    assert_eq!(
        items[0].value["content"],
        json!([
            {"image": {"source": {"bytes": "Qk0="}}},
            {"image": {"source": {"bytes": "not base64!"}, "format": "png"}}
        ])
    );
}

#[test]
fn bytes_are_the_canonical_base64_of_the_data() {
    assert_eq!(bytes(" QU\nJD\t"), "QUJD");
    assert_eq!(bytes("QUI"), "QUI=");
    assert_eq!(bytes("QR=="), "QR==");
}
