//! The memory budget of a scan across its workers: each source is estimated before it is
//! loaded (its size, or what a compressed file says it expands to, times what loading costs
//! per byte) and waits until that much of the budget is free, so N large sessions in flight
//! cannot add up past it. A source estimated above the whole budget runs alone.

use std::io::Read;
use std::path::Path;
use std::sync::{Condvar, Mutex, PoisonError};

use crate::load::{Detected, Limits, detect};

/// The default budget of a scan (`scan --memory-budget`): 1 GiB.
pub const DEFAULT_MEMORY_BUDGET: u64 = 1 << 30;

/// Bytes of memory a load, replay and lint hold per byte of session text at their peak.
/// Measured with `/usr/bin/time -v` on `scan` of generated 250 MB `.json` arrays (2026-12-07):
/// 1.4 GB peak RSS for 1.27 million short tool-call messages (5.6×), 0.6 GB for 289,000
/// messages of 150 words (2.4×). JSONL loads hold less per byte than a whole document.
pub const BYTES_PER_SESSION_BYTE: u64 = 6;

/// What scanning `path` is estimated to hold at its peak, in bytes: the session text (a
/// compressed file's content size from its frame header, else the document limit it may
/// expand to; a text file's size, at most that limit) times [`BYTES_PER_SESSION_BYTE`].
pub fn estimate(path: &Path, limits: &Limits) -> u64 {
    let Ok(meta) = std::fs::metadata(path) else {
        return 0;
    };
    if !meta.is_file() {
        return 0;
    }
    let mut head = [0u8; 18];
    let read = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    let head = &head[..read];
    let text = match detect(head) {
        Detected::Zstd => match zstd::zstd_safe::get_frame_content_size(head) {
            Ok(Some(size)) => size,
            _ => limits.max_document_bytes,
        }
        .min(limits.max_document_bytes),
        // A database holds every window it loads; its size is the best guess.
        Detected::Sqlite => meta.len(),
        Detected::JsonArray | Detected::Jsonl => meta.len().min(limits.max_document_bytes),
    };
    text.saturating_mul(BYTES_PER_SESSION_BYTE)
}

/// Bytes of memory shared by a scan's workers.
pub struct Budget {
    total: u64,
    free: Mutex<u64>,
    returned: Condvar,
}

/// A share of the [`Budget`], given back when dropped.
pub struct Grant<'a> {
    budget: &'a Budget,
    bytes: u64,
}

impl Budget {
    /// A budget of `total` bytes (at least 1).
    pub fn new(total: u64) -> Self {
        let total = total.max(1);
        Self {
            total,
            free: Mutex::new(total),
            returned: Condvar::new(),
        }
    }

    /// Wait until `bytes` of the budget are free (the whole budget, when `bytes` is more) and
    /// take them.
    pub fn take(&self, bytes: u64) -> Grant<'_> {
        let bytes = bytes.min(self.total);
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        while *free < bytes {
            free = self.returned.wait(free).unwrap_or_else(PoisonError::into_inner);
        }
        *free -= bytes;
        Grant { budget: self, bytes }
    }

    /// Bytes not taken now.
    #[cfg(test)]
    fn free(&self) -> u64 {
        *self.free.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Grant<'_> {
    fn drop(&mut self) {
        let mut free = self.budget.free.lock().unwrap_or_else(PoisonError::into_inner);
        *free += self.bytes;
        self.budget.returned.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn sessions_in_flight_never_add_up_past_the_budget() {
        let budget = Budget::new(100);
        let held = AtomicU64::new(0);
        let peak = AtomicU64::new(0);
        // Two of 60 cannot run together; 250 is more than the whole budget and runs alone.
        let wants = [60u64, 60, 30, 250, 10, 60, 40, 90];
        std::thread::scope(|s| {
            for &want in &wants {
                let (budget, held, peak) = (&budget, &held, &peak);
                s.spawn(move || {
                    let grant = budget.take(want);
                    let now = held.fetch_add(grant.bytes, Ordering::SeqCst) + grant.bytes;
                    peak.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    held.fetch_sub(grant.bytes, Ordering::SeqCst);
                });
            }
        });
        assert!(peak.load(Ordering::SeqCst) <= 100, "{peak:?}");
        assert_eq!(budget.free(), 100);
    }

    #[test]
    fn estimates_read_the_zstd_frame_and_cap_text_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits::default();
        let text = vec![b'{'; 1 << 20];
        let known = dir.path().join("k.jsonl.zst");
        std::fs::write(&known, zstd::bulk::compress(&text, 3).unwrap()).unwrap();
        assert_eq!(estimate(&known, &limits), (1 << 20) * BYTES_PER_SESSION_BYTE);
        let mut streamed = zstd::Encoder::new(Vec::new(), 3).unwrap();
        std::io::Write::write_all(&mut streamed, &text).unwrap();
        let unknown = dir.path().join("u.jsonl.zst");
        std::fs::write(&unknown, streamed.finish().unwrap()).unwrap();
        assert_eq!(
            estimate(&unknown, &limits),
            limits.max_document_bytes * BYTES_PER_SESSION_BYTE
        );
        let plain = dir.path().join("p.jsonl");
        std::fs::write(&plain, &text).unwrap();
        assert_eq!(estimate(&plain, &limits), (1 << 20) * BYTES_PER_SESSION_BYTE);
        assert_eq!(estimate(&dir.path().join("missing"), &limits), 0);
    }
}
