//! Re-encoding throughput of the `image-sanitize` engine, per MB of decoded image payload.
//!
//! The inputs are 3000×2000 photo-like images generated deterministically (smooth shading,
//! texture and sensor-like noise), stored as a JPEG and as a PNG, as a phone photo or a
//! screenshot pasted into a session would be. Each run reduces them to the 1200 px default.

use std::hint::black_box;
use std::io::Cursor;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use image::codecs::jpeg::JpegEncoder;
use image::{DynamicImage, ImageFormat, Rgb, RgbImage};
use replaylens::openclaw::image::ops::{ImageLimits, sanitize_image, to_base64};

/// A deterministic photo-like image: a lit gradient, a few soft blobs, texture and noise.
fn photo(width: u32, height: u32, seed: u32) -> RgbImage {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(7);
    RgbImage::from_fn(width, height, |x, y| {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let noise = f32::from((state >> 24) as u8) / 255.0 * 12.0 - 6.0;
        let (fx, fy) = (x as f32 / width as f32, y as f32 / height as f32);
        let sky = 200.0 * (1.0 - fy) + 40.0;
        let blob = 60.0 * ((fx * 9.0 + seed as f32).sin() * (fy * 7.0).cos());
        let texture = 18.0 * ((x as f32 * 0.21).sin() + (y as f32 * 0.17).cos());
        let channel = |bias: f32| (sky + blob * bias + texture + noise).clamp(0.0, 255.0) as u8;
        Rgb([channel(1.0), channel(0.6), channel(-0.4)])
    })
}

fn jpeg_bytes(img: &DynamicImage, quality: u8) -> Vec<u8> {
    let mut out = Vec::new();
    img.write_with_encoder(JpegEncoder::new_with_quality(&mut out, quality))
        .expect("jpeg");
    out
}

fn png_bytes(img: &DynamicImage) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, ImageFormat::Png).expect("png");
    out.into_inner()
}

fn reencode(c: &mut Criterion) {
    let inputs = [
        (
            "photo-3000x2000.jpg",
            "image/jpeg",
            jpeg_bytes(&DynamicImage::ImageRgb8(photo(3000, 2000, 1)), 92),
        ),
        (
            "photo-3000x2000.png",
            "image/png",
            png_bytes(&DynamicImage::ImageRgb8(photo(3000, 2000, 2))),
        ),
    ];
    let mut group = c.benchmark_group("image-sanitize");
    group.sample_size(10);
    for (name, mime, bytes) in inputs {
        let data = to_base64(&bytes);
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let out = sanitize_image(black_box(&data), mime, ImageLimits::default()).expect("fits");
                assert!(out.reencoded.is_some());
                black_box(out.data.len())
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(5));
    targets = reencode
}
criterion_main!(benches);
