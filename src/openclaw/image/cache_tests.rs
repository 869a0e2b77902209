use super::*;
use crate::openclaw::image::fixtures::{ftyp, gradient, noise, png};
use crate::openclaw::image::ops::{ImageFailure, Outcome, reduce_error, sanitize_image, to_base64};

fn screenshot(width: u32, height: u32) -> String {
    to_base64(&png(&image::DynamicImage::ImageRgb8(gradient(width, height))))
}

fn debug(full: &FullDecode) -> String {
    format!("{full:?}")
}

#[test]
fn equal_payloads_are_decoded_once_and_near_twins_are_told_apart() {
    let a = screenshot(2600, 400);
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
fn the_stored_outcome_is_the_direct_one_and_is_computed_once() {
    let store = Store::new(DEFAULT_BUDGET);
    let a = screenshot(3000, 500);
    let limits = ImageLimits::default();
    let first = store.full_decode(&a, limits);
    assert_eq!(debug(&first), debug(&full_decode(&a, limits)));
    let again = store.full_decode(&a.clone(), limits);
    assert!(Arc::ptr_eq(&first, &again));
    assert_eq!(store.decodes(), 1);
    // Another side is another result.
    let smaller = store.full_decode(&a, ImageLimits::with_max_dimension(800));
    assert_eq!(store.decodes(), 2);
    assert!(matches!(&smaller.outcome, Outcome::Reencoded(_, r) if r.width == 800));
}

#[test]
fn every_release_shares_one_decode_of_a_png_and_reads_it_in_its_own_words() {
    let store = Store::new(DEFAULT_BUDGET);
    let a = screenshot(2000, 300);
    let old = ImageRelease {
        input_limit: false,
        base64_padding: false,
        heif_primary_item: false,
        reduce_error_short_format: false,
    };
    let limits = ImageLimits::default();
    store.full_decode(&a, limits);
    let shared = store.full_decode(&a, limits.for_release(old));
    assert_eq!(store.decodes(), 1);
    assert_eq!(debug(&shared), debug(&full_decode(&a, limits.for_release(old))));
    // An ISO-BMFF payload keeps the HEIF rules in its key: they can change its size.
    let heif = to_base64(&ftyp(b"heic", &[b"mif1"]));
    assert_ne!(
        DecodeKey::of(&heif, limits),
        DecodeKey::of(&heif, limits.for_release(old))
    );
    assert_eq!(DecodeKey::of(&a, limits), DecodeKey::of(&a, limits.for_release(old)));
}

#[test]
fn a_reduce_failure_is_shared_and_worded_per_release() {
    // Noise that no JPEG of the grid brings under a 20 KB cap.
    let a = to_base64(&png(&image::DynamicImage::ImageRgba8(noise(900, 600, 5))));
    let limits = ImageLimits {
        max_bytes: 20_000,
        ..ImageLimits::default()
    };
    let old = limits.for_release(ImageRelease {
        reduce_error_short_format: false,
        ..ImageRelease::NEWEST
    });
    let store = Store::new(DEFAULT_BUDGET);
    let shared = store.full_decode(&a, limits);
    assert!(Arc::ptr_eq(&shared, &store.full_decode(&a, old)));
    assert_eq!(store.decodes(), 1);
    let got = shared.reduce_got.expect("nothing fits 20 KB");
    // What each release sends is its own wording, as an uncached decode words it.
    for limits in [limits, old] {
        let sent = sanitize_image(&a, "image/png", limits).unwrap_err();
        let direct = full_decode(&a, limits);
        assert!(matches!(&direct.outcome, Outcome::Failed(f) if *f == sent));
        assert_eq!(sent, ImageFailure::Unusable(reduce_error(limits, got)));
    }
    assert!(reduce_error(limits, got).contains("below 19.5KB"));
    assert!(reduce_error(old, got).contains("below 0MB"));
}

#[test]
fn the_store_stays_within_its_budget_dropping_the_least_recently_used() {
    let payloads: Vec<String> = (0..4).map(|i| screenshot(1300 + i, 200)).collect();
    let one = payloads[0].len();
    // Room for about two payloads with their outcomes.
    let store = Store::new(one * 2 + one / 2);
    let limits = ImageLimits::default();
    for p in &payloads {
        store.full_decode(p, limits);
        assert!(store.used() <= one * 2 + one / 2);
    }
    assert_eq!(store.decodes(), 4);
    // The newest is still there; the oldest was dropped and is decoded again.
    store.full_decode(&payloads[3], limits);
    assert_eq!(store.decodes(), 4);
    store.full_decode(&payloads[0], limits);
    assert_eq!(store.decodes(), 5);
}
