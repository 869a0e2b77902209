//! One assistant turn of thousands of tool calls, through replay (the newest pairing planner and
//! the 2026.7 one), the Anthropic payload, its lint and the Markdown and HTML reports: the
//! planners and the lint checks must look a call id or a result's order up, never scan the
//! turn once per result (a 20,000-call turn took 16.7 s to export while `replay` took 0.4 s;
//! 80,000 results in call order took 3.7 s to replay where loading took 0.27 s). The work is
//! counted, not timed: the planners and the checks count the entries they look at.

use std::io::Write;

use crate::export::{ExportFormat, ExportOptions, export};
use crate::hygiene::ReplayOptions;
use crate::json;
use crate::lint::lint;
use crate::load::{LoadOptions, load_path};
use crate::model::Session;
use crate::model::json::Value;
use crate::openclaw::work;
use crate::policy::{Family, preset};
use crate::replay::replay;
use crate::rule_set::RuleSet;
use crate::wire::{WireStage, payload_of};

/// Tool calls in the turn: a scan per result would look at n²/2 = 12.5 million entries.
const CALLS: usize = 5_000;

/// Where the results of the turn are stored.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// Right after their calls, in call order, a user note after every tenth (the notes move
    /// behind the results).
    InOrder,
    /// After a later user turn (moved back), then every result again (a surplus the planner
    /// attributes to its call before dropping it).
    DisplacedTwice,
}

fn wide_turn_session(layout: Layout) -> Session {
    let target = preset(Family::Anthropic);
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(
        file,
        "{}",
        json!({"type": "session", "version": 3, "id": "wide-turn",
            "timestamp": "2026-12-01T00:00:00.000Z", "cwd": "/work"})
    )
    .unwrap();
    let mut n = 0;
    let mut entry = |message: Value| {
        n += 1;
        let parent = if n == 1 {
            Value::Null
        } else {
            Value::from(format!("e{}", n - 1))
        };
        writeln!(
            file,
            "{}",
            json!({"type": "message", "id": format!("e{n}"), "parentId": parent,
                "timestamp": "2026-12-01T00:00:00.000Z", "message": message})
        )
        .unwrap();
    };
    entry(json!({"role": "user", "content": "Check every file.", "timestamp": 1}));
    let calls: Vec<Value> = (0..CALLS)
        .map(|k| {
            json!({"type": "toolCall", "id": format!("toolu_{k:08}"), "name": "read",
                "arguments": {"path": format!("src/f{k}.rs")}})
        })
        .collect();
    entry(json!({"role": "assistant", "content": calls, "stopReason": "toolUse",
        "provider": target.provider, "api": target.api, "model": target.model, "timestamp": 2}));
    let result = |k: usize| {
        json!({"role": "toolResult", "toolCallId": format!("toolu_{k:08}"), "toolName": "read",
            "content": [{"type": "text", "text": format!("fn f{k}() {{}}")}], "isError": false,
            "timestamp": 4})
    };
    match layout {
        Layout::InOrder => {
            for k in 0..CALLS {
                entry(result(k));
                if k % 10 == 0 {
                    entry(json!({"role": "user", "content": format!("note {k}"), "timestamp": 3}));
                }
            }
        }
        Layout::DisplacedTwice => {
            entry(json!({"role": "user", "content": "Still there?", "timestamp": 3}));
            for _ in 0..2 {
                for k in 0..CALLS {
                    entry(result(k));
                }
            }
        }
    }
    load_path(file.path(), &LoadOptions::default()).unwrap()
}

#[test]
fn a_turn_of_thousands_of_calls_is_projected_linted_and_exported_in_linear_work() {
    let target = preset(Family::Anthropic);
    for layout in [Layout::InOrder, Layout::DisplacedTwice] {
        let session = wide_turn_session(layout);
        for rule_set in [RuleSet::newest(), RuleSet::named("2026.7").unwrap()] {
            let case = format!("{layout:?} with rule set {}", rule_set.name);
            let options = ReplayOptions {
                rule_set,
                ..ReplayOptions::default()
            };
            work::reset();
            let r = replay(&session, &target, &options);
            let payload = payload_of(&r, WireStage::Replay).expect("an Anthropic payload");
            let findings = lint(&payload);
            // What Anthropic accepts: every call answered in the next message.
            assert!(findings.is_empty(), "{case}: {findings:?}");
            let items = &payload.payload.items;
            assert_eq!(
                items.len(),
                4,
                "{case}: user, calls, every result in one user turn, the notes"
            );
            // The planner runs twice (history rule, transport repair) and the lint's two
            // checks ask once per call or result: tens of thousands of entries. Scanning the
            // turn per result looks at tens of millions.
            let looked = work::count();
            assert!(looked <= 30 * CALLS, "{case}: {looked} entries looked at");

            for format in [ExportFormat::Markdown, ExportFormat::Html] {
                work::reset();
                let report = export(
                    &session,
                    &r,
                    &ExportOptions {
                        format,
                        max_chars: Some(0),
                        ..ExportOptions::default()
                    },
                );
                assert!(
                    report.contains("tool-result-pairing"),
                    "{case}: {format:?} shows the pairing"
                );
                let looked = work::count();
                assert!(looked <= 30 * CALLS, "{case}, {format:?}: {looked} entries looked at");
            }
        }
    }
}

#[test]
fn every_family_replays_and_lints_a_turn_of_thousands_of_calls_in_linear_work() {
    for layout in [Layout::InOrder, Layout::DisplacedTwice] {
        let session = wide_turn_session(layout);
        for &family in Family::all() {
            let target = preset(family);
            let case = format!("{layout:?} for {family:?} ({:?})", target.api);
            work::reset();
            let r = replay(&session, &target, &ReplayOptions::default());
            if let Ok(payload) = payload_of(&r, WireStage::Replay) {
                lint(&payload);
            }
            let looked = work::count();
            assert!(looked <= 30 * CALLS, "{case}: {looked} entries looked at");
            // A rewrite of every call is one short note (the diff shows each call).
            let longest = r.projection.rewrites.iter().map(|w| w.detail.len()).max().unwrap_or(0);
            assert!(longest <= 2_000, "{case}: a rewrite note of {longest} bytes");
        }
    }
}

#[test]
fn a_note_moved_behind_thousands_of_results_names_eight_and_counts_the_rest() {
    let session = wide_turn_session(Layout::InOrder);
    for rule_set in [RuleSet::newest(), RuleSet::named("2026.7").unwrap()] {
        let options = ReplayOptions {
            rule_set,
            ..ReplayOptions::default()
        };
        let r = replay(&session, &preset(Family::Anthropic), &options);
        let first_note = r
            .projection
            .rewrites
            .iter()
            .find(|w| w.detail.starts_with("moved user message after the results for"))
            .unwrap_or_else(|| panic!("{}: a note moves", rule_set.name));
        assert_eq!(
            first_note.detail,
            "moved user message after the results for toolu_00000001 (read), toolu_00000002 (read), \
             toolu_00000003 (read), toolu_00000004 (read), toolu_00000005 (read), toolu_00000006 (read), \
             toolu_00000007 (read), toolu_00000008 (read) and 4,991 more: results must directly follow \
             their tool calls",
            "{}",
            rule_set.name
        );
    }
}
