//! Looking up a value by key or position, and `value["key"]` indexing, as in serde_json.

use std::ops;

use super::Value;

/// What [`Value::get`] accepts: a key (for objects) or a position (for arrays).
pub trait Index {
    /// The value this index selects in `v`.
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value>;
    /// The value this index selects in `v`, to change it.
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value>;
}

impl Index for usize {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_array().and_then(|a| a.get(*self))
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_array_mut().and_then(|a| a.get_mut(*self))
    }
}

impl Index for str {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_object().and_then(|m| m.get(self))
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_object_mut().and_then(|m| m.get_mut(self))
    }
}

impl Index for String {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(v)
    }
}

impl<T: Index + ?Sized> Index for &T {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        (**self).index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(v)
    }
}

static NULL: Value = Value::Null;

impl<I: Index> ops::Index<I> for Value {
    type Output = Value;
    /// The selected value, or `null` when there is none (as serde_json does).
    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}

impl ops::IndexMut<&str> for Value {
    /// The field `key` of an object, inserted as `null` when missing; a `null` value becomes
    /// an empty object first (as serde_json does). Panics on other values.
    fn index_mut(&mut self, key: &str) -> &mut Value {
        if self.is_null() {
            *self = Value::Object(super::Map::new());
        }
        match self {
            Value::Object(m) => {
                if !m.contains_key(key) {
                    m.insert(key.into(), Value::Null);
                }
                m.get_mut(key).expect("just inserted")
            }
            other => panic!("cannot index {} with a key", other.kind()),
        }
    }
}

impl ops::IndexMut<usize> for Value {
    /// The element at `i` of an array. Panics when out of range or not an array.
    fn index_mut(&mut self, i: usize) -> &mut Value {
        match self {
            Value::Array(a) => {
                let len = a.len();
                a.get_mut(i)
                    .unwrap_or_else(|| panic!("index {i} out of range for an array of {len}"))
            }
            other => panic!("cannot index {} with a position", other.kind()),
        }
    }
}

impl Value {
    /// The JSON kind of the value, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }
}
