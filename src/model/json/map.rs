//! JSON objects: keys in stored order, compact and shared until changed.

use std::collections::HashMap;
use std::fmt;
use std::ops::{Index, IndexMut};

use ecow::EcoVec;

use super::{Key, Value};

/// Objects with more keys than this are compared and deduplicated through a hash index.
const SMALL: usize = 16;

/// A JSON object: entries in stored order, shared between copies until one is changed.
///
/// Lookups compare keys in order: stored objects are small (a message or block has a handful
/// of keys). Equality ignores order, as serde_json's `preserve_order` map does.
#[derive(Clone, Default)]
pub struct Map(EcoVec<(Key, Value)>);

impl Map {
    /// An empty object.
    pub fn new() -> Self {
        Self(EcoVec::new())
    }

    /// An empty object with room for `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        Self(EcoVec::with_capacity(n))
    }

    /// Build from entries in order; a repeated key keeps its first place and its last value
    /// (as `JSON.parse` and serde_json do). Linear in the number of entries.
    pub fn from_entries(mut entries: Vec<(Key, Value)>) -> Self {
        if entries.len() > 1 {
            dedup_keys(&mut entries);
        }
        Self(EcoVec::from(entries))
    }

    /// Give back the room reserved beyond the entries (a map built by [`Map::insert`] keeps
    /// up to twice the room it needs), for objects that are kept.
    pub fn shrink_to_fit(&mut self) {
        if self.0.capacity() > self.0.len() {
            let entries: Vec<(Key, Value)> = std::mem::take(&mut self.0).into_iter().collect();
            self.0 = EcoVec::from(entries);
        }
    }

    /// Whether both objects are the same storage (one was cloned from the other and
    /// neither has been changed since), not merely equal.
    pub fn shares_storage(&self, other: &Map) -> bool {
        std::ptr::eq(self.0.as_slice().as_ptr(), other.0.as_slice().as_ptr())
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when the object has no entries.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.0.iter().position(|(k, _)| k.as_str() == key)
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find_map(|(k, v)| (k.as_str() == key).then_some(v))
    }

    /// The value of `key`, to change it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let i = self.position(key)?;
        Some(&mut self.0.make_mut()[i].1)
    }

    /// The entry of `key`, with its key.
    pub fn get_key_value(&self, key: &str) -> Option<(&Key, &Value)> {
        self.0.iter().find(|(k, _)| k.as_str() == key).map(|(k, v)| (k, v))
    }

    /// Whether `key` is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Set `key`: an existing key keeps its place and gives back its old value; a new key
    /// goes last.
    pub fn insert(&mut self, key: Key, value: Value) -> Option<Value> {
        match self.position(&key) {
            Some(i) => Some(std::mem::replace(&mut self.0.make_mut()[i].1, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }

    /// Set `key` at `index` (moving it there when present), shifting later entries.
    pub fn shift_insert(&mut self, index: usize, key: Key, value: Value) -> Option<Value> {
        let old = self.shift_remove(&key);
        let index = index.min(self.0.len());
        self.0.insert(index, (key, value));
        old
    }

    /// Remove `key`, keeping the order of the others.
    pub fn shift_remove(&mut self, key: &str) -> Option<Value> {
        let i = self.position(key)?;
        Some(self.0.remove(i).1)
    }

    /// Remove `key`, moving the last entry into its place (serde_json's `remove` under
    /// `preserve_order`).
    pub fn swap_remove(&mut self, key: &str) -> Option<Value> {
        let i = self.position(key)?;
        let last = self.0.len() - 1;
        if i != last {
            self.0.make_mut().swap(i, last);
        }
        self.0.pop().map(|(_, v)| v)
    }

    /// Remove `key` as serde_json's `Map::remove` does under `preserve_order` (a swap remove).
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.swap_remove(key)
    }

    /// Keep the entries for which `keep` says so, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Key, &mut Value) -> bool) {
        self.0.retain(|(k, v)| keep(k, v));
    }

    /// Remove every entry.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Move every entry of `other` into this object.
    pub fn append(&mut self, other: &mut Map) {
        self.extend(std::mem::take(other));
    }

    /// The entries in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.0.iter())
    }

    /// The entries in order, values changeable.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(self.0.make_mut().iter_mut())
    }

    /// The keys in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Key> + ExactSizeIterator {
        self.0.iter().map(|(k, _)| k)
    }

    /// The values in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.0.iter().map(|(_, v)| v)
    }

    /// The values in order, changeable.
    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut Value> + ExactSizeIterator {
        self.0.make_mut().iter_mut().map(|(_, v)| v)
    }

    /// The first entry.
    pub fn first(&self) -> Option<(&Key, &Value)> {
        self.0.first().map(|(k, v)| (k, v))
    }

    /// The entry at `index`.
    pub fn get_index(&self, index: usize) -> Option<(&Key, &Value)> {
        self.0.get(index).map(|(k, v)| (k, v))
    }

    /// A view for many lookups: objects over 16 keys get a hash index, so that looking up
    /// every key of another object stays linear.
    pub fn lookup(&self) -> Lookup<'_> {
        if self.len() <= SMALL {
            Lookup::Scan(self)
        } else {
            Lookup::Index(self.0.iter().map(|(k, v)| (k.as_str(), v)).collect())
        }
    }

    /// The entry of `key`, to read or insert it.
    pub fn entry(&mut self, key: impl Into<Key>) -> Entry<'_> {
        Entry {
            map: self,
            key: key.into(),
        }
    }

    /// The place of `key`.
    pub fn get_index_of(&self, key: &str) -> Option<usize> {
        self.position(key)
    }
}

/// A [`Map`] prepared for many lookups ([`Map::lookup`]).
pub enum Lookup<'a> {
    /// A small object, searched in order.
    Scan(&'a Map),
    /// A large object's hash index.
    Index(HashMap<&'a str, &'a Value>),
}

impl<'a> Lookup<'a> {
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        match self {
            Self::Scan(m) => m.get(key),
            Self::Index(index) => index.get(key).copied(),
        }
    }

    /// Whether `key` is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

/// One key of a [`Map`], present or not ([`Map::entry`]).
pub struct Entry<'a> {
    map: &'a mut Map,
    key: Key,
}

impl<'a> Entry<'a> {
    /// The value, inserted from `make` (last) when the key is missing.
    pub fn or_insert_with(self, make: impl FnOnce() -> Value) -> &'a mut Value {
        let i = match self.map.position(&self.key) {
            Some(i) => i,
            None => {
                self.map.0.push((self.key, make()));
                self.map.0.len() - 1
            }
        };
        &mut self.map.0.make_mut()[i].1
    }

    /// The value, inserted as `value` (last) when the key is missing.
    pub fn or_insert(self, value: Value) -> &'a mut Value {
        self.or_insert_with(|| value)
    }
}

/// Keep the first place and the last value of each repeated key.
fn dedup_keys(entries: &mut Vec<(Key, Value)>) {
    if entries.len() <= SMALL {
        let mut i = 1;
        while i < entries.len() {
            if let Some(j) = entries[..i].iter().position(|(k, _)| *k == entries[i].0) {
                let (_, v) = entries.remove(i);
                entries[j].1 = v;
            } else {
                i += 1;
            }
        }
        return;
    }
    let mut first: HashMap<Key, usize> = HashMap::with_capacity(entries.len());
    let mut keep = vec![true; entries.len()];
    for i in 0..entries.len() {
        match first.get(&entries[i].0) {
            Some(&j) => {
                let v = std::mem::take(&mut entries[i].1);
                entries[j].1 = v;
                keep[i] = false;
            }
            None => {
                first.insert(entries[i].0, i);
            }
        }
    }
    let mut keep = keep.into_iter();
    entries.retain(|_| keep.next().unwrap_or(true));
}

impl PartialEq for Map {
    fn eq(&self, other: &Self) -> bool {
        if self.len() != other.len() {
            return false;
        }
        if self.0.iter().zip(other.0.iter()).all(|(a, b)| a == b) {
            return true;
        }
        if self.len() <= SMALL {
            return self.0.iter().all(|(k, v)| other.get(k) == Some(v));
        }
        let other = other.lookup();
        self.0.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl Eq for Map {}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Index<&str> for Map {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        self.get(key).expect("key present in the object")
    }
}

impl IndexMut<&str> for Map {
    fn index_mut(&mut self, key: &str) -> &mut Value {
        self.get_mut(key).expect("key present in the object")
    }
}

impl<K: Into<Key>> FromIterator<(K, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Self {
        Self::from_entries(iter.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl<K: Into<Key>> Extend<(K, Value)> for Map {
    /// Insert every entry in order (an existing key keeps its place). Linear: a large result
    /// is rebuilt in one go instead of searched once per entry.
    fn extend<I: IntoIterator<Item = (K, Value)>>(&mut self, iter: I) {
        let new: Vec<(Key, Value)> = iter.into_iter().map(|(k, v)| (k.into(), v)).collect();
        if self.len() + new.len() <= SMALL {
            for (k, v) in new {
                self.insert(k, v);
            }
            return;
        }
        let mut entries: Vec<(Key, Value)> = std::mem::take(self).into_iter().collect();
        entries.extend(new);
        *self = Map::from_entries(entries);
    }
}

/// The entries of a [`Map`], in order.
#[derive(Clone)]
pub struct Iter<'a>(std::slice::Iter<'a, (Key, Value)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Key, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// The entries of a [`Map`], in order, values changeable.
pub struct IterMut<'a>(std::slice::IterMut<'a, (Key, Value)>);

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a Key, &'a mut Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for IterMut<'_> {}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Key, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a Key, &'a mut Value);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl IntoIterator for Map {
    type Item = (Key, Value);
    type IntoIter = ecow::vec::IntoIter<(Key, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(n: i64) -> Value {
        Value::from(n)
    }

    #[test]
    fn insert_keeps_the_place_of_an_existing_key() {
        let mut m = Map::new();
        m.insert("a".into(), num(1));
        m.insert("b".into(), num(2));
        assert_eq!(m.insert("a".into(), num(3)), Some(num(1)));
        assert_eq!(m.keys().map(Key::as_str).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(m["a"], num(3));
    }

    #[test]
    fn removes_shift_or_swap_like_serde_json() {
        let m: Map = [("a", num(1)), ("b", num(2)), ("c", num(3))].into_iter().collect();
        let mut shifted = m.clone();
        shifted.shift_remove("a");
        assert_eq!(shifted.keys().map(Key::as_str).collect::<Vec<_>>(), ["b", "c"]);
        let mut swapped = m.clone();
        swapped.remove("a");
        assert_eq!(swapped.keys().map(Key::as_str).collect::<Vec<_>>(), ["c", "b"]);
        assert_eq!(m.len(), 3, "copies share entries until changed");
    }

    #[test]
    fn repeated_keys_keep_the_first_place_and_the_last_value() {
        for n in [3usize, 40] {
            let mut entries: Vec<(Key, Value)> = (0..n).map(|i| (Key::from(format!("k{i}")), num(i as i64))).collect();
            entries.push(("k1".into(), num(-1)));
            let m = Map::from_entries(entries);
            assert_eq!(m.len(), n);
            assert_eq!(m.get_index(1), Some((&Key::from("k1"), &num(-1))));
        }
    }

    #[test]
    fn lookups_on_small_and_large_objects() {
        for n in [3i64, 100] {
            let m: Map = (0..n).map(|i| (format!("k{i}"), num(i))).collect();
            let l = m.lookup();
            assert!(matches!(
                (&l, n > 16),
                (Lookup::Index(_), true) | (Lookup::Scan(_), false)
            ));
            assert_eq!(l.get("k2"), Some(&num(2)));
            assert!(!l.contains_key("nope"));
        }
    }

    #[test]
    fn equality_ignores_order() {
        let a: Map = [("x", num(1)), ("y", num(2))].into_iter().collect();
        let b: Map = [("y", num(2)), ("x", num(1))].into_iter().collect();
        assert_eq!(a, b);
        let big_a: Map = (0..40).map(|i| (format!("k{i}"), num(i))).collect();
        let big_b: Map = (0..40).rev().map(|i| (format!("k{i}"), num(i))).collect();
        assert_eq!(big_a, big_b);
        assert_ne!(a, big_a);
    }

    #[test]
    fn extend_inserts_in_order_at_any_size() {
        for n in [3i64, 40] {
            let mut m: Map = (0..n).map(|i| (format!("k{i}"), num(i))).collect();
            m.extend([("k1", num(-1)), ("new", num(7)), ("new", num(8))]);
            assert_eq!(m.len() as i64, n + 1);
            assert_eq!(m.get_index(1), Some((&Key::from("k1"), &num(-1))));
            assert_eq!(m.keys().last().map(Key::as_str), Some("new"));
            assert_eq!(m["new"], num(8));
        }
    }

    #[test]
    fn shrink_to_fit_keeps_the_entries() {
        let mut m = Map::new();
        for i in 0..5 {
            m.insert(format!("k{i}").into(), num(i));
        }
        let before = m.clone();
        m.shrink_to_fit();
        assert_eq!(m, before);
        assert_eq!(m.0.capacity(), 5);
    }

    #[test]
    fn retain_and_shift_insert() {
        let mut m: Map = [("a", num(1)), ("b", num(2)), ("c", num(3))].into_iter().collect();
        m.retain(|k, _| k != "b");
        assert_eq!(m.keys().map(Key::as_str).collect::<Vec<_>>(), ["a", "c"]);
        m.shift_insert(0, "c".into(), num(9));
        assert_eq!(m.keys().map(Key::as_str).collect::<Vec<_>>(), ["c", "a"]);
    }
}
