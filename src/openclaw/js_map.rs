//! JavaScript's `Map` as OpenClaw's passes use it for pending tool calls: keys in insertion
//! order, `set` on a present key keeps its place and replaces its value, `delete` then `set`
//! moves the key to the end. Every operation takes constant (amortized) time, so a turn of
//! tens of thousands of calls is checked in linear work; a list searched per key made the
//! Responses replay check quadratic (40,000 calls: 4.8 s).

use std::collections::HashMap;
use std::hash::Hash;

use crate::openclaw::work::examined;

/// An insertion-ordered map with JavaScript `Map` semantics.
#[derive(Debug, Clone)]
pub struct JsMap<K, V> {
    /// Entries in insertion order; a deleted entry leaves a hole.
    slots: Vec<Option<(K, V)>>,
    /// The slot of each present key.
    index: HashMap<K, usize>,
    /// No present entry sits before this slot.
    head: usize,
}

impl<K: Eq + Hash + Clone, V> Default for JsMap<K, V> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            index: HashMap::new(),
            head: 0,
        }
    }
}

impl<K: Eq + Hash + Clone, V> JsMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// `map.set(key, value)`: a present key keeps its place.
    pub fn set(&mut self, key: K, value: V) {
        examined(1);
        match self.index.get(&key) {
            Some(&slot) => {
                if let Some(entry) = self.slots[slot].as_mut() {
                    entry.1 = value;
                }
            }
            None => {
                self.index.insert(key.clone(), self.slots.len());
                self.slots.push(Some((key, value)));
            }
        }
    }

    /// `map.delete(key)`: the value, when the key was present.
    pub fn delete(&mut self, key: &K) -> Option<V> {
        examined(1);
        let slot = self.index.remove(key)?;
        self.slots[slot].take().map(|(_, v)| v)
    }

    /// The first entry in insertion order (`map.entries().next()`).
    pub fn first(&mut self) -> Option<(&K, &V)> {
        while self.head < self.slots.len() && self.slots[self.head].is_none() {
            examined(1);
            self.head += 1;
        }
        self.slots.get(self.head)?.as_ref().map(|(k, v)| (k, v))
    }

    /// Whether the map holds no entry.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn set_keeps_a_present_key_in_place_and_delete_then_set_moves_it_to_the_end() {
        let mut m = JsMap::new();
        m.set("a", 1);
        m.set("b", 2);
        m.set("a", 3);
        assert_eq!(m.first(), Some((&"a", &3)));
        assert_eq!(m.delete(&"a"), Some(3));
        assert_eq!(m.first(), Some((&"b", &2)));
        m.set("a", 4);
        assert_eq!(m.delete(&"b"), Some(2));
        assert_eq!(m.first(), Some((&"a", &4)));
        assert_eq!(m.delete(&"zz"), None);
        assert_eq!(m.delete(&"a"), Some(4));
        assert!(m.is_empty());
        assert_eq!(m.first(), None);
    }

    proptest! {
        #[test]
        fn it_behaves_like_a_list_searched_per_key(ops in prop::collection::vec((0u8..3, 0u8..6, 0u32..100), 0..80)) {
            let mut m = JsMap::new();
            let mut list: Vec<(u8, u32)> = Vec::new();
            for (op, key, value) in ops {
                match op {
                    0 | 1 => {
                        m.set(key, value);
                        match list.iter_mut().find(|(k, _)| *k == key) {
                            Some(e) => e.1 = value,
                            None => list.push((key, value)),
                        }
                    }
                    _ => {
                        let expected = list.iter().position(|(k, _)| *k == key).map(|p| list.remove(p).1);
                        prop_assert_eq!(m.delete(&key), expected);
                    }
                }
                prop_assert_eq!(m.first().map(|(k, v)| (*k, *v)), list.first().copied());
                prop_assert_eq!(m.is_empty(), list.is_empty());
            }
        }
    }
}
