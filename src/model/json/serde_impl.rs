//! Reading and writing [`Value`] through serde, byte for byte as serde_json does.
//!
//! Numbers travel as serde_json's `arbitrary_precision` numbers do: a one-field struct (or
//! map) under serde_json's private token holding the number's text, so the exact digits are
//! kept both ways.

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Array, Key, Map, Number, Value};

/// serde_json's marker for a number carried as text (`arbitrary_precision`).
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct(NUMBER_TOKEN, 1)?;
        st.serialize_field(NUMBER_TOKEN, self.as_str())?;
        st.end()
    }
}

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

impl Serialize for Array {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for v in self.iter() {
            seq.serialize_element(v)?;
        }
        seq.end()
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k.as_str(), v)?;
        }
        map.end()
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => n.serialize(s),
            Value::String(v) => s.serialize_str(v),
            Value::Array(a) => a.serialize(s),
            Value::Object(m) => m.serialize(s),
        }
    }
}

impl fmt::Display for Value {
    /// Compact JSON, or indented JSON with `{:#}`, as serde_json's `Value` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = if f.alternate() {
            serde_json::to_string_pretty(self)
        } else {
            serde_json::to_string(self)
        }
        .map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("Null"),
            Value::Bool(b) => write!(f, "Bool({b})"),
            Value::Number(n) => write!(f, "Number({n})"),
            Value::String(s) => write!(f, "String({s:?})"),
            Value::Array(a) => {
                f.write_str("Array ")?;
                fmt::Debug::fmt(a, f)
            }
            Value::Object(m) => {
                f.write_str("Object ")?;
                fmt::Debug::fmt(m, f)
            }
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Map {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Map, D::Error> {
        match Value::deserialize(d)? {
            Value::Object(m) => Ok(m),
            other => Err(de::Error::invalid_type(unexpected(&other), &"a JSON object")),
        }
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        d.deserialize_str(KeyVisitor)
    }
}

fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(_) => de::Unexpected::Other("number"),
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::from(f))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(super::recent::shared(s)))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(Array::from(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let first = match map.next_key_seed(FirstKey)? {
            None => return Ok(Value::Object(Map::new())),
            Some(FirstKeyKind::Number) => {
                // As serde_json does, the text is read as a number, so that a stored object
                // that merely has this key cannot smuggle in a number that is not one.
                let text: String = map.next_value()?;
                let number: serde_json::Number = text.parse().map_err(de::Error::custom)?;
                return Ok(Value::Number(Number::from(number)));
            }
            Some(FirstKeyKind::Key(k)) => k,
        };
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(4).min(4096));
        entries.push((first, map.next_value()?));
        while let Some(k) = map.next_key::<Key>()? {
            entries.push((k, map.next_value()?));
        }
        Ok(Value::Object(Map::from_entries(entries)))
    }
}

struct KeyVisitor;

impl Visitor<'_> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_str<E>(self, s: &str) -> Result<Key, E> {
        Ok(Key::from(s))
    }
}

/// The first key of a map: serde_json's number token, or an object key.
enum FirstKeyKind {
    Number,
    Key(Key),
}

struct FirstKey;

impl<'de> DeserializeSeed<'de> for FirstKey {
    type Value = FirstKeyKind;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<FirstKeyKind, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for FirstKey {
    type Value = FirstKeyKind;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_str<E>(self, s: &str) -> Result<FirstKeyKind, E> {
        Ok(if s == NUMBER_TOKEN {
            FirstKeyKind::Number
        } else {
            FirstKeyKind::Key(Key::from(s))
        })
    }
}
