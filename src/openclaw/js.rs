//! JavaScript semantics OpenClaw relies on, shared by hygiene, wire, lint and repair:
//! `String.prototype.trim` and its whitespace, truthiness, Node's deep strict equality,
//! `String(value)` and `Array.prototype.join`, a field copied only when it is defined, a
//! number as `JSON.stringify` writes it after `JSON.parse`.

use crate::model::json::{Map, Number, Value};

/// Whether `c` is whitespace for JavaScript's `trim()` and `\s` (WhiteSpace + LineTerminator).
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

/// JavaScript `s.trim()`.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// JavaScript `s.trimStart()`.
pub fn js_trim_start(s: &str) -> &str {
    s.trim_start_matches(is_js_whitespace)
}

/// JavaScript `s.trimEnd()`.
pub fn js_trim_end(s: &str) -> &str {
    s.trim_end_matches(is_js_whitespace)
}

/// JavaScript truthiness of a JSON value (`null`, `false`, `0`, `""` are falsy).
pub fn js_truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// Node's `isDeepStrictEqual` for JSON values: object key order is irrelevant and numbers
/// compare by value (`1` equals `1.0`).
pub fn deep_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64().zip(y.as_f64()).is_some_and(|(x, y)| x == y),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| deep_equal(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| deep_equal(v, w)))
        }
        _ => a == b,
    }
}

/// JavaScript truthiness of an optional JSON value (`undefined` when absent).
pub fn truthy(v: Option<&Value>) -> bool {
    v.is_some_and(js_truthy)
}

/// `String(value)`, also what a template literal prints: `undefined` when absent, `null`,
/// a string as it is, an object as `[object Object]`, an array as its elements joined by
/// commas (`null` elements empty).
pub fn string(v: Option<&Value>) -> String {
    match v {
        None => "undefined".to_owned(),
        Some(Value::String(s)) => s.to_string(),
        Some(Value::Object(_)) => "[object Object]".to_owned(),
        Some(Value::Array(items)) => items.iter().map(join_element).collect::<Vec<_>>().join(","),
        Some(other) => other.to_string(),
    }
}

/// An element as `Array.prototype.join` prints it: `null` and `undefined` as the empty
/// string, anything else as [`string`].
pub fn join_element(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        other => string(Some(other)),
    }
}

/// Insert `key` with a copy of `value` when the field is defined (JSON drops `undefined`).
pub fn put(object: &mut Map, key: &str, value: Option<&Value>) {
    if let Some(v) = value {
        object.insert(key.to_owned().into(), v.clone());
    }
}

/// A JSON number as `JSON.stringify(JSON.parse(token))` writes it: the shortest digits
/// that read back as the same double, in JavaScript's fixed or exponent form (`1.50` → `1.5`,
/// `1e21` → `1e+21`, `-0` → `0`); `null` beyond the double range.
pub fn number(n: &Number) -> Value {
    let Some(f) = n.as_f64().filter(|f| f.is_finite()) else {
        return Value::Null;
    };
    if f == 0.0 {
        return number_of("0", n);
    }
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i64;
    let e: i64 = exp.parse().unwrap_or(0) + 1;
    let body = if k <= e && e <= 21 {
        format!("{digits}{}", "0".repeat((e - k) as usize))
    } else if 0 < e && e <= 21 {
        format!("{}.{}", &digits[..e as usize], &digits[e as usize..])
    } else if -6 < e && e <= 0 {
        format!("0.{}{digits}", "0".repeat((-e) as usize))
    } else {
        let sign = if e - 1 < 0 { '-' } else { '+' };
        let rest = if k > 1 {
            format!(".{}", &digits[1..])
        } else {
            String::new()
        };
        format!("{}{rest}e{sign}{}", &digits[..1], (e - 1).abs())
    };
    let text = if f < 0.0 { format!("-{body}") } else { body };
    number_of(&text, n)
}

/// The number written `text` (`fallback` should it not parse).
fn number_of(text: &str, fallback: &Number) -> Value {
    let parsed = text.parse::<serde_json::Number>().map(Number::from);
    Value::Number(parsed.unwrap_or_else(|_| fallback.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn deep_equal_ignores_key_order_and_number_spelling() {
        assert!(deep_equal(&json!({"a": 1, "b": [1.0]}), &json!({"b": [1], "a": 1.0})));
        assert!(!deep_equal(&json!({"a": 1}), &json!({"a": 1, "b": null})));
    }

    #[test]
    fn numbers_are_written_as_javascript_writes_them() {
        let js = |token: &str| {
            let n: serde_json::Number = token.parse().unwrap();
            number(&Number::from(n)).to_string()
        };
        assert_eq!(js("1.50"), "1.5");
        assert_eq!(js("-0"), "0");
        assert_eq!(js("100"), "100");
        assert_eq!(js("1e21"), "1e+21");
        assert_eq!(js("123456789012345678901"), "123456789012345680000");
        assert_eq!(js("0.000001"), "0.000001");
        assert_eq!(js("1.5e-7"), "1.5e-7");
        assert_eq!(js("-2.5E3"), "-2500");
        assert_eq!(js("1e400"), "null");
    }

    #[test]
    fn string_conversion_follows_javascript() {
        assert_eq!(string(None), "undefined");
        assert_eq!(string(Some(&Value::Null)), "null");
        assert_eq!(string(Some(&json!("a"))), "a");
        assert_eq!(string(Some(&json!(12))), "12");
        assert_eq!(string(Some(&json!(true))), "true");
        assert_eq!(string(Some(&json!({"a": 1}))), "[object Object]");
        assert_eq!(string(Some(&json!([1, null, "x", [2, 3]]))), "1,,x,2,3");
        assert_eq!(join_element(&Value::Null), "");
    }
}
