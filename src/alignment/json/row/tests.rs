//! One snapshot per kind of rewrite a row can show: drop, insert, modify, merge, move (and
//! the moved-away marker, and an unchanged row), with fold markers as the inspector asks.

use serde_json::json;

use super::{RowValues, Section, sections};
use crate::alignment::RowKind;
use crate::alignment::json::Options;
use crate::model::json::Value;

fn value(v: serde_json::Value) -> Value {
    serde_json::from_value(v).expect("valid message")
}

fn text(sections: &[Section<'_>]) -> String {
    sections.iter().map(Section::to_text).collect()
}

fn inspector() -> Options {
    Options {
        folds: true,
        ..Options::default()
    }
}

fn tool_result(id: &str, extra: bool) -> Value {
    let mut v = json!({
        "role": "toolResult",
        "toolCallId": id,
        "toolName": "read",
        "content": [{"type": "text", "text": "fn main() {}"}],
        "isError": false,
        "timestamp": 1_700_000_000_000u64,
    });
    if extra {
        v["details"] = json!({"diff": "@@ -1 +1 @@", "path": "src/main.rs"});
    }
    value(v)
}

#[test]
fn drop_lists_every_stored_field_as_removed() {
    let stored = value(json!({
        "role": "assistant",
        "content": [],
        "stopReason": "error",
        "errorMessage": "overloaded",
    }));
    let rows = [(4, &stored)];
    let got = sections(
        RowValues {
            kind: RowKind::Dropped,
            stored: &rows,
            replay: None,
            moved_to: None,
        },
        &inspector(),
    );
    insta::assert_snapshot!(text(&got));
}

#[test]
fn insert_lists_every_replay_field_as_added() {
    let new = value(json!({
        "role": "toolResult",
        "toolCallId": "call_1",
        "toolName": "exec",
        "content": [{"type": "text", "text": "No result provided"}],
        "isError": true,
    }));
    let got = sections(
        RowValues {
            kind: RowKind::Inserted,
            stored: &[],
            replay: Some((7, &new)),
            moved_to: None,
        },
        &inspector(),
    );
    insta::assert_snapshot!(text(&got));
}

#[test]
fn modify_puts_a_removed_member_on_its_own_line_and_folds_the_rest() {
    let old = tool_result("call_abc|fc_123", true);
    let new = tool_result("callabcfc123", false);
    let rows = [(2, &old)];
    let got = sections(
        RowValues {
            kind: RowKind::Modified,
            stored: &rows,
            replay: Some((2, &new)),
            moved_to: None,
        },
        &Options {
            context: 1,
            ..inspector()
        },
    );
    assert_eq!(got[0].sides, Some((2, 2)));
    let t = text(&got);
    assert!(t.lines().any(|l| l.starts_with("- details: {")), "{t}");
    insta::assert_snapshot!(t);
}

#[test]
fn merge_compares_the_first_member_and_lists_what_the_others_bring() {
    let a = value(json!({"role": "user", "content": [{"type": "text", "text": "first question"}], "timestamp": 1}));
    let b = value(json!({"role": "user", "content": [{"type": "text", "text": "second thought"}], "timestamp": 2}));
    let merged = value(json!({"role": "user", "content": [
        {"type": "text", "text": "first question"},
        {"type": "text", "text": "second thought"}
    ], "timestamp": 1}));
    let rows = [(5, &a), (6, &b)];
    let got = sections(
        RowValues {
            kind: RowKind::Merged,
            stored: &rows,
            replay: Some((5, &merged)),
            moved_to: None,
        },
        &inspector(),
    );
    assert_eq!(got.len(), 2);
    insta::assert_snapshot!(text(&got));
}

#[test]
fn move_names_where_it_was_stored_and_its_marker_points_on() {
    let m = tool_result("call_9", false);
    let rows = [(9, &m)];
    let here = sections(
        RowValues {
            kind: RowKind::Moved,
            stored: &rows,
            replay: Some((3, &m)),
            moved_to: None,
        },
        &inspector(),
    );
    let away = sections(
        RowValues {
            kind: RowKind::MovedFrom,
            stored: &rows,
            replay: None,
            moved_to: Some(3),
        },
        &inspector(),
    );
    assert!(away[0].lines.is_empty());
    insta::assert_snapshot!(format!("{}---\n{}", text(&here), text(&away)));
}

#[test]
fn an_unchanged_row_is_all_context_and_reports_fold_nothing() {
    let m = tool_result("call_1", false);
    let rows = [(1, &m)];
    let row = RowValues {
        kind: RowKind::Same,
        stored: &rows,
        replay: Some((1, &m)),
        moved_to: None,
    };
    let got = sections(row, &inspector());
    assert!(
        got[0]
            .lines
            .iter()
            .all(|l| l.sign == crate::alignment::json::Sign::Context)
    );
    let old = tool_result("a", true);
    let new = tool_result("b", true);
    let rows = [(1, &old)];
    let changed = RowValues {
        kind: RowKind::Modified,
        stored: &rows,
        replay: Some((1, &new)),
        moved_to: None,
    };
    let report = text(&sections(changed, &Options::default()));
    assert!(!report.contains('⋯'), "{report}");
    assert!(text(&sections(changed, &inspector())).contains("⋯ "));
}
