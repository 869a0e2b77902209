//! Each distinct oversized image is decoded and re-encoded once per process, in parallel.
//!
//! A browser-driving agent sends the same few screenshots again and again (a 100 MB session
//! may hold 124 oversized images among 12 distinct ones), and the release matrix, a scan's
//! targets, the inspector's profile switches and the exports replay the same session again.
//! The outcome of a payload depends only on its bytes and the limits that reach the pixel
//! work, so it is computed once and shared:
//!
//! - [`Store`] holds the outcomes of the process, keyed by the canonical payload itself (found
//!   by a sampled fingerprint, then compared byte for byte: equality is proven, never guessed)
//!   and by [`DecodeKey`]: the longest side, the byte cap and, for ISO-BMFF payloads only, the
//!   HEIF header rules. The other switches of a rule set do not reach the pixel work (the
//!   reduce error's wording is applied when the outcome is read, see
//!   [`super::ops::reduce_error`]), so every rule set of the release matrix shares one entry.
//!   Memory is bounded: past its budget the least recently used outcomes are dropped.
//! - [`ImageCache`] is one replay's view: before the `image-sanitize` rule walks the messages,
//!   the payloads that need decoding are collected, de-duplicated and taken from the store
//!   across all cores (rayon), or in line on a thread that already runs one session of a scan
//!   (see [`in_line`]); the rule then reads each outcome from it.

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use base64::Engine as _;
use rayon::prelude::*;

use super::ops::{FullDecode, ImageLimits, ImageRelease, NODE_BASE64, Outcome, full_decode};

/// Bytes sampled from a payload for its fingerprint (equal payloads are then compared in
/// full, so a fingerprint collision costs a comparison, never a wrong image).
const SAMPLES: usize = 256;

/// The store's default budget: payloads and outcomes held, in bytes.
pub const DEFAULT_BUDGET: usize = 512 << 20;

/// What the pixel work of a payload depends on besides its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DecodeKey {
    /// Longest side, in pixels.
    pub max_dimension_px: u32,
    /// Largest payload, in decoded bytes.
    pub max_bytes: usize,
    /// rastermill's HEIF header rules; always `true` for a payload that is not ISO-BMFF
    /// (no `ftyp` box first), which both rules read alike.
    pub heif_primary_item: bool,
}

impl DecodeKey {
    /// The key of a canonical payload under `limits`.
    pub fn of(canonical: &str, limits: ImageLimits) -> Self {
        let head = &canonical.as_bytes()[..canonical.len().min(16)];
        let bmff = NODE_BASE64
            .decode(head)
            .is_ok_and(|b| b.get(4..8) == Some(b"ftyp".as_slice()));
        Self {
            max_dimension_px: limits.max_dimension_px,
            max_bytes: limits.max_bytes,
            heif_primary_item: limits.release.heif_primary_item || !bmff,
        }
    }

    /// Limits that give the same pixel work as any limits with this key.
    fn limits(self) -> ImageLimits {
        ImageLimits {
            max_dimension_px: self.max_dimension_px,
            max_bytes: self.max_bytes,
            release: ImageRelease {
                heif_primary_item: self.heif_primary_item,
                ..ImageRelease::NEWEST
            },
        }
    }
}

type Slot = Arc<OnceLock<Arc<FullDecode>>>;

struct Entry {
    payload: Arc<str>,
    key: DecodeKey,
    slot: Slot,
    cost: usize,
    used_at: u64,
}

#[derive(Default)]
struct Entries {
    by_fingerprint: HashMap<u64, Vec<Entry>>,
    used: usize,
    clock: u64,
}

/// The decode outcomes of a process, bounded in bytes (see the module documentation).
pub struct Store {
    entries: Mutex<Entries>,
    budget: usize,
    decodes: AtomicUsize,
}

static GLOBAL: LazyLock<Store> = LazyLock::new(|| Store::new(DEFAULT_BUDGET));

impl Store {
    /// An empty store holding at most about `budget` bytes of payloads and outcomes.
    pub fn new(budget: usize) -> Self {
        Self {
            entries: Mutex::new(Entries::default()),
            budget,
            decodes: AtomicUsize::new(0),
        }
    }

    /// The store every replay of this process shares.
    pub fn global() -> &'static Store {
        &GLOBAL
    }

    /// Payloads decoded so far (each distinct payload and key once while it stays stored).
    pub fn decodes(&self) -> usize {
        self.decodes.load(Ordering::Relaxed)
    }

    /// Bytes held now.
    pub fn used(&self) -> usize {
        self.lock().used
    }

    /// Drop every outcome (a benchmark timing a cold replay several times).
    pub fn clear(&self) {
        *self.lock() = Entries::default();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The outcome of [`full_decode`] for a canonical payload under `limits`, computed once:
    /// a second caller waits for the first one's result instead of decoding again.
    pub fn full_decode(&self, canonical: &str, limits: ImageLimits) -> Arc<FullDecode> {
        let key = DecodeKey::of(canonical, limits);
        let print = fingerprint(canonical) ^ hash_of(&key);
        let slot = {
            let mut entries = self.lock();
            entries.clock += 1;
            let now = entries.clock;
            let bucket = entries.by_fingerprint.entry(print).or_default();
            match bucket.iter_mut().find(|e| e.key == key && *e.payload == *canonical) {
                Some(entry) => {
                    entry.used_at = now;
                    entry.slot.clone()
                }
                None => {
                    let slot = Slot::default();
                    bucket.push(Entry {
                        payload: canonical.into(),
                        key,
                        slot: slot.clone(),
                        cost: canonical.len(),
                        used_at: now,
                    });
                    entries.used += canonical.len();
                    slot
                }
            }
        };
        let mut computed = false;
        let full = slot
            .get_or_init(|| {
                computed = true;
                self.decodes.fetch_add(1, Ordering::Relaxed);
                Arc::new(full_decode(canonical, key.limits()))
            })
            .clone();
        if computed {
            self.account(print, &slot, outcome_cost(&full));
        }
        full
    }

    /// Add an outcome's size to its entry, then drop the least recently used outcomes while
    /// the store is over its budget (the newest one too when it alone is over).
    fn account(&self, print: u64, slot: &Slot, cost: usize) {
        let mut entries = self.lock();
        if let Some(entry) = entries
            .by_fingerprint
            .get_mut(&print)
            .and_then(|b| b.iter_mut().find(|e| Arc::ptr_eq(&e.slot, slot)))
        {
            entry.cost += cost;
            entries.used += cost;
        }
        while entries.used > self.budget {
            let oldest = entries
                .by_fingerprint
                .iter()
                .flat_map(|(print, bucket)| bucket.iter().enumerate().map(move |(i, e)| (e.used_at, *print, i)))
                .min();
            let Some((_, print, i)) = oldest else { break };
            let bucket = entries.by_fingerprint.get_mut(&print).expect("found above");
            let gone = bucket.swap_remove(i);
            if bucket.is_empty() {
                entries.by_fingerprint.remove(&print);
            }
            entries.used -= gone.cost;
        }
    }
}

/// Bytes an outcome holds beyond its payload.
fn outcome_cost(full: &FullDecode) -> usize {
    std::mem::size_of::<FullDecode>()
        + match &full.outcome {
            Outcome::Reencoded(jpeg, _) => jpeg.len(),
            _ => 0,
        }
}

fn hash_of(key: &DecodeKey) -> u64 {
    let mut h = DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

thread_local! {
    static IN_LINE: Cell<bool> = const { Cell::new(false) };
}

/// Run `f` with this thread's image work done in line rather than spread over rayon's threads:
/// for a scan worker, which already is one of as many threads as there are cores.
pub fn in_line<R>(f: impl FnOnce() -> R) -> R {
    let before = IN_LINE.replace(true);
    let out = f();
    IN_LINE.set(before);
    out
}

/// Whether this thread runs inside [`in_line`] (its image work stays on this thread).
pub(super) fn is_in_line() -> bool {
    IN_LINE.get()
}

/// One replay's outcomes, by canonical payload.
#[derive(Debug, Default)]
pub struct ImageCache {
    entries: HashMap<u64, Vec<(String, Arc<FullDecode>)>>,
}

impl ImageCache {
    /// Take the outcome of every distinct payload of `payloads` (canonical base64) from the
    /// process's [`Store`], decoding the missing ones in parallel.
    pub fn build<'a>(payloads: impl IntoIterator<Item = &'a str>, limits: ImageLimits) -> Self {
        let mut distinct: HashMap<u64, Vec<&str>> = HashMap::new();
        for p in payloads {
            let bucket = distinct.entry(fingerprint(p)).or_default();
            if !bucket.contains(&p) {
                bucket.push(p);
            }
        }
        let work: Vec<(u64, &str)> = distinct
            .into_iter()
            .flat_map(|(key, bucket)| bucket.into_iter().map(move |p| (key, p)))
            .collect();
        let store = Store::global();
        let one = |(key, p): (u64, &str)| (key, p.to_owned(), store.full_decode(p, limits));
        let done: Vec<(u64, String, Arc<FullDecode>)> = if IN_LINE.get() {
            work.into_iter().map(one).collect()
        } else {
            work.into_par_iter().map(one).collect()
        };
        let mut entries: HashMap<u64, Vec<(String, Arc<FullDecode>)>> = HashMap::new();
        for (key, payload, full) in done {
            entries.entry(key).or_default().push((payload, full));
        }
        Self { entries }
    }

    /// The outcome for a canonical payload, when it was built.
    pub fn get(&self, canonical: &str) -> Option<&Arc<FullDecode>> {
        self.entries
            .get(&fingerprint(canonical))?
            .iter()
            .find(|(p, _)| p == canonical)
            .map(|(_, full)| full)
    }

    /// Distinct payloads held.
    pub fn len(&self) -> usize {
        self.entries.values().map(Vec::len).sum()
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The length and evenly spaced bytes of a payload, hashed: cheap on megabytes of base64.
fn fingerprint(payload: &str) -> u64 {
    let bytes = payload.as_bytes();
    let mut h = DefaultHasher::new();
    bytes.len().hash(&mut h);
    let step = (bytes.len() / SAMPLES).max(1);
    for b in bytes.iter().step_by(step) {
        b.hash(&mut h);
    }
    bytes.get(bytes.len().saturating_sub(64)..).hash(&mut h);
    h.finish()
}

#[cfg(test)]
#[path = "cache_tests.rs"]
mod tests;
