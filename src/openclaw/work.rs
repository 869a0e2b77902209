//! A count of the entries the planners, the JavaScript `Map` port and the lint's id sets look
//! at to answer a question about a turn (is this id among the calls, which later result was
//! stored first, …). Tests read it to prove that a turn of thousands of calls is handled in
//! linear work: an answer found by scanning the turn counts every entry it passes. Outside
//! tests nothing is counted.

/// Count `n` entries looked at.
#[inline]
pub fn examined(n: usize) {
    #[cfg(test)]
    EXAMINED.with(|c| c.set(c.get() + n));
    #[cfg(not(test))]
    let _ = n;
}

#[cfg(test)]
thread_local! {
    /// Entries looked at on this thread since a test last reset it.
    pub(crate) static EXAMINED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The count since the last [`reset`] (tests only).
#[cfg(test)]
pub(crate) fn count() -> usize {
    EXAMINED.with(std::cell::Cell::get)
}

/// Start counting from zero (tests only).
#[cfg(test)]
pub(crate) fn reset() {
    EXAMINED.with(|c| c.set(0));
}
