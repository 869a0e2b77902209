//! The fast resize against the implementation it replaces: `image` 0.24.9's own
//! `imageops::resize` with `FilterType::Lanczos3` (what `Decoded::resized` called before, and
//! what Photon calls), compared byte for byte.

use super::resize_lanczos3;
use crate::openclaw::image::codec::decode;
use crate::openclaw::image::fixtures::{gradient, jpeg, jpeg_with_orientation, noise, png};
use crate::openclaw::image::ops::{SIDE_STEPS, fit_inside};
use photon_image::RgbaImage;
use photon_image::imageops::{FilterType, resize};
use proptest::prelude::*;

/// The previous implementation: 0.24.9's resize itself.
fn reference(src: &RgbaImage, width: u32, height: u32) -> RgbaImage {
    resize(src, width, height, FilterType::Lanczos3)
}

fn assert_same(src: &RgbaImage, width: u32, height: u32, what: &str) {
    let fast = resize_lanczos3(src, width, height);
    let slow = reference(src, width, height);
    assert_eq!(fast.dimensions(), slow.dimensions(), "{what}");
    if fast.as_raw() != slow.as_raw() {
        let at = fast.as_raw().iter().zip(slow.as_raw()).position(|(a, b)| a != b);
        panic!(
            "{what}: {}×{} → {width}×{height} differs at byte {at:?}",
            src.width(),
            src.height()
        );
    }
}

/// The pixel modes a decoded image comes from, as RGBA: grey, grey+alpha, RGB, RGBA, a few
/// palette colours, hard 0/255 edges (the clamp), one flat colour.
#[derive(Debug, Clone, Copy)]
enum Mode {
    Grey,
    GreyAlpha,
    Rgb,
    Rgba,
    Palette,
    Edges,
    Flat,
}

/// A random image of `mode`, from a seed (xorshift: cheap, so the test spends its time resizing).
fn random_image(width: u32, height: u32, mode: Mode, seed: u64) -> RgbaImage {
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let palette: Vec<[u8; 4]> = (0..4).map(|_| next().to_le_bytes()[..4].try_into().unwrap()).collect();
    let flat = palette[0];
    RgbaImage::from_fn(width, height, |_, _| {
        let r = next().to_le_bytes();
        photon_image::Rgba(match mode {
            Mode::Grey => [r[0], r[0], r[0], 255],
            Mode::GreyAlpha => [r[0], r[0], r[0], r[1]],
            Mode::Rgb => [r[0], r[1], r[2], 255],
            Mode::Rgba => [r[0], r[1], r[2], r[3]],
            Mode::Palette => palette[usize::from(r[0] % 4)],
            Mode::Edges => [r[0], r[1], r[2], r[3]].map(|b| if b & 1 == 0 { 0 } else { 255 }),
            Mode::Flat => flat,
        })
    })
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::Grey),
        Just(Mode::GreyAlpha),
        Just(Mode::Rgb),
        Just(Mode::Rgba),
        Just(Mode::Palette),
        Just(Mode::Edges),
        Just(Mode::Flat),
    ]
}

/// Source and output sizes in the differential's classes, scaled down so that 10,000 cases
/// stay quick: tiny and small squares, wide and tall strips (its `png-wide`, `png-tall`,
/// `1300×2` and `1×100000` images), down- and up-scaling, one axis unchanged.
fn sizes() -> impl Strategy<Value = (u32, u32, u32, u32)> {
    let square = (1u32..=48, 1u32..=48);
    let wide = (40u32..=400, 1u32..=6);
    let tall = (1u32..=6, 40u32..=400);
    prop_oneof![square.clone(), square, wide, tall].prop_flat_map(|(w, h)| {
        let to = |n: u32| prop_oneof![3 => 1..=n, 1 => Just(n), 1 => n..=n * 2];
        (Just(w), Just(h), to(w), to(h))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, max_shrink_iters: 256, ..ProptestConfig::default() })]

    /// 10,000 random images per run: the same bytes as 0.24.9's resize.
    #[test]
    fn the_fast_resize_is_byte_identical_to_the_previous_one(
        (w, h, nw, nh) in sizes(),
        mode in mode(),
        seed in any::<u64>(),
    ) {
        let src = random_image(w, h, mode, seed);
        let fast = resize_lanczos3(&src, nw, nh);
        let slow = reference(&src, nw, nh);
        prop_assert_eq!(fast.dimensions(), slow.dimensions());
        prop_assert!(fast.as_raw() == slow.as_raw(), "{:?} {}×{} → {}×{} seed {}", mode, w, h, nw, nh, seed);
    }
}

/// Real decoded images of each format and mode the differential encodes, at every size of the
/// side grid: screenshots, strips, EXIF-rotated JPEGs, grey+alpha and RGBA PNGs.
#[test]
fn decoded_images_of_every_class_resize_as_before() {
    use image::DynamicImage as D;
    let picture = || D::ImageRgb8(gradient(1300, 20));
    let translucent = |w, h| image::GrayAlphaImage::from_fn(w, h, |x, y| image::LumaA([(x * 7) as u8, (x ^ y) as u8]));
    let corpus: Vec<(&str, Vec<u8>)> = vec![
        ("png rgb screenshot", png(&D::ImageRgb8(gradient(1600, 1000)))),
        ("png rgba noise", png(&D::ImageRgba8(noise(1400, 90, 7)))),
        (
            "png rgba translucent",
            png(&D::ImageRgba8(D::ImageLumaA8(translucent(1300, 30)).to_rgba8())),
        ),
        ("png grey", png(&D::ImageLuma8(picture().to_luma8()))),
        ("png grey+alpha", png(&D::ImageLumaA8(translucent(1300, 40)))),
        ("png 16-bit", png(&D::ImageRgb16(picture().to_rgb16()))),
        ("png wide", png(&D::ImageRgb8(gradient(2000, 40)))),
        ("png tall", png(&D::ImageRgb8(gradient(16, 1500)))),
        (
            "png 1×5000",
            png(&D::ImageLuma8(D::ImageRgb8(gradient(1, 5000)).to_luma8())),
        ),
        ("jpeg", jpeg(&picture(), 90)),
        (
            "jpeg noise",
            jpeg(&D::ImageRgb8(D::ImageRgba8(noise(1500, 300, 11)).to_rgb8()), 75),
        ),
        ("jpeg exif 6", jpeg_with_orientation(1300, 16, 6)),
        ("jpeg exif 3", jpeg_with_orientation(1600, 30, 3)),
    ];
    for (what, bytes) in corpus {
        let decoded = decode(&bytes, true).unwrap_or_else(|e| panic!("{what}: {e}"));
        let src = decoded.pixels();
        for side in [SIDE_STEPS[0], 1200, SIDE_STEPS[5], 17] {
            let (w, h) = fit_inside(src.width(), src.height(), side);
            assert_same(src, w, h, what);
        }
    }
}

#[test]
fn upscaling_and_unchanged_sizes_match_too() {
    let src = random_image(13, 7, Mode::Rgba, 42);
    assert_same(&src, 13, 7, "unchanged");
    assert_same(&src, 40, 21, "up");
    assert_same(&src, 13, 30, "one axis");
    assert_same(&src, 1, 1, "to one pixel");
}
