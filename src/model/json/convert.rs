//! Conversions: Rust values and `serde_json::Value` to and from [`Value`].

use std::borrow::Cow;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Array, Key, Map, Number, Str, Value};

impl Value {
    /// Convert a `serde_json::Value` (as `serde_json::json!` builds it).
    pub fn from_serde(v: serde_json::Value) -> Self {
        match v {
            serde_json::Value::Null => Self::Null,
            serde_json::Value::Bool(b) => Self::Bool(b),
            serde_json::Value::Number(n) => Self::Number(n.into()),
            serde_json::Value::String(s) => Self::String(s.into()),
            serde_json::Value::Array(a) => Self::Array(a.into_iter().map(Self::from_serde).collect()),
            serde_json::Value::Object(m) => Self::Object(Map::from_entries(
                m.into_iter()
                    .map(|(k, v)| (Key::from(k), Self::from_serde(v)))
                    .collect(),
            )),
        }
    }

    /// The same value as a `serde_json::Value`.
    pub fn to_serde(&self) -> serde_json::Value {
        match self {
            Self::Null => serde_json::Value::Null,
            Self::Bool(b) => serde_json::Value::Bool(*b),
            Self::Number(n) => serde_json::Value::Number(n.into()),
            Self::String(s) => serde_json::Value::String(s.to_string()),
            Self::Array(a) => serde_json::Value::Array(a.iter().map(Self::to_serde).collect()),
            Self::Object(m) => {
                serde_json::Value::Object(m.iter().map(|(k, v)| (k.to_string(), v.to_serde())).collect())
            }
        }
    }
}

/// Serialize any value into a [`Value`].
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, serde_json::Error> {
    serde_json::to_value(value).map(Value::from_serde)
}

/// Deserialize a Rust value from a [`Value`].
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, serde_json::Error> {
    serde_json::from_value(value.to_serde())
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Self::Bool(b)
    }
}

macro_rules! from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Self {
                Self::Number(Number::from(n))
            }
        }
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                self.as_number().and_then(|n| n.as_str().parse::<i128>().ok()) == Some(*other as i128)
            }
        }
        impl PartialEq<Value> for $t {
            fn eq(&self, other: &Value) -> bool {
                other == self
            }
        }
    )*};
}

from_integer!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl From<f64> for Value {
    /// `null` for NaN and the infinities, as serde_json does.
    fn from(f: f64) -> Self {
        Number::from_f64(f).map_or(Self::Null, Self::Number)
    }
}

impl From<f32> for Value {
    fn from(f: f32) -> Self {
        Self::from(f64::from(f))
    }
}

impl PartialEq<f64> for Value {
    fn eq(&self, other: &f64) -> bool {
        self.as_f64() == Some(*other)
    }
}

impl From<Number> for Value {
    fn from(n: Number) -> Self {
        Self::Number(n)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Self::String(s.into())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Self::String(s.into())
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Self {
        Self::String(s.as_str().into())
    }
}

impl From<Str> for Value {
    fn from(s: Str) -> Self {
        Self::String(s)
    }
}

impl From<Cow<'_, str>> for Value {
    fn from(s: Cow<'_, str>) -> Self {
        Self::String(s.into())
    }
}

impl From<Key> for Value {
    fn from(k: Key) -> Self {
        Self::String(k.as_str().into())
    }
}

impl From<Array> for Value {
    fn from(a: Array) -> Self {
        Self::Array(a)
    }
}

impl From<Vec<Value>> for Value {
    fn from(v: Vec<Value>) -> Self {
        Self::Array(v.into())
    }
}

impl From<&[Value]> for Value {
    fn from(v: &[Value]) -> Self {
        Self::Array(v.into())
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Self {
        Self::Object(m)
    }
}

impl From<()> for Value {
    fn from(_: ()) -> Self {
        Self::Null
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(o: Option<T>) -> Self {
        o.map_or(Self::Null, Into::into)
    }
}

impl From<serde_json::Value> for Value {
    fn from(v: serde_json::Value) -> Self {
        Self::from_serde(v)
    }
}

impl FromIterator<Value> for Value {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Self {
        Self::Array(iter.into_iter().collect())
    }
}

impl<K: Into<Key>> FromIterator<(K, Value)> for Value {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Self {
        Self::Object(iter.into_iter().collect())
    }
}

impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<String> for Value {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == Some(other.as_str())
    }
}

impl PartialEq<bool> for Value {
    fn eq(&self, other: &bool) -> bool {
        self.as_bool() == Some(*other)
    }
}

impl PartialEq<Value> for str {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

impl PartialEq<Value> for &str {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

impl PartialEq<Value> for String {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

impl PartialEq<Value> for bool {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}
