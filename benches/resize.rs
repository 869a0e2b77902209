//! The Lanczos3 resize alone, 2880×1800 RGBA screenshot to 1200×750 (the default longest
//! side): replaylens's port (byte-identical to Photon's `image` 0.24.9, which its property test
//! proves), 0.24.9's own `resize` (what replaylens called before), the current `image` crate's
//! `resize` and `fast_image_resize` (integer SIMD kernels, other bytes). Speed only.
//!
//! `cargo bench --bench resize` (PERFORMANCE.md has the figures).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use fast_image_resize::images::Image;
use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer};
use replaylens::openclaw::image::resize::resize_lanczos3;

const FROM: (u32, u32) = (2880, 1800);
const TO: (u32, u32) = (1200, 750);

/// A UI-like screenshot: flat panels, bands of text-like stripes, a gradient header.
fn screenshot() -> Vec<u8> {
    let (w, h) = FROM;
    let mut out = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let panel = ((x / 360 + y / 300) % 3) as u8;
            let text = (y % 24 < 14 && (x * 7 + y * 3) % 11 < 5) as u8;
            let header = if y < 120 { (x * 255 / w) as u8 } else { 0 };
            let v = 230u8.saturating_sub(panel * 25).saturating_sub(text * 170);
            out.extend_from_slice(&[v.saturating_sub(header / 3), v, v.max(header), 255]);
        }
    }
    out
}

fn resize(c: &mut Criterion) {
    let raw = screenshot();
    let (w, h) = FROM;
    let (nw, nh) = TO;
    let photon = photon_image::RgbaImage::from_raw(w, h, raw.clone()).unwrap();
    let current = image::RgbaImage::from_raw(w, h, raw.clone()).unwrap();
    let fir_src = Image::from_vec_u8(w, h, raw, PixelType::U8x4).unwrap();
    let mut fir_dst = Image::new(nw, nh, PixelType::U8x4);
    let mut resizer = Resizer::new();
    let options = ResizeOptions::new()
        .resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3))
        .use_alpha(false);

    let mut group = c.benchmark_group("resize-lanczos3-2880x1800-to-1200x750");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("replaylens", |b| b.iter(|| black_box(resize_lanczos3(&photon, nw, nh))));
    group.bench_function("image-0.24.9 (Photon's, before)", |b| {
        b.iter(|| {
            black_box(photon_image::imageops::resize(
                &photon,
                nw,
                nh,
                photon_image::imageops::FilterType::Lanczos3,
            ))
        })
    });
    group.bench_function("image-0.25", |b| {
        b.iter(|| {
            black_box(image::imageops::resize(
                &current,
                nw,
                nh,
                image::imageops::FilterType::Lanczos3,
            ))
        })
    });
    group.bench_function("fast_image_resize", |b| {
        b.iter(|| {
            resizer.resize(&fir_src, &mut fir_dst, &options).unwrap();
            black_box(fir_dst.buffer()[0])
        })
    });
    group.finish();
}

criterion_group!(benches, resize);
criterion_main!(benches);
