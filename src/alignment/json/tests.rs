//! Unit tests of the JSON diff: changed paths only, context, elision, word marks.

use crate::json;

use super::*;

fn text(lines: &[Line]) -> Vec<String> {
    lines.iter().map(Line::to_text).collect()
}

#[test]
fn only_changed_paths_with_context() {
    let old = json!({"role": "toolResult", "toolCallId": "call_abc|fc_1", "toolName": "exec",
        "content": [{"type": "text", "text": "ok"}], "details": {"exitCode": 0}, "isError": false, "timestamp": 1});
    let new = json!({"role": "toolResult", "toolCallId": "callabcfc1", "toolName": "exec",
        "content": [{"type": "text", "text": "ok"}], "isError": false, "timestamp": 1});
    let o = Options {
        context: 1,
        ..Options::default()
    };
    assert_eq!(
        text(&diff(&old, &new, &o)),
        [
            "  role: \"toolResult\"",
            "- toolCallId: \"call_abc|fc_1\"",
            "+ toolCallId: \"callabcfc1\"",
            "  toolName: \"exec\"",
            "  content: [{\"type\":\"text\",\"text\":\"ok\"}]",
            "- details: {\"exitCode\":0}",
            "  isError: false",
        ]
    );
    assert!(diff(&old, &old, &o).is_empty(), "no change, no line");
    let none = Options {
        context: 0,
        ..Options::default()
    };
    assert_eq!(diff(&old, &new, &none).len(), 3, "context 0 keeps the changes only");
}

#[test]
fn array_elements_are_aligned_not_compared_by_index() {
    let old = json!({"content": [{"type": "text", "text": ""}, {"type": "toolCall", "id": "a", "name": "edit"}]});
    let new = json!({"content": [{"type": "toolCall", "id": "b", "name": "edit"}]});
    assert_eq!(
        text(&diff(&old, &new, &Options::default())),
        [
            "- content[0]: {\"type\":\"text\",\"text\":\"\"}",
            "  content[1→0].type: \"toolCall\"",
            "- content[1→0].id: \"a\"",
            "+ content[1→0].id: \"b\"",
            "  content[1→0].name: \"edit\"",
        ]
    );
    let merged = diff(
        &json!({"c": [1]}),
        &json!({"c": [1, {"type": "text"}]}),
        &Options::default(),
    );
    assert_eq!(text(&merged), ["  c[0]: 1", "+ c[1]: {\"type\":\"text\"}"]);
}

#[test]
fn changed_words_are_marked_and_long_text_elided() {
    let long = "lorem ipsum ".repeat(400);
    let old = json!({"text": format!("{long}the tax is rounded per line {long}")});
    let new = json!({"text": format!("{long}the tax is rounded once {long}")});
    let lines = text(&diff(&old, &new, &Options::default()));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("- text: \"… 4,7"), "{}", lines[0]);
    assert!(lines[0].contains("rounded [-per line-]"), "{}", lines[0]);
    assert!(lines[1].contains("rounded {+once+}"), "{}", lines[1]);
    assert!(!lines[1].contains("[-"), "the replay side marks additions only");
    assert!(
        lines[0].ends_with("lorem ipsum lorem ipsum lorem ipsum lor… 4,761 chars …\""),
        "{}",
        lines[0]
    );
    assert!(lines.iter().all(|l| l.chars().count() < 260), "{lines:?}");
    // A value replaced as a whole needs no marks.
    let ids = text(&diff(
        &json!({"id": "call_1|fc_1"}),
        &json!({"id": "call1fc1"}),
        &Options::default(),
    ));
    assert_eq!(ids, ["- id: \"call_1|fc_1\"", "+ id: \"call1fc1\""]);
    // Empty to text.
    let filled = text(&diff(
        &json!({"t": ""}),
        &json!({"t": "[empty content omitted]"}),
        &Options::default(),
    ));
    assert_eq!(filled, ["- t: \"\"", "+ t: \"[empty content omitted]\""]);
}

#[test]
fn long_values_and_listings_are_elided_with_their_length() {
    let big = json!({"details": {"diff": "x".repeat(5000)}, "role": "toolResult"});
    let lines = text(&listing(&big, Sign::Removed, &Options::default()));
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("- details: {\"diff\":\"xxx"), "{}", lines[0]);
    assert!(lines[0].contains("… 4,899 chars …"), "{}", lines[0]);
    assert_eq!(lines[1], "- role: \"toolResult\"");
    assert_eq!(thousands(4112), "4,112");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1_000_000), "1,000,000");
    // Odd keys are quoted; control characters stay JSON-escaped.
    let odd = text(&diff(
        &json!({"a b": "x\u{1b}"}),
        &json!({"a b": "y"}),
        &Options::default(),
    ));
    assert_eq!(odd, ["- [\"a b\"]: \"x\\u001b\"", "+ [\"a b\"]: \"y\""]);
}

#[test]
fn mostly_different_objects_are_replaced_whole() {
    let old = json!({"usage": {"input": 1, "output": 2, "cacheRead": 3, "totalTokens": 6}});
    let new = json!({"usage": {"input": 4, "output": 5, "cacheRead": 6, "totalTokens": 15}});
    assert_eq!(
        text(&diff(&old, &new, &Options::default())),
        [
            "- usage: {\"input\":1,\"output\":2,\"cacheRead\":3,\"totalTokens\":6}",
            "+ usage: {\"input\":4,\"output\":5,\"cacheRead\":6,\"totalTokens\":15}",
        ]
    );
}

#[test]
fn thousands_of_rewritten_blocks_pair_in_order_in_linear_work() {
    // Every tool call of a turn with its id rewritten: one run replaced by another.
    let n = 5_000;
    let call = |id: String, k: usize| json!({"type": "toolCall", "id": id, "name": "read", "arguments": {"path": format!("f{k}")}});
    let old =
        json!({"role": "assistant", "content": (0..n).map(|k| call(format!("toolu_{k}"), k)).collect::<Vec<_>>()});
    let new = json!({"role": "assistant", "content": (0..n).map(|k| call(format!("call_{k}"), k)).collect::<Vec<_>>()});
    crate::openclaw::work::reset();
    let lines = text(&diff(&old, &new, &Options::default()));
    let looked = crate::openclaw::work::count();
    // Each block is compared with its own (the id changed, nothing else): a removed and an
    // added id line per block.
    assert!(
        lines.contains(&"- content[4999].id: \"toolu_4999\"".to_owned()),
        "{:?}",
        &lines[..4]
    );
    assert!(lines.contains(&"+ content[4999].id: \"call_4999\"".to_owned()));
    assert_eq!(lines.iter().filter(|l| l.starts_with('-')).count(), n);
    // At most a window of candidates per block; comparing each with every later one of its
    // kind looks at n²/2 = 12.5 million pairs.
    assert!(looked <= 64 * n, "{looked} pairs compared");
}
