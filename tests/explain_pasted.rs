//! `lint --explain` on error texts as users paste them (issue 30): without the closing period,
//! wrapped over several lines, cut short, inside a JSON envelope (whole or cut), and naming an
//! id this session does not hold.

// The shared helpers serve tests/explain.rs too; this file uses a few.
#[allow(dead_code)]
mod explain_support;

use explain_support::*;
use replaylens::json;
use replaylens::model::json::Value;

const IDS: (&str, &str) = ("toolu_01HqfLWiAKQLsniF2fBGF2KD", "toolu_01SJzDkeAZER935cpGFptTNk");

fn unanswered() -> Vec<Value> {
    vec![
        user("list the files and read the config"),
        calls(ANTHROPIC, Some("Looking."), &[(IDS.0, "exec"), (IDS.1, "read")]),
        user("never mind, just say hi"),
        said(ANTHROPIC, "Hi."),
    ]
}

fn full_text(ids: &str) -> String {
    format!(
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. Each `tool_use` block must have a corresponding `tool_result` block in the next message."
    )
}

fn envelope(message: &str) -> String {
    format!(
        r#"{{"type":"error","error":{{"type":"invalid_request_error","message":{}}}}}"#,
        quoted(message)
    )
}

/// The explanation points at s1 and says the projection avoids the error.
fn assert_located(error: &str) -> Value {
    let (doc, _) = explain(&unanswered(), error);
    let e = doc["explain"].clone();
    assert_eq!(e["constraint"], "anthropic-tool-use-adjacency", "{error:?}\n{e:#}");
    assert_eq!(e["stored"], json!([1]), "{error:?}\n{e:#}");
    assert_eq!(e["avoided"], true, "{error:?}\n{e:#}");
    let summary = e["summary"].as_str().unwrap();
    assert!(summary.contains("it points at stored message s1"), "{summary}");
    assert!(!summary.contains("another session"), "{summary}");
    e
}

#[test]
fn the_error_is_recognised_with_and_without_its_period_and_wrapped() {
    let ids = format!("{}, {}", IDS.0, IDS.1);
    let full = full_text(&ids);
    let bare = format!("messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}");
    let wrapped = full.replace(" blocks ", "\n  blocks ").replace(", toolu", ",\r\ntoolu");
    for error in [
        full.clone(),
        bare.clone(),
        format!("{bare}."),
        wrapped.clone(),
        envelope(&full),
        envelope(&bare),
    ] {
        let e = assert_located(&error);
        assert_eq!(e["ids"], json!([IDS.0, IDS.1]), "{error:?}");
    }
    // A pretty-printed envelope wrapped by a terminal: a line break inside the message string.
    let pretty = envelope(&full)
        .replace(",\"message\"", ",\n    \"message\"")
        .replace(" found ", "\nfound ");
    assert_located(&pretty);
}

#[test]
fn a_cut_error_is_still_recognised_and_its_cut_id_completed() {
    let full = full_text(&format!("{}, {}", IDS.0, IDS.1));
    let cut_in_id = &full[..full.find(IDS.1).unwrap() + 12];
    for error in [
        cut_in_id.to_string(),
        format!("{cut_in_id}…"),
        format!("{cut_in_id}..."),
        envelope(&full)[..envelope(&full).find(IDS.1).unwrap() + 12].to_string(),
    ] {
        let e = assert_located(&error);
        assert_eq!(e["ids"][0], IDS.0, "{error:?}");
    }
    // Cut after the ids, and without the leading `messages.N: `.
    assert_located(&full[..full.find(" Each").unwrap() + 8]);
    assert_located(&full["messages.1: ".len()..]);
}

#[test]
fn an_id_absent_from_the_session_is_said_to_belong_elsewhere() {
    let foreign = "toolu_01XyzNotInThisSession0000";
    let (doc, _) = explain(&unanswered(), &envelope(&full_text(foreign)));
    let e = &doc["explain"];
    assert_eq!(e["constraint"], "anthropic-tool-use-adjacency");
    assert_eq!(e["stored"], json!([]), "{e:#}");
    assert!(e["avoided"].is_null(), "{e:#}");
    let summary = e["summary"].as_str().unwrap();
    assert!(
        summary.contains(&format!("{foreign} does not occur in this session")),
        "{summary}"
    );
    assert!(summary.contains("may belong to another session"), "{summary}");
    assert!(!summary.contains("points at stored message"), "{summary}");
    // One id held, one not: the held one is located and the other named.
    let (doc, _) = explain(&unanswered(), &full_text(&format!("{}, {foreign}", IDS.0)));
    let e = &doc["explain"];
    assert_eq!(e["stored"], json!([1]), "{e:#}");
    let summary = e["summary"].as_str().unwrap();
    assert!(
        summary.contains(&format!(
            "Of the ids it names, {foreign} does not occur in this session"
        )),
        "{summary}"
    );
}

#[test]
fn the_text_form_says_the_id_is_absent() {
    let out = lint(
        &unanswered(),
        &["--explain", &full_text("toolu_01XyzNotInThisSession0000")],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("may belong to another session"), "{text}");
    assert!(!text.contains("stored messages:"), "{text}");
}
