//! Assistant usage snapshots (OpenClaw's `ensureAssistantUsageSnapshots`): the zero snapshot, alias-tolerant
//! normalization to `{input, output, cacheRead, cacheWrite, totalTokens[, cost]}`, and the
//! test of whether a stored usage already has that shape.

use std::sync::LazyLock;

use crate::json;
use crate::model::json::{Map, Value};

/// `makeZeroUsageSnapshot()`.
pub fn zero_snapshot() -> Value {
    static ZERO: LazyLock<Value> = LazyLock::new(|| {
        json!({
            "input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}
        })
    });
    // Every zeroed turn shares this one object until something changes it.
    ZERO.clone()
}

/// A JSON number as JavaScript prints it: integral values without a fraction.
pub fn num(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        Value::from(x as i64)
    } else {
        crate::model::json::Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

fn finite(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_f64).filter(|f| f.is_finite())
}

/// JavaScript `a ?? b ?? …`: the first value that is present and not null.
fn first<'a>(raw: &'a Map, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().filter_map(|k| raw.get(k)).find(|v| !v.is_null())
}

fn nested<'a>(raw: &'a Map, outer: &str, inner: &str) -> Option<&'a Value> {
    raw.get(outer).and_then(|o| o.get(inner)).filter(|v| !v.is_null())
}

/// `normalizeUsage`: the five token counts read through their aliases, or `None` when none
/// is a finite number.
fn normalize_counts(raw: &Map) -> Option<[Option<f64>; 5]> {
    let cache_read = finite(
        first(
            raw,
            &["cacheRead", "cache_read", "cache_read_input_tokens", "cached_tokens"],
        )
        .or_else(|| nested(raw, "input_tokens_details", "cached_tokens"))
        .or_else(|| nested(raw, "prompt_tokens_details", "cached_tokens")),
    );
    let openai_prompt_totals = raw.contains_key("cached_tokens")
        || raw
            .get("input_tokens_details")
            .and_then(|d| d.get("cached_tokens"))
            .is_some()
        || raw
            .get("prompt_tokens_details")
            .and_then(|d| d.get("cached_tokens"))
            .is_some();
    let raw_input = finite(first(
        raw,
        &["input", "inputTokens", "input_tokens", "promptTokens", "prompt_tokens"],
    ));
    let input = match (raw_input, cache_read) {
        (Some(i), Some(c)) if openai_prompt_totals => Some((i - c).max(0.0)),
        (i, _) => i.map(|i| if i < 0.0 { 0.0 } else { i }),
    };
    let output = finite(first(
        raw,
        &[
            "output",
            "outputTokens",
            "output_tokens",
            "completionTokens",
            "completion_tokens",
        ],
    ));
    let cache_write = finite(first(
        raw,
        &["cacheWrite", "cache_write", "cache_creation_input_tokens"],
    ));
    let total = finite(first(raw, &["total", "totalTokens", "total_tokens"]));
    let counts = [input, output, cache_read, cache_write, total];
    counts.iter().any(Option::is_some).then_some(counts)
}

/// `normalizeAssistantUsageCost`: numeric cost fields, defaults 0, total defaulting to the
/// sum; `totalOrigin: "provider-billed"` kept. `None` when no field is a finite number.
fn normalize_cost(raw: &Map) -> Option<Value> {
    let cost = raw.get("cost")?.as_object()?;
    let keys = ["input", "output", "cacheRead", "cacheWrite", "total"];
    let vals: Vec<Option<f64>> = keys.iter().map(|k| finite(cost.get(k))).collect();
    if vals.iter().all(Option::is_none) {
        return None;
    }
    let part = |i: usize| vals[i].unwrap_or(0.0);
    let total = vals[4].unwrap_or(part(0) + part(1) + part(2) + part(3));
    let mut out = Map::new();
    for (i, k) in keys.iter().take(4).enumerate() {
        out.insert((*k).to_owned().into(), num(part(i)));
    }
    out.insert("total".into(), num(total));
    if cost.get("totalOrigin").and_then(Value::as_str) == Some("provider-billed") {
        out.insert("totalOrigin".into(), Value::from("provider-billed"));
    }
    out.shrink_to_fit();
    Some(Value::Object(out))
}

/// `normalizeAssistantUsageSnapshot`: the snapshot OpenClaw replays for a stored usage value
/// (the zero snapshot for a missing or unusable one). A `contextUsage` object is kept as
/// stored, between `cacheWrite` and `totalTokens`.
pub fn normalize_snapshot(usage: Option<&Value>) -> Value {
    let Some(raw) = usage.and_then(Value::as_object) else {
        return zero_snapshot();
    };
    let Some([input, output, cache_read, cache_write, total]) = normalize_counts(raw) else {
        return zero_snapshot();
    };
    let (i, o, r, w) = (
        input.unwrap_or(0.0),
        output.unwrap_or(0.0),
        cache_read.unwrap_or(0.0),
        cache_write.unwrap_or(0.0),
    );
    let mut out = Map::new();
    out.insert("input".into(), num(i));
    out.insert("output".into(), num(o));
    out.insert("cacheRead".into(), num(r));
    out.insert("cacheWrite".into(), num(w));
    if let Some(ctx) = raw.get("contextUsage").filter(|c| c.is_object()) {
        out.insert("contextUsage".into(), ctx.clone());
    }
    out.insert("totalTokens".into(), num(total.unwrap_or(i + o + r + w)));
    if let Some(cost) = normalize_cost(raw) {
        out.insert("cost".into(), cost);
    }
    out.shrink_to_fit();
    Value::Object(out)
}

/// Whether a stored usage already matches its normalized snapshot (`ensureAssistantUsageSnapshots`):
/// the five token fields are equal numbers, `contextUsage` agrees, and the cost fields are
/// equal numbers (or both costs are absent). Extra stored fields do not matter.
pub fn already_normalized(usage: Option<&Value>, normalized: &Value) -> bool {
    let Some(raw) = usage.and_then(Value::as_object) else {
        return false;
    };
    let same = |a: Option<&Value>, b: Option<&Value>| match (finite(a), b.and_then(Value::as_f64)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    };
    let tokens = ["input", "output", "cacheRead", "cacheWrite", "totalTokens"]
        .iter()
        .all(|k| same(raw.get(k), normalized.get(*k)));
    let context = raw.get("contextUsage").is_none() || normalized.get("contextUsage").is_some();
    let cost = match normalized.get("cost") {
        Some(n) => raw.get("cost").and_then(Value::as_object).is_some_and(|c| {
            ["input", "output", "cacheRead", "cacheWrite", "total"]
                .iter()
                .all(|k| same(c.get(k), n.get(*k)))
        }),
        None => raw.get("cost").is_none(),
    };
    tokens && context && cost
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_read_and_openai_prompt_totals_exclude_cache_reads() {
        let u = json!({"prompt_tokens": 100, "completion_tokens": 20, "prompt_tokens_details": {"cached_tokens": 30}, "total_tokens": 120});
        assert_eq!(
            normalize_snapshot(Some(&u)),
            json!({"input": 70, "output": 20, "cacheRead": 30, "cacheWrite": 0, "totalTokens": 120})
        );
        let u = json!({"input_tokens": 5, "output_tokens": 2, "cache_read_input_tokens": 3, "cache_creation_input_tokens": 1});
        assert_eq!(
            normalize_snapshot(Some(&u)),
            json!({"input": 5, "output": 2, "cacheRead": 3, "cacheWrite": 1, "totalTokens": 11})
        );
    }

    #[test]
    fn missing_or_unusable_usage_becomes_the_zero_snapshot() {
        assert_eq!(normalize_snapshot(None), zero_snapshot());
        assert_eq!(normalize_snapshot(Some(&json!("n/a"))), zero_snapshot());
        assert_eq!(
            normalize_snapshot(Some(&json!({"cost": {"total": 1}}))),
            zero_snapshot()
        );
        assert_eq!(normalize_snapshot(Some(&json!({"input": "5"}))), zero_snapshot());
    }

    #[test]
    fn cost_is_numeric_with_summed_total_and_billing_origin() {
        let u = json!({"input": 1, "output": 1, "cost": {"input": 0.5, "output": 0.25, "totalOrigin": "provider-billed", "x": 1}});
        let n = normalize_snapshot(Some(&u));
        assert_eq!(
            n["cost"],
            json!({"input": 0.5, "output": 0.25, "cacheRead": 0, "cacheWrite": 0, "total": 0.75, "totalOrigin": "provider-billed"})
        );
        assert!(!already_normalized(Some(&u), &n));
    }

    #[test]
    fn complete_usage_with_extra_fields_is_already_normalized() {
        let u = json!({"input": 1, "output": 2, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 3, "reasoning": 9});
        assert!(already_normalized(Some(&u), &normalize_snapshot(Some(&u))));
        let u = json!({"input": 1, "output": 2, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 3, "cost": null});
        assert!(!already_normalized(Some(&u), &normalize_snapshot(Some(&u))));
        assert!(!already_normalized(None, &zero_snapshot()));
    }
}
