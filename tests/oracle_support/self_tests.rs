//! Checks of the differential machinery itself (no oracle needed): the comparison, the
//! documented deltas, and that the generator is deterministic and reaches every input shape.

use replaylens::json;
use replaylens::model::json::Value;

use super::cases::random_cases;
use super::compare::{LEGACY_MISSING_TEXT, compare, compare_policy, json_eq};
use super::images::fixture;
use super::lens::{LensMessage, RuleSetName};
use super::targets::TargetSet;

fn lens(values: Vec<Value>) -> Vec<LensMessage> {
    values
        .into_iter()
        .map(|value| LensMessage {
            value,
            synthesized: false,
        })
        .collect()
}

#[test]
fn first_difference_path_and_numbers_by_value() {
    let ours = lens(vec![
        json!({"role": "user", "content": [{"type": "text", "text": "a"}], "n": 1}),
    ]);
    let same = [json!({"n": 1.0, "content": [{"text": "a", "type": "text"}], "role": "user"})];
    assert!(compare(&ours, &same, RuleSetName::Pinned).difference.is_none());
    let other = [json!({"role": "user", "content": [{"type": "text", "text": "b"}], "n": 1})];
    let d = compare(&ours, &other, RuleSetName::Pinned).difference.expect("differs");
    assert_eq!(d.path, "[0].content[0].text");
    assert_eq!(d.path_kind(), "[].content[].text");
    let d = compare(&ours, &[], RuleSetName::Pinned).difference.expect("differs");
    assert_eq!((d.path.as_str(), d.theirs.as_str()), ("[0]", "<absent>"));
    assert!(!json_eq(&json!(1), &json!(2)));
}

#[test]
fn synthetic_timestamps_are_ignored_and_newest_deltas_only_on_newest() {
    let synthetic = |text: &str, marker: bool, ts: u64| {
        let mut m = json!({"role": "toolResult", "toolCallId": "c", "toolName": "read",
            "content": [{"type": "text", "text": text}], "isError": true, "timestamp": ts});
        if marker {
            m["details"] = json!({"openclawSyntheticMissingToolResult": true, "reason": "missing_tool_result"});
        }
        m
    };
    let theirs = [synthetic(LEGACY_MISSING_TEXT, false, 99)];
    let pinned = lens(vec![synthetic(LEGACY_MISSING_TEXT, false, 1)]);
    assert!(compare(&pinned, &theirs, RuleSetName::Pinned).difference.is_none());
    let newest = lens(vec![synthetic(
        "[replay] No result was recorded for this tool call.",
        true,
        1,
    )]);
    let on_newest = compare(&newest, &theirs, RuleSetName::Newest);
    assert!(on_newest.difference.is_none());
    assert_eq!(on_newest.deltas, 1);
    assert!(compare(&newest, &theirs, RuleSetName::Pinned).difference.is_some());
    let aborted = [synthetic("aborted", false, 5)];
    assert!(
        compare(
            &lens(vec![synthetic("aborted", true, 1)]),
            &aborted,
            RuleSetName::Newest
        )
        .difference
        .is_none()
    );
}

#[test]
fn images_compare_by_decoded_format_and_size() {
    let (png8, jpeg) = (fixture("png-small").data(), fixture("jpeg-small").data());
    let block =
        |data: &str| json!({"role": "user", "content": [{"type": "image", "data": data, "mimeType": "image/png"}]});
    let recoded = {
        use base64::Engine;
        let bytes = base64::engine::general_purpose::STANDARD.decode(png8).unwrap();
        let img = image::load_from_memory(&bytes).unwrap();
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        base64::engine::general_purpose::STANDARD.encode(out.into_inner())
    };
    assert!(
        compare(&lens(vec![block(png8)]), &[block(&recoded)], RuleSetName::Pinned)
            .difference
            .is_none()
    );
    assert!(
        compare(&lens(vec![block(png8)]), &[block(jpeg)], RuleSetName::Pinned)
            .difference
            .is_some()
    );
    assert!(
        compare(&lens(vec![block(png8)]), &[block("iVBORw0KGgo=")], RuleSetName::Pinned)
            .difference
            .is_some()
    );
}

#[test]
fn policy_absent_equals_false_and_family_is_ignored() {
    let ours = json!({"a": false, "b": "x", "family": "anthropic"});
    assert!(compare_policy(&ours, &json!({"b": "x", "c": false})).is_none());
    let d = compare_policy(&ours, &json!({"b": "x", "c": true})).expect("differs");
    assert_eq!(
        (d.path.as_str(), d.ours.as_str(), d.theirs.as_str()),
        (".c", "<absent>", "true")
    );
}

#[test]
fn generator_is_deterministic_and_reaches_every_shape() {
    let a = random_cases(7, 600, &TargetSet::fixed());
    let b = random_cases(7, 600, &TargetSet::fixed());
    assert!(
        a.iter()
            .zip(&b)
            .all(|(x, y)| x.messages == y.messages && x.tools == y.tools)
    );
    let text: String = a
        .iter()
        .map(|c| serde_json::to_string(c.messages.as_slice()).unwrap())
        .collect();
    let needles = [
        "\"thinkingSignature\"",
        "\"redacted\":true",
        "redacted_thinking",
        "\"signature\"",
        "thought_signature",
        "thoughtSignature",
        "textSignature",
        "\\\"type\\\":\\\"reasoning\\\"",
        "toolu_01",
        "|fc_",
        "partialJson",
        "\"input\"",
        "\"toolUse\"",
        "呼び出し",
        "\"errorMessage\"",
        "\"stopReason\":\"aborted\"",
        "\"stopReason\":\"length\"",
        "compactionSummary",
        "inter_session",
        "delivery-mirror",
        "openclawDeliveryMirror",
        "gateway-injected",
        "NO_REPLY",
        "⟦openclaw:ctx⟧",
        "(untrusted metadata):\\n",
        "Delivery: ",
        "[assistant turn failed before producing content]",
        "iVBORw0KGgo=",
        "not base64!!",
        "image/webp",
        "branchSummary",
        "bashExecution",
        LEGACY_MISSING_TEXT,
        "openclawSyntheticMissingToolResult",
        "\"details\"",
        "\"toolName\":\"bash\"",
        "\"content\":[]",
        "\"usage\":{}",
    ];
    let missing: Vec<&str> = needles.iter().copied().filter(|n| !text.contains(n)).collect();
    assert!(missing.is_empty(), "the generator never produced: {missing:?}");
    assert!(
        a.iter()
            .any(|c| c.messages.first().is_some_and(|m| m["role"] == "assistant"))
    );
    assert!(a.iter().any(|c| c.tools.is_some()));
    assert!(a.iter().any(|c| c.messages.iter().any(|m| m["content"] == json!(""))));
}

#[test]
fn every_target_gets_its_same_model_turns_at_full_size() {
    // A full-size run spreads 200 cases a provider over the targets: 41 or 42 cases a target on
    // OpenClaw 2026.9.6 (8,000 over 192). Each fixed target at that share must store at least
    // the minimum of turns of its own model, as every enumerated target must in the real run.
    use super::wide::{Coverage, SAME_MODEL_MIN_PER_TARGET};
    let set = TargetSet::fixed();
    let cases = random_cases(2002, 41 * set.targets.len(), &set);
    let coverage = Coverage::of(&cases);
    let short = coverage.short_of(SAME_MODEL_MIN_PER_TARGET);
    assert!(short.is_empty(), "{}", coverage.per_target());
}
