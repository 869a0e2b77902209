//! Expectations taken from OpenClaw 2026.9.6: `oracle_cases.json` holds hand-made message
//! arrays (tool calls and results, images, signed / unsigned / redacted thinking, failed turns,
//! other models' turns, runtime-context carriers, Opus 5 prefill, the empty list) with the
//! `messages` array `oracle/openclaw_payload.mjs` captured for each (thinking level `medium`, or
//! `off` where `reasoning` is false; cache retention `short` unless the case says otherwise).

use crate::json;

use super::{AnthropicOptions, convert, convert_with};
use crate::wire::test_support::{OracleCase, assert_matches_every_case, oracle_cases, prepared, values};
use crate::wire::{WireApi, WireItem, WireModel};

fn cases() -> Vec<OracleCase> {
    oracle_cases(include_str!("oracle_cases.json"), "anthropic-messages", 50)
}

fn build(messages: &[crate::model::json::Value], model: &WireModel, options: &AnthropicOptions) -> Vec<WireItem> {
    convert_with(&prepared(WireApi::AnthropicMessages, messages, model), model, options)
}

fn run(case: &OracleCase) -> Vec<WireItem> {
    let mut options = AnthropicOptions::for_model(&case.model);
    if case.raw["cacheRetention"] == "none" {
        options.cache_control = None;
    }
    build(&case.messages, &case.model, &options)
}

fn case(name: &str) -> OracleCase {
    cases().into_iter().find(|c| c.name == name).expect("case")
}

#[test]
fn every_oracle_case_matches_byte_for_byte() {
    assert_matches_every_case(&cases(), |case| values(&run(case)));
}

#[test]
fn oracle_set_covers_the_interesting_shapes() {
    let all: String = cases()
        .iter()
        .map(|c| serde_json::to_string(&c.expected).unwrap())
        .collect();
    for shape in [
        "\"tool_use\"",
        "\"tool_result\"",
        "\"redacted_thinking\"",
        "\"signature\":\"sig123\"",
        "\"media_type\":\"image/webp\"",
        "[assistant reasoning omitted]",
        "[This turn failed before it completed.",
        "No result provided",
        "(see attached image)",
        "(no output)",
        "(image omitted: model does not support images)",
        "Ran `ls`",
    ] {
        assert!(all.contains(shape), "no oracle case shows {shape}");
    }
}

/// The default settings are the oracle's: thinking replayed unless thinking is off, a
/// `{type:"ephemeral"}` cache breakpoint.
#[test]
fn convert_uses_the_default_request_settings() {
    let c = case("thinking-signed");
    let got = convert(&prepared(WireApi::AnthropicMessages, &c.messages, &c.model), &c.model);
    assert_eq!(values(&got), c.expected);
    let mandatory = WireModel {
        reasoning: false,
        thinking: false,
        ..WireModel::new("anthropic", "anthropic-messages", "claude-fable-5")
    };
    assert!(
        AnthropicOptions::for_model(&mandatory).replay_thinking,
        "Fable 5 always thinks"
    );
}

fn sources(name: &str) -> Vec<Vec<usize>> {
    run(&case(name)).into_iter().map(|i| i.source.to_vec()).collect()
}

#[test]
fn provenance_follows_merges_synthesis_and_drops() {
    // A synthesized result shares the user message of the real one: only the real one's index.
    assert_eq!(sources("tool-missing"), vec![vec![0], vec![1], vec![2], vec![3]]);
    // Consecutive results are one user message.
    assert_eq!(sources("consecutive-results"), vec![vec![0], vec![1], vec![2, 3, 4]]);
    // Custom roles become user turns and keep their index; `bashExecution` too.
    assert_eq!(
        sources("custom-roles"),
        vec![vec![0], vec![1], vec![2], vec![3], vec![4]]
    );
    // The Opus 5 prefill is cut, the failed turn's marker keeps its source.
    assert_eq!(sources("opus5-prefill"), vec![vec![0], vec![1], vec![2]]);
    assert_eq!(sources("error-text"), vec![vec![0], vec![1], vec![2]]);
    // The failed tool turn and its result are dropped.
    assert_eq!(sources("error-toolcall"), vec![vec![0], vec![3]]);
    // An async result of another model's call moves back to its call.
    assert_eq!(sources("async-cross"), vec![vec![0], vec![1], vec![3], vec![2]]);
    // The empty conversation is one synthesized user message.
    assert_eq!(sources("empty"), vec![Vec::<usize>::new()]);
}

#[test]
fn cache_breakpoints_skip_runtime_context_and_mark_trailing_results() {
    let c = case("many-users");
    let got = run(&c);
    let marked: Vec<(usize, usize)> = got
        .iter()
        .enumerate()
        .flat_map(|(i, item)| {
            item.value["content"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
                .filter(|(_, b)| b.get("cache_control").is_some())
                .map(move |(j, _)| (i, j))
        })
        .collect();
    // The carriers (user turns 2 and 5) are skipped: the image of turn 1 and the result.
    assert_eq!(marked, vec![(1, 1), (4, 0)]);
    // Fable 5.1 binds thinking to the exact prefix: a carrier is kept in the cache prefix.
    let fable = run(&case("fable-carrier"));
    assert_eq!(
        fable[2].value["content"][0]["cache_control"],
        json!({"type": "ephemeral"})
    );
}

#[test]
fn string_tool_result_content_reads_no_output() {
    // Upstream walks a string content character by character and finds no block: on a
    // text-only model it sends `(no output)`; on a vision model the request fails
    // (`content.some is not a function`), and the same text is shown here.
    let nonvision = run(&case("tool-string-content-nonvision"));
    assert_eq!(nonvision[2].value["content"][0]["content"], json!("(no output)"));
    let model = WireModel::new("anthropic", "anthropic-messages", "claude-sonnet-4-6");
    let messages = [
        json!({"role": "user", "content": "q"}),
        json!({"role": "assistant", "content": [{"type": "toolCall", "id": "t1", "name": "read", "arguments": {}}],
               "provider": "anthropic", "api": "anthropic-messages", "model": "claude-sonnet-4-6", "stopReason": "toolUse"}),
        json!({"role": "toolResult", "toolCallId": "t1", "toolName": "read", "content": "text", "isError": false}),
    ];
    let got = build(&messages, &model, &AnthropicOptions::for_model(&model));
    assert_eq!(got[2].value["content"][0]["content"], json!("(no output)"));
}

#[test]
fn unsupported_image_formats_get_the_type_upstream_converts_to() {
    // A BMP is re-encoded to PNG; an unknown format is labelled JPEG (upstream re-encodes it).
    let mut bmp = Vec::new();
    image::DynamicImage::new_rgb8(2, 1)
        .write_to(&mut std::io::Cursor::new(&mut bmp), image::ImageFormat::Bmp)
        .unwrap();
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD.encode(&bmp);
    let img = super::images::normalize(&data, Some("image/bmp"));
    assert_eq!(img.media_type, "image/png");
    let png = base64::engine::general_purpose::STANDARD.decode(&img.data).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let tiff = base64::engine::general_purpose::STANDARD.encode(b"II*\0rest of a tiff");
    assert_eq!(
        super::images::normalize(&tiff, Some("image/tiff")).media_type,
        "image/jpeg"
    );
}
