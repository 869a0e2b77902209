//! Object keys, interned: a session repeats the same few dozen keys (`role`, `content`,
//! `type`, `text`, …) millions of times, so each distinct key text is stored once for the
//! life of the process and every key is a pointer to it.
//!
//! The interned texts are never freed. Their total is bounded by the distinct keys of the
//! documents read, which is small for transcripts (tool arguments add a few each) and at most
//! the size of the input for hostile ones.

use std::borrow::Borrow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::{LazyLock, RwLock};

use foldhash::fast::RandomState;

/// One interned key text.
struct Interned(Box<str>);

/// An object key: a pointer to the one stored copy of its text (8 bytes; copying it copies
/// the pointer).
#[derive(Clone, Copy)]
pub struct Key(&'static Interned);

type Table = HashMap<&'static str, Key, RandomState>;

static GLOBAL: LazyLock<RwLock<Table>> = LazyLock::new(|| RwLock::new(Table::default()));

thread_local! {
    /// Each thread's view of the keys it has seen, so that parsing does not take the lock.
    static LOCAL: RefCell<Table> = RefCell::new(Table::default());
}

fn intern(text: &str) -> Key {
    if let Some(k) = LOCAL.with(|l| l.borrow().get(text).copied()) {
        return k;
    }
    let key = intern_global(text);
    LOCAL.with(|l| l.borrow_mut().insert(key.as_str(), key));
    key
}

fn intern_global(text: &str) -> Key {
    if let Some(k) = GLOBAL.read().unwrap_or_else(|e| e.into_inner()).get(text).copied() {
        return k;
    }
    let mut table = GLOBAL.write().unwrap_or_else(|e| e.into_inner());
    if let Some(k) = table.get(text).copied() {
        return k;
    }
    let interned: &'static Interned = Box::leak(Box::new(Interned(text.into())));
    let key = Key(interned);
    table.insert(&interned.0, key);
    key
}

impl Key {
    /// The key as a string slice.
    pub fn as_str(&self) -> &'static str {
        &self.0.0
    }
}

impl Default for Key {
    fn default() -> Self {
        intern("")
    }
}

impl PartialEq for Key {
    /// Keys with the same text are the same pointer.
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_str().hash(h);
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Deref for Key {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Self {
        intern(s)
    }
}

impl From<String> for Key {
    fn from(s: String) -> Self {
        intern(&s)
    }
}

impl From<&String> for Key {
    fn from(s: &String) -> Self {
        intern(s)
    }
}

impl From<&Key> for Key {
    fn from(k: &Key) -> Self {
        *k
    }
}

impl From<ecow::EcoString> for Key {
    fn from(s: ecow::EcoString) -> Self {
        intern(&s)
    }
}

impl From<Key> for String {
    fn from(k: Key) -> Self {
        k.as_str().to_owned()
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Key {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Key> for str {
    fn eq(&self, other: &Key) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Key> for &str {
    fn eq(&self, other: &Key) -> bool {
        *self == other.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_are_one_key_across_threads() {
        let here = Key::from("role");
        let there = std::thread::spawn(|| Key::from(String::from("role"))).join().unwrap();
        assert!(std::ptr::eq(here.0, there.0));
        assert_eq!(here, there);
        assert_ne!(here, Key::from("rolE"));
        assert_eq!(here.as_str(), "role");
        assert_eq!(std::mem::size_of::<Key>(), 8);
        assert!(Key::from("a") < Key::from("b"));
        assert_eq!(Key::default().as_str(), "");
    }
}
