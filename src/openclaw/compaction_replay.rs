//! Prefix-bound compaction checkpoints: an assistant turn's `providerReplay` of type
//! `anthropic-compaction` or `openai-responses-compaction` names, by `replayIndex`, the block of
//! the turn's content where the provider's server-side compaction resumes. OpenClaw keeps it in
//! step whenever a hygiene step rewrites the turn's content (`replaceCompactionReplayOwnerContent`
//! in `@openclaw/ai` `transports.mjs`), and the rules that port such a step call [`replace_owner_content`].
//!
//! OpenClaw matches the new blocks to the old ones by object identity (`indexOf`), in order: a
//! block a step carried over is found, a block it rebuilt is not. Here a block is carried over
//! when it is equal to an old block at or after the previous match and the step does not say it
//! rebuilds it (`rebuilt`): steps that rebuild a block only when it changes need no more.
//! Primitives (`null`, strings, numbers) are found by value, as `indexOf` finds them.
//!
//! Not reproduced: OpenClaw throws when the old content is `null`, missing or an object (its
//! `length` or `indexOf` fails); the checkpoint is then left as it is.

use crate::model::Message;
use crate::model::json::{Number, Value};

use super::js::deep_equal;

/// The `providerReplay` types that are prefix-bound checkpoints (`isCompactionReplayCheckpoint`).
pub const CHECKPOINT_TYPES: [&str; 3] = [
    "anthropic-compaction",
    "openai-responses-compaction",
    "openai-responses-retained-compaction",
];

/// The checkpoint type OpenClaw never reindexes (its prefix is retained whole).
const RETAINED: &str = "openai-responses-retained-compaction";

/// The checkpoint of a turn, when its `providerReplay` is one.
pub fn checkpoint(message: &Message) -> Option<&crate::model::json::Map> {
    let replay = message.get("providerReplay")?.as_object()?;
    let kind = replay.get("type")?.as_str()?;
    CHECKPOINT_TYPES.contains(&kind).then_some(replay)
}

/// Whether a turn carries a checkpoint a content rewrite may move or remove.
pub fn has_movable_checkpoint(message: &Message) -> bool {
    checkpoint(message).is_some_and(|c| c.get("type").and_then(Value::as_str) != Some(RETAINED))
}

/// JavaScript `ToNumber` of a JSON primitive (`NaN` for objects and arrays, which never compare).
fn to_number(v: &Value) -> f64 {
    match v {
        Value::Null => 0.0,
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) => {
            let t = super::js::js_trim(s);
            if t.is_empty() {
                0.0
            } else {
                t.parse::<f64>().ok().filter(|f| f.is_finite()).unwrap_or(f64::NAN)
            }
        }
        Value::Array(_) | Value::Object(_) => f64::NAN,
    }
}

/// The old content as `replaceCompactionReplayOwnerContent` reads it.
enum Old<'a> {
    Blocks(&'a [Value]),
    /// A string: its length in UTF-16 units; `indexOf(block)` searches `String(block)`.
    Text(&'a str),
    /// Anything else: `length` is undefined.
    Other,
}

impl Old<'_> {
    fn length(&self) -> Option<f64> {
        match self {
            Old::Blocks(b) => Some(b.len() as f64),
            Old::Text(s) => Some(s.encode_utf16().count() as f64),
            Old::Other => None,
        }
    }

    /// `old.indexOf(block, from)`, `-1` as `None`.
    fn index_of(&self, block: &Value, from: usize, rebuilt: &dyn Fn(&Value) -> bool) -> Option<usize> {
        match self {
            Old::Blocks(old) => {
                let primitive = !matches!(block, Value::Array(_) | Value::Object(_));
                if !primitive && rebuilt(block) {
                    return None;
                }
                (from..old.len()).find(|&p| {
                    let o = &old[p];
                    if primitive {
                        strict_equal(o, block)
                    } else {
                        matches!(o, Value::Array(_) | Value::Object(_)) && deep_equal(o, block)
                    }
                })
            }
            Old::Text(s) => {
                let needle = match block {
                    Value::Object(_) => "[object Object]".to_owned(),
                    Value::String(t) => t.to_string(),
                    other => super::js::string(Some(other)),
                };
                let units: Vec<u16> = s.encode_utf16().collect();
                let needle: Vec<u16> = needle.encode_utf16().collect();
                if needle.is_empty() {
                    return Some(from.min(units.len()));
                }
                (from..units.len().saturating_sub(needle.len() - 1)).find(|&p| units[p..p + needle.len()] == needle[..])
            }
            Old::Other => None,
        }
    }
}

/// JavaScript `===` between two JSON primitives.
fn strict_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        _ => false,
    }
}

/// `replaceCompactionReplayOwnerContent(before, after.content)`: keep `after`'s checkpoint, move
/// its `replayIndex`, or remove it. `after` already holds the new content (an array); `rebuilt`
/// names the blocks the step made anew even when they are equal to an old one. Returns what
/// changed, for the rewrite's detail, or `None` when the checkpoint stays as it is.
pub fn replace_owner_content(
    before: &Message,
    after: &mut Message,
    rebuilt: &dyn Fn(&Value) -> bool,
) -> Option<String> {
    if !has_movable_checkpoint(after) {
        return None;
    }
    let replay = checkpoint(after)?.clone();
    let raw_index = replay.get("replayIndex").filter(|v| !v.is_null()).cloned();
    let raw_index = raw_index.as_ref();
    let index = raw_index.map_or(0.0, to_number);
    let old = match before.content() {
        Some(Value::Array(blocks)) => Old::Blocks(blocks),
        Some(Value::String(s)) => Old::Text(s),
        _ => Old::Other,
    };
    let new: &[Value] = after.content_array().map_or(&[], |a| a);
    let old_len = old.length();
    let describe = |why: String| Some(format!("removed its compaction checkpoint (`providerReplay`): {why}"));
    if new.is_empty() && old_len.is_some_and(|n| n > 0.0) {
        after.remove("providerReplay");
        return describe("the content was emptied".to_owned());
    }
    if old_len.is_some_and(|n| index > n) {
        let shown = raw_index.map_or_else(|| "0".to_owned(), |v| v.to_string());
        after.remove("providerReplay");
        return describe(format!("replayIndex {shown} is past the end of the content"));
    }
    let mut source = 0usize;
    let mut next_index = 0u64;
    for (k, block) in new.iter().enumerate() {
        let Some(p) = old.index_of(block, source, rebuilt) else {
            after.remove("providerReplay");
            return describe(format!("block {k} of the new content is not one of the turn's blocks"));
        };
        source = p + 1;
        if (p as f64) < index {
            next_index += 1;
        }
    }
    if raw_index.is_some_and(|v| v.as_f64() == Some(next_index as f64)) || (raw_index.is_none() && next_index == 0) {
        return None;
    }
    let shown = raw_index.map_or_else(|| "0".to_owned(), |v| v.to_string());
    let mut moved = replay;
    moved.insert("replayIndex".into(), Value::Number(Number::from(next_index)));
    after.set("providerReplay", Value::Object(moved));
    Some(format!(
        "moved its compaction checkpoint: replayIndex {shown} → {next_index}"
    ))
}

/// Blocks no step rebuilds unless it changes them.
pub fn none_rebuilt(_: &Value) -> bool {
    false
}
