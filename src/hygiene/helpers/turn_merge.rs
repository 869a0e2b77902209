//! Shared helpers of the turn-validation rules (OpenClaw's `validateAnthropicTurns`,
//! `validateGeminiTurns`): merging runs of consecutive
//! same-role messages, the two merge recipes (assistant and user), JavaScript truthiness and
//! content normalization for concatenation.

use crate::json;
use crate::model::json::{Array, Value};

use crate::hygiene::{Action, PendingRewrite, Working, WorkingMessage};
use crate::model::{Message, Role};
use crate::openclaw::js::js_truthy;

/// A field that is present and neither `null` (JavaScript `??` semantics).
fn present<'a>(m: &'a Message, key: &str) -> Option<&'a Value> {
    m.get(key).filter(|v| !v.is_null())
}

/// The blocks a message contributes to a merge: an array as is, a string as one text block,
/// anything else (missing, `null`, an object) nothing.
pub fn content_for_merge(m: &Message) -> Vec<Value> {
    match m.content() {
        Some(Value::Array(blocks)) => blocks.to_vec(),
        Some(Value::String(s)) => vec![json!({"type": "text", "text": s})],
        _ => Vec::new(),
    }
}

/// The blocks a message contributes to a merge, taken out of it (no copy of an array, so
/// appending to the accumulated turn of a run stays amortized O(1) a block).
fn take_content_for_merge(m: &mut Message) -> Array {
    match m.content_mut() {
        Some(Value::Array(blocks)) => std::mem::take(blocks),
        Some(Value::String(s)) => Array::from(vec![json!({"type": "text", "text": std::mem::take(s)})]),
        _ => Array::new(),
    }
}

/// `mergeConsecutiveAssistantTurns`, into the accumulated turn of a run: every field of the
/// earlier turn (in its key order) with the content concatenated, then `usage`, `stopReason`
/// and `errorMessage` of the later turn when truthy there. Returns the names of the fields
/// taken from the later turn. Appends in place, so a run of n turns costs O(total size).
pub fn merge_assistants(acc: &mut Message, current: &Message) -> Vec<&'static str> {
    let mut blocks = take_content_for_merge(acc);
    blocks.extend(content_for_merge(current));
    acc.set_content(blocks);
    let mut taken = Vec::new();
    for key in ["usage", "stopReason", "errorMessage"] {
        if let Some(v) = current.get(key).filter(|v| js_truthy(v)) {
            acc.set(key, v.clone());
            taken.push(key);
        }
    }
    taken
}

/// `mergeConsecutiveUserTurns`, into the accumulated turn of a run: every field of the later
/// turn (in its key order) with the content concatenated and `timestamp = current.timestamp ??
/// previous.timestamp` (removed when both are absent). Returns the name of the turn the
/// timestamp came from. The earlier content is moved, not copied.
pub fn merge_users(acc: &mut Message, current: &Message) -> Vec<&'static str> {
    let previous_timestamp = present(acc, "timestamp").cloned();
    let mut blocks = take_content_for_merge(acc);
    blocks.extend(content_for_merge(current));
    *acc = current.clone();
    acc.set_content(blocks);
    let note = if let Some(ts) = present(current, "timestamp") {
        acc.set("timestamp", ts.clone());
        "timestamp from the later turn"
    } else if let Some(ts) = previous_timestamp {
        acc.set("timestamp", ts);
        "timestamp from the earlier turn"
    } else {
        acc.remove("timestamp");
        "no timestamp"
    };
    vec![note]
}

/// What a merging rule needs to record a run merge.
pub struct MergeSpec<'a> {
    /// The rule id.
    pub rule: &'static str,
    /// The role whose consecutive turns merge.
    pub role: Role<'static>,
    /// Why (e.g. `for Gemini alternation`).
    pub why: &'a str,
    /// How the fields of the merged turn are chosen (fixed part of the detail).
    pub fields: &'a str,
    /// Keep the notes of every merge of a run (`true`) or only those of the last one.
    pub union_notes: bool,
}

/// Whether two adjacent messages both have `role`.
fn has_adjacent(work: &Working<'_>, role: Role<'_>) -> bool {
    work.messages
        .windows(2)
        .any(|w| w[0].message.role() == role && w[1].message.role() == role)
}

/// An open run of merged messages: its index in the output and the source of each member.
struct Run {
    at: usize,
    parts: Vec<Vec<usize>>,
    notes: Vec<&'static str>,
}

/// Merge every run of consecutive messages with `spec.role` into its first message, using
/// `merge(accumulated, current)` left to right. The merged message keeps the first message's uid;
/// its source is the concatenation of the members' sources. One `merge` rewrite per run.
/// Adjacency means neighbours in the list: any message of another role, or without a role,
/// breaks a run. Nothing is touched when no two neighbours share the role.
pub fn merge_consecutive(
    work: &mut Working<'_>,
    spec: &MergeSpec<'_>,
    merge: impl Fn(&mut Message, &Message) -> Vec<&'static str>,
    rewrites: &mut Vec<PendingRewrite>,
) {
    if !has_adjacent(work, spec.role) {
        return;
    }
    let old = std::mem::take(&mut work.messages);
    let mut run: Option<Run> = None;
    for wm in old {
        let same = wm.message.role() == spec.role
            && work
                .messages
                .last()
                .is_some_and(|last| last.message.role() == spec.role);
        if !same {
            close(&mut run, &work.messages, spec, rewrites);
            if wm.message.role() == spec.role {
                run = Some(Run {
                    at: work.messages.len(),
                    parts: vec![wm.source.clone()],
                    notes: Vec::new(),
                });
            }
            work.messages.push(wm);
            continue;
        }
        let Some(last) = work.messages.last_mut() else { continue };
        let notes = merge(last.message.to_mut(), &wm.message);
        last.source.extend(wm.source.iter().copied());
        if let Some(r) = run.as_mut() {
            r.parts.push(wm.source);
            if !spec.union_notes {
                r.notes.clear();
            }
            for n in notes {
                if !r.notes.contains(&n) {
                    r.notes.push(n);
                }
            }
        }
    }
    close(&mut run, &work.messages, spec, rewrites);
}

/// Most members of a run a merge rewrite names.
const MEMBERS_NAMED: usize = 8;

/// Record the rewrite of a finished run (when it merged anything).
fn close(run: &mut Option<Run>, out: &[WorkingMessage<'_>], spec: &MergeSpec<'_>, rewrites: &mut Vec<PendingRewrite>) {
    let Some(r) = run.take() else { return };
    if r.parts.len() < 2 {
        return;
    }
    let wm = &out[r.at];
    // A long run names its first and last members only (a 5,000-way merge is one line).
    let mut members: Vec<String> = r.parts.iter().take(MEMBERS_NAMED).map(|p| format!("{p:?}")).collect();
    if r.parts.len() > MEMBERS_NAMED {
        members.truncate(MEMBERS_NAMED - 2);
        members.push(format!("… {} more", r.parts.len() - MEMBERS_NAMED + 1));
        members.push(format!("{:?}", r.parts[r.parts.len() - 1]));
    }
    let mut detail = format!(
        "merged {} consecutive {} turns (stored {}) {}: content concatenated, {}",
        r.parts.len(),
        spec.role.as_str(),
        members.join(" + "),
        spec.why,
        spec.fields,
    );
    if !r.notes.is_empty() {
        detail.push_str(" (");
        detail.push_str(&r.notes.join("; "));
        detail.push(')');
    }
    rewrites.push(PendingRewrite::on(spec.rule, Action::Merge, wm, detail));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(v: Value) -> Message {
        Message::from_value(v).unwrap()
    }

    #[test]
    fn truthiness_follows_javascript() {
        for v in [json!(null), json!(false), json!(0), json!(0.0), json!("")] {
            assert!(!js_truthy(&v), "{v}");
        }
        for v in [json!(true), json!(1), json!("x"), json!([]), json!({})] {
            assert!(js_truthy(&v), "{v}");
        }
    }

    #[test]
    fn merged_content_normalizes_strings_and_skips_other_shapes() {
        assert_eq!(
            content_for_merge(&msg(json!({"content": "hi"}))),
            vec![json!({"type": "text", "text": "hi"})]
        );
        assert!(content_for_merge(&msg(json!({"content": null}))).is_empty());
        assert!(content_for_merge(&msg(json!({"content": {"type": "text"}}))).is_empty());
        assert!(content_for_merge(&msg(json!({}))).is_empty());
    }

    #[test]
    fn assistant_merge_keeps_earlier_fields_and_key_order() {
        let a = msg(
            json!({"role": "assistant", "content": [{"type": "text", "text": "a"}], "stopReason": "toolUse",
            "model": "m1", "timestamp": 1}),
        );
        let b = msg(
            json!({"role": "assistant", "content": [{"type": "text", "text": "b"}], "stopReason": "stop",
            "usage": {"input": 2}, "errorMessage": "", "model": "m2", "timestamp": 2}),
        );
        let mut m = a.clone();
        let taken = merge_assistants(&mut m, &b);
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"stopReason":"stop","model":"m1","timestamp":1,"usage":{"input":2}}"#
        );
        assert_eq!(taken, vec!["usage", "stopReason"]);
    }

    #[test]
    fn user_merge_takes_later_fields_and_falls_back_for_timestamp() {
        let a = msg(json!({"role": "user", "content": "a", "timestamp": 1, "x": 1}));
        let b = msg(
            json!({"role": "user", "content": [{"type": "image", "data": "QQ==", "mimeType": "image/png"}], "y": 2}),
        );
        let mut m = a.clone();
        let notes = merge_users(&mut m, &b);
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"role":"user","content":[{"type":"text","text":"a"},{"type":"image","data":"QQ==","mimeType":"image/png"}],"y":2,"timestamp":1}"#
        );
        assert_eq!(notes, vec!["timestamp from the earlier turn"]);
        let c = msg(json!({"role": "user", "timestamp": null, "content": "c"}));
        let mut m = msg(json!({"role": "user", "content": "x"}));
        let notes = merge_users(&mut m, &c);
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"role":"user","content":[{"type":"text","text":"x"},{"type":"text","text":"c"}]}"#
        );
        assert_eq!(notes, vec!["no timestamp"]);
    }
}
