//! JSON arrays: compact and shared between copies until one is changed.

use std::fmt;
use std::ops::{Deref, DerefMut, RangeBounds};

use ecow::EcoVec;

use super::Value;

/// A JSON array. Copies share their elements until one of them is changed (then that copy
/// gets its own elements; nested arrays and objects stay shared).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Array(EcoVec<Value>);

impl Array {
    /// An empty array.
    pub fn new() -> Self {
        Self(EcoVec::new())
    }

    /// An empty array with room for `n` values.
    pub fn with_capacity(n: usize) -> Self {
        Self(EcoVec::with_capacity(n))
    }

    /// Append a value.
    pub fn push(&mut self, value: Value) {
        self.0.push(value);
    }

    /// Remove and give back the last value.
    pub fn pop(&mut self) -> Option<Value> {
        self.0.pop()
    }

    /// Insert a value at `index`, shifting later ones.
    pub fn insert(&mut self, index: usize, value: Value) {
        self.0.insert(index, value);
    }

    /// Remove the value at `index`, shifting later ones.
    pub fn remove(&mut self, index: usize) -> Value {
        self.0.remove(index)
    }

    /// Keep the values for which `keep` says so.
    pub fn retain(&mut self, mut keep: impl FnMut(&Value) -> bool) {
        self.0.retain(|v| keep(v));
    }

    /// Keep the first `n` values.
    pub fn truncate(&mut self, n: usize) {
        self.0.truncate(n);
    }

    /// Remove every value.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Remove a range of values and give them back.
    pub fn drain(&mut self, range: impl RangeBounds<usize>) -> Vec<Value> {
        self.0.drain(range).collect()
    }

    /// Append clones of `values`.
    pub fn extend_from_slice(&mut self, values: &[Value]) {
        self.0.extend_from_slice(values);
    }

    /// The values as a slice.
    pub fn as_slice(&self) -> &[Value] {
        &self.0
    }

    /// The values as a plain vector (cloning only what is shared).
    pub fn into_vec(self) -> Vec<Value> {
        self.0.into_iter().collect()
    }
}

impl Deref for Array {
    type Target = [Value];
    fn deref(&self) -> &[Value] {
        &self.0
    }
}

impl DerefMut for Array {
    fn deref_mut(&mut self) -> &mut [Value] {
        self.0.make_mut()
    }
}

impl fmt::Debug for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl From<Vec<Value>> for Array {
    fn from(v: Vec<Value>) -> Self {
        Self(EcoVec::from(v))
    }
}

impl From<&[Value]> for Array {
    fn from(v: &[Value]) -> Self {
        Self(EcoVec::from(v))
    }
}

impl From<Array> for Vec<Value> {
    fn from(a: Array) -> Self {
        a.into_vec()
    }
}

impl FromIterator<Value> for Array {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Self {
        Self(iter.into_iter().collect())
    }
}

impl Extend<Value> for Array {
    fn extend<I: IntoIterator<Item = Value>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

impl PartialEq<Vec<Value>> for Array {
    fn eq(&self, other: &Vec<Value>) -> bool {
        self.0.as_slice() == other.as_slice()
    }
}

impl PartialEq<[Value]> for Array {
    fn eq(&self, other: &[Value]) -> bool {
        self.0.as_slice() == other
    }
}

impl<'a> IntoIterator for &'a Array {
    type Item = &'a Value;
    type IntoIter = std::slice::Iter<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a mut Array {
    type Item = &'a mut Value;
    type IntoIter = std::slice::IterMut<'a, Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.make_mut().iter_mut()
    }
}

impl IntoIterator for Array {
    type Item = Value;
    type IntoIter = ecow::vec::IntoIter<Value>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}
