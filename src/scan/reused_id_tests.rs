//! One tool-call id reused by every turn, under every rule set and through the release matrix:
//! 2026.7 and older repair pairing by scanning forward from each tool-call turn for later
//! results, which a port that scans made quadratic (10,000 turns: 1.8 s, 40,000: 31 s, where
//! the newest planner took 0.2 s; `releases` and every export's release line paid it). The work
//! is counted, not timed: the planners, the later-result index and the lint's id sets count the
//! entries they look at (`openclaw::work`).

use std::io::Write;

use crate::hygiene::ReplayOptions;
use crate::json;
use crate::load::{LoadOptions, load_path};
use crate::model::Session;
use crate::model::json::Value;
use crate::openclaw::work;
use crate::policy::{Family, preset};
use crate::replay::replay;
use crate::rule_set::RULE_SETS;

use super::matrix;

/// Tool-call turns: a scan to the end per turn looked at 48 million entries (the 2026.7
/// planner runs twice per replay); the index looks at about 12 per turn, the newest about 4.
const TURNS: usize = 4_000;

/// A session of `TURNS` user turns, each followed by a call `call_1` and, unless
/// `every_other_missing` leaves out every second one, its result.
fn reused_id_session(every_other_missing: bool) -> Session {
    let target = preset(Family::Anthropic);
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(
        file,
        "{}",
        json!({"type": "session", "version": 3, "id": "reused-id",
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
    for k in 0..TURNS {
        entry(json!({"role": "user", "content": format!("Read f{k}."), "timestamp": k}));
        entry(json!({"role": "assistant", "stopReason": "toolUse",
            "content": [{"type": "toolCall", "id": "call_1", "name": "read",
                "arguments": {"path": format!("f{k}")}}],
            "provider": target.provider, "api": target.api, "model": target.model, "timestamp": k}));
        if !(every_other_missing && k % 2 == 1) {
            entry(json!({"role": "toolResult", "toolCallId": "call_1", "toolName": "read",
                "content": [{"type": "text", "text": format!("contents of f{k}")}],
                "isError": false, "timestamp": k}));
        }
    }
    load_path(file.path(), &LoadOptions::default()).unwrap()
}

#[test]
fn one_call_id_reused_by_every_turn_replays_in_linear_work_under_every_rule_set() {
    let target = preset(Family::Anthropic);
    for every_other_missing in [false, true] {
        let session = reused_id_session(every_other_missing);
        for &rule_set in RULE_SETS.iter() {
            let case = format!(
                "rule set {}, every other result missing: {every_other_missing}",
                rule_set.name
            );
            let options = ReplayOptions {
                rule_set,
                ..ReplayOptions::default()
            };
            work::reset();
            let r = replay(&session, &target, &options);
            let looked = work::count();
            assert!(
                looked <= 20 * TURNS,
                "{case}: {looked} entries looked at for {TURNS} turns"
            );
            // Every turn is replayed (its result stored or synthesized).
            assert!(r.projection.messages.len() >= 2 * TURNS, "{case}: turns replayed");
        }
        work::reset();
        let m = matrix(&session, &target, &ReplayOptions::default());
        assert_eq!(m.rows.len(), RULE_SETS.len());
        let looked = work::count();
        assert!(
            looked <= 20 * TURNS * RULE_SETS.len(),
            "release matrix, every other result missing: {every_other_missing}: {looked} entries looked at"
        );
    }
}
