//! Repeated short strings held once: the model id, API name, provider and stop reason of
//! every assistant turn, a tool's name on every call. Strings of up to 15 bytes are held
//! inline and cost nothing extra; longer ones are heap blocks, so each thread remembers the
//! last few thousand it read (one slot per hash) and a string it has just seen shares that
//! block instead of allocating another.

use std::cell::RefCell;
use std::hash::BuildHasher;

use foldhash::fast::FixedState;

use super::Str;

/// Strings up to this long are held inline by [`Str`].
const INLINE: usize = 15;

/// Longer strings are rarely repeated (text, arguments); they are not looked up.
const LONGEST: usize = 64;

/// Slots per thread (a power of two).
const SLOTS: usize = 4096;

thread_local! {
    static RECENT: RefCell<Vec<Str>> = const { RefCell::new(Vec::new()) };
}

/// `s` as a [`Str`], sharing the block of an equal string this thread read recently.
pub(crate) fn shared(s: &str) -> Str {
    if s.len() <= INLINE || s.len() > LONGEST {
        return Str::from(s);
    }
    let slot = FixedState::with_seed(0).hash_one(s) as usize & (SLOTS - 1);
    RECENT.with(|recent| {
        let mut recent = recent.borrow_mut();
        if recent.is_empty() {
            recent.resize(SLOTS, Str::new());
        }
        if recent[slot] != s {
            recent[slot] = Str::from(s);
        }
        recent[slot].clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same_block(a: &Str, b: &Str) -> bool {
        std::ptr::eq(a.as_ptr(), b.as_ptr())
    }

    #[test]
    fn a_repeated_long_string_shares_one_block() {
        let a = shared("claude-sonnet-4-5-20250929");
        let b = shared(&String::from("claude-sonnet-4-5-20250929"));
        assert_eq!(a, b);
        assert!(same_block(&a, &b));
    }

    #[test]
    fn short_and_very_long_strings_are_held_as_they_are() {
        assert_eq!(shared("stop"), "stop");
        let long = "x".repeat(LONGEST + 1);
        assert_eq!(shared(&long), long.as_str());
        assert!(!same_block(&shared(&long), &shared(&long)));
    }

    #[test]
    fn a_colliding_string_replaces_the_slot_and_stays_correct() {
        let texts: Vec<String> = (0..3 * SLOTS).map(|i| format!("a string long enough {i}")).collect();
        for t in &texts {
            assert_eq!(shared(t), t.as_str());
        }
    }
}
