//! The compact JSON document model every stored entry and message is kept in.
//!
//! A session holds millions of small JSON values. `serde_json::Value` (with `preserve_order`)
//! spends 72 bytes on each value and a hash index plus a heap string on each object key, about
//! 11× the file on a session of short messages. This model spends 24 bytes a value and 8 a key
//! (keys are interned), keeps strings and numbers of up to 15 bytes inline, and shares arrays and objects between
//! copies until one is changed, so a rule that rewrites one field of a message copies only
//! that message's top-level entries (PERFORMANCE.md, "Memory").
//!
//! The API follows `serde_json::Value` (same variants, same accessors) and the JSON it reads
//! and writes is byte for byte serde_json's: keys keep their stored order, numbers keep their
//! exact text (`arbitrary_precision`), and equality of objects ignores key order.

mod array;
mod convert;
mod index;
mod key;
mod map;
mod number;
mod recent;
mod serde_impl;

#[cfg(test)]
mod tests;

pub use array::Array;
pub use convert::{from_value, to_value};
pub use index::Index;
pub use key::Key;
pub use map::{Entry, Iter as MapIter, Lookup, Map};
pub use number::Number;

/// A JSON string. Up to 15 bytes are stored inline; longer ones are shared between copies.
pub type Str = ecow::EcoString;

/// A JSON value.
#[derive(Clone, Default, PartialEq, Eq)]
pub enum Value {
    /// `null`
    #[default]
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A number, kept as written.
    Number(Number),
    /// A string.
    String(Str),
    /// An array.
    Array(Array),
    /// An object, keys in stored order.
    Object(Map),
}

impl Value {
    /// An object of these entries in this order, built directly: the values are moved in,
    /// not copied through `serde_json` as [`json!`](crate::json) would copy them.
    pub fn object<const N: usize>(entries: [(&str, Value); N]) -> Self {
        Self::Object(Map::from_entries(
            entries.into_iter().map(|(k, v)| (Key::from(k), v)).collect(),
        ))
    }

    /// Whether the value is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Self::Null)
    }

    /// Whether the value is `true` or `false`.
    pub fn is_boolean(&self) -> bool {
        matches!(self, Self::Bool(_))
    }

    /// Whether the value is a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Self::Number(_))
    }

    /// Whether the value is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Self::String(_))
    }

    /// Whether the value is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Self::Array(_))
    }

    /// Whether the value is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Self::Object(_))
    }

    /// Whether the value is a number that fits an `i64`.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether the value is a number that fits a `u64`.
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// Whether the value is a number written as a float within f64 range.
    pub fn is_f64(&self) -> bool {
        self.as_number().is_some_and(Number::is_f64)
    }

    /// `Some(())` for `null`.
    pub fn as_null(&self) -> Option<()> {
        self.is_null().then_some(())
    }

    /// The boolean, when the value is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Self::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, when the value is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Self::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number as an `i64`, when it is an integer in range.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }

    /// The number as a `u64`, when it is a non-negative integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }

    /// The number as a finite `f64`.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().and_then(Number::as_f64)
    }

    /// The string, when the value is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(s) => Some(s),
            _ => None,
        }
    }

    /// The array, when the value is one.
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Self::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The array, to change it, when the value is one.
    pub fn as_array_mut(&mut self) -> Option<&mut Array> {
        match self {
            Self::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The object, when the value is one.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Self::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The object, to change it, when the value is one.
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Self::Object(m) => Some(m),
            _ => None,
        }
    }

    /// A field of an object (by key) or an element of an array (by position).
    pub fn get<I: Index>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    /// [`Value::get`], to change the value found.
    pub fn get_mut<I: Index>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }

    /// The value at a JSON Pointer (RFC 6901), e.g. `/content/0/text`.
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        if pointer.is_empty() {
            return Some(self);
        }
        let rest = pointer.strip_prefix('/')?;
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .try_fold(self, |v, token| match v {
                Self::Object(m) => m.get(&token),
                Self::Array(a) => token.parse::<usize>().ok().and_then(|i| a.get(i)),
                _ => None,
            })
    }

    /// Take the value, leaving `null` in its place.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }
}

/// Build a [`Value`] with `serde_json::json!`'s syntax.
#[macro_export]
macro_rules! json {
    ($($json:tt)+) => {
        $crate::model::json::Value::from_serde(::serde_json::json!($($json)+))
    };
}
