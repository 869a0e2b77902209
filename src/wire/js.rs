//! JavaScript value semantics the ported transforms and converters share: truthiness,
//! `String(value)` and `Array.prototype.join`, a field copied only when it is defined.

use crate::model::json::{Map, Value};

use crate::hygiene::rules::turn_merge::js_truthy;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

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
