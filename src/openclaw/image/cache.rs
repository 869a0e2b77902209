//! Each distinct oversized image is decoded and re-encoded once, in parallel.
//!
//! A browser-driving agent sends the same few screenshots again and again: a 100 MB session
//! may hold 124 oversized images among 12 distinct ones. Before the `image-sanitize` rule
//! walks the messages, the payloads that need decoding (the header shows them over a limit,
//! or gives no size) are collected, de-duplicated by content and processed across all cores
//! (rayon); the rule then takes each outcome from the cache. The outcome of a payload depends
//! only on its bytes and the limits, so sharing it cannot change what is sent.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use rayon::prelude::*;

use super::ops::{FullDecode, ImageLimits, full_decode};

/// Bytes sampled from a payload for its fingerprint (equal payloads are then compared in
/// full, so a fingerprint collision costs a comparison, never a wrong image).
const SAMPLES: usize = 256;

/// Outcomes of the full decode, by canonical base64 payload.
#[derive(Debug, Default)]
pub struct ImageCache {
    entries: HashMap<u64, Vec<(String, FullDecode)>>,
}

impl ImageCache {
    /// Decode every distinct payload of `payloads` (canonical base64) in parallel.
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
        let done: Vec<(u64, String, FullDecode)> = work
            .into_par_iter()
            .map(|(key, p)| (key, p.to_owned(), full_decode(p, limits)))
            .collect();
        let mut entries: HashMap<u64, Vec<(String, FullDecode)>> = HashMap::new();
        for (key, payload, full) in done {
            entries.entry(key).or_default().push((payload, full));
        }
        Self { entries }
    }

    /// The outcome for a canonical payload, when it was built.
    pub fn get(&self, canonical: &str) -> Option<&FullDecode> {
        self.entries
            .get(&fingerprint(canonical))?
            .iter()
            .find(|(p, _)| p == canonical)
            .map(|(_, full)| full)
    }

    /// Distinct payloads decoded.
    pub fn len(&self) -> usize {
        self.entries.values().map(Vec::len).sum()
    }

    /// Whether nothing was decoded.
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
mod tests {
    use super::*;
    use crate::openclaw::image::fixtures::{gradient, png};
    use crate::openclaw::image::ops::{Outcome, to_base64};

    #[test]
    fn equal_payloads_are_decoded_once_and_near_twins_are_told_apart() {
        let a = to_base64(&png(&image::DynamicImage::ImageRgb8(gradient(2600, 400))));
        let mut b_bytes = png(&image::DynamicImage::ImageRgb8(gradient(2600, 400)));
        let n = b_bytes.len();
        b_bytes[n / 2] ^= 1;
        let b = to_base64(&b_bytes);
        let cache = ImageCache::build([a.as_str(), b.as_str(), a.as_str(), a.as_str()], ImageLimits::default());
        assert_eq!(cache.len(), 2);
        assert!(matches!(cache.get(&a).unwrap().outcome, Outcome::Reencoded(..)));
        assert!(cache.get(&b).is_some());
        assert!(cache.get("iVBORw0KGgo=").is_none());
    }

    #[test]
    fn the_cached_outcome_is_the_uncached_one() {
        let a = to_base64(&png(&image::DynamicImage::ImageRgb8(gradient(3000, 500))));
        let limits = ImageLimits::default();
        let cache = ImageCache::build([a.as_str()], limits);
        let direct = full_decode(&a, limits);
        let cached = cache.get(&a).unwrap();
        assert_eq!(format!("{direct:?}"), format!("{cached:?}"));
    }
}
