//! The Lanczos3 resize of Photon's `image` crate release (0.24.9, `imageops::resize`), computed
//! faster with the same output bytes.
//!
//! The output must be byte-identical to what OpenClaw's Photon produces, and 0.24.9 computes in
//! `f32`: a vertical pass from the 8-bit samples into an unrounded `f32` image, then a horizontal
//! pass whose sums are clamped to 0–255 and rounded half away from zero. An integer or
//! fixed-point kernel rounds differently wherever an `f32` sum lands within an `f32` rounding
//! error of a half, so it cannot promise the same bytes; this port keeps every `f32`
//! multiplication and addition of 0.24.9 in the same order for every sample (so each output
//! value is bit for bit the one 0.24.9 computes) and changes what surrounds them:
//!
//! - the samples are read and written through row slices, row after row (0.24.9 walks the
//!   source column by column through bounds-checked `get_pixel` calls in its vertical pass);
//! - the vertical pass accumulates a whole row at a time, which the compiler vectorizes (each
//!   lane is one sample's own sequence of operations, so the result is unchanged);
//! - the final rounding is an exact integer conversion (`(x as f64 + 0.5)` truncated, exact for
//!   every `f32` in 0–255) instead of a call to `roundf` per sample.
//!
//! The property test in `resize_tests.rs` compares this with 0.24.9's own `resize` on random
//! images of every size class the differential generates.

use photon_image::RgbaImage;
use rayon::prelude::*;

/// Lanczos3's window, in source pixels at scale 1 (0.24.9's `FilterType::Lanczos3` support).
const SUPPORT: f32 = 3.0;

/// 0.24.9's `sinc`.
fn sinc(t: f32) -> f32 {
    let a = t * std::f32::consts::PI;
    if t == 0.0 { 1.0 } else { a.sin() / a }
}

/// 0.24.9's `lanczos3_kernel`.
fn lanczos3(x: f32) -> f32 {
    if x.abs() < SUPPORT {
        sinc(x) * sinc(x / SUPPORT)
    } else {
        0.0
    }
}

/// The normalized weights of every output position along one axis, as 0.24.9 computes them
/// (in `vertical_sample` and `horizontal_sample`): the first source index and one weight per
/// source index from there.
struct Taps {
    spans: Vec<(usize, std::ops::Range<usize>)>,
    weights: Vec<f32>,
}

impl Taps {
    fn new(size: u32, new_size: u32) -> Self {
        let ratio = size as f32 / new_size as f32;
        let sratio = if ratio < 1.0 { 1.0 } else { ratio };
        let src_support = SUPPORT * sratio;
        let mut spans = Vec::with_capacity(new_size as usize);
        let mut weights = Vec::new();
        for out in 0..new_size {
            let input = (out as f32 + 0.5) * ratio;
            let left = ((input - src_support).floor() as i64).clamp(0, i64::from(size) - 1);
            let right = ((input + src_support).ceil() as i64).clamp(left + 1, i64::from(size));
            let input = input - 0.5;
            let start = weights.len();
            let mut sum = 0.0;
            for i in left..right {
                let w = lanczos3((i as f32 - input) / sratio);
                weights.push(w);
                sum += w;
            }
            weights[start..].iter_mut().for_each(|w| *w /= sum);
            spans.push((left as usize, start..weights.len()));
        }
        Self { spans, weights }
    }

    fn iter(&self) -> impl Iterator<Item = (usize, &[f32])> {
        self.spans.iter().map(|(left, r)| (*left, &self.weights[r.clone()]))
    }
}

/// 0.24.9's `FloatNearest(clamp(x, 0.0, 255.0))` as a `u8`, without `roundf`: a clamped `f32`
/// plus one half is exact in `f64`, and truncating it rounds half away from zero.
#[inline(always)]
fn to_u8(x: f32) -> u8 {
    // `f32::clamp` compares as 0.24.9's `utils::clamp` does (below, above, else the value).
    (f64::from(x.clamp(0.0, 255.0)) + 0.5) as u8
}

/// Samples of one vertical-pass row accumulated together over every tap: a block small enough
/// to stay in registers or the first-level cache while the taps' source rows stream past.
const BLOCK: usize = 32;

/// Output rows given to one task when rows are spread over threads.
const ROWS_PER_TASK: usize = 8;

/// `imageops::resize(src, width, height, FilterType::Lanczos3)` of `image` 0.24.9, byte for byte.
pub fn resize_lanczos3(src: &RgbaImage, width: u32, height: u32) -> RgbaImage {
    if (width, height) == src.dimensions() {
        return src.clone();
    }
    let (src_w, src_h) = src.dimensions();
    let row = src_w as usize * 4;
    let raw = src.as_raw();
    let parallel = !super::cache::is_in_line();

    // Vertical pass: `height` rows of `src_w` unrounded RGBA samples.
    let mut tall = vec![0f32; row * height as usize];
    if row > 0 {
        let taps = Taps::new(src_h, height);
        let spans = &taps.spans;
        let pass = |(band, rows): (usize, &mut [f32])| {
            for (k, acc) in rows.chunks_exact_mut(row).enumerate() {
                let (left, ref ws) = spans[band * ROWS_PER_TASK + k];
                vertical_row(raw, row, left, &taps.weights[ws.clone()], acc);
            }
        };
        for_each_band(&mut tall, row * ROWS_PER_TASK, parallel, pass);
    }

    // Horizontal pass: each row of the intermediate image to `width` rounded RGBA pixels.
    let out_row = width as usize * 4;
    let mut out = vec![0u8; out_row * height as usize];
    if out_row > 0 && row > 0 {
        let taps = Taps::new(src_w, width);
        let tall = &tall;
        let pass = |(band, rows): (usize, &mut [u8])| {
            for (k, to) in rows.chunks_exact_mut(out_row).enumerate() {
                let y = band * ROWS_PER_TASK + k;
                horizontal_row(&tall[y * row..][..row], &taps, to);
            }
        };
        for_each_band(&mut out, out_row * ROWS_PER_TASK, parallel, pass);
    }
    RgbaImage::from_raw(width, height, out).expect("the buffer has width × height pixels")
}

/// Run `pass` on each band of `band_len` elements of `buf` (the last may be shorter), with its
/// number, across rayon's threads when `parallel`: every output row is computed from the
/// source alone, so the bytes do not depend on which thread computes them.
fn for_each_band<T: Send>(
    buf: &mut [T],
    band_len: usize,
    parallel: bool,
    pass: impl Fn((usize, &mut [T])) + Sync + Send,
) {
    if parallel {
        buf.par_chunks_mut(band_len).enumerate().for_each(pass);
    } else {
        buf.chunks_mut(band_len).enumerate().for_each(pass);
    }
}

/// One vertical-pass row: `acc[s] = 0 + p[left][s]·w[0] + p[left+1][s]·w[1] + …`, each sample's
/// `f32` operations in 0.24.9's order, a block of samples at a time.
fn vertical_row(raw: &[u8], row: usize, left: usize, ws: &[f32], acc: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, checked just above.
        unsafe { vertical_row_avx2(raw, row, left, ws, acc) };
        return;
    }
    vertical_row_generic(raw, row, left, ws, acc);
}

/// [`vertical_row_generic`] compiled for AVX2 (eight lanes; no FMA, which would round once
/// where 0.24.9 rounds twice).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn vertical_row_avx2(raw: &[u8], row: usize, left: usize, ws: &[f32], acc: &mut [f32]) {
    vertical_row_generic(raw, row, left, ws, acc);
}

#[inline(always)]
fn vertical_row_generic(raw: &[u8], row: usize, left: usize, ws: &[f32], acc: &mut [f32]) {
    let rows: Vec<&[u8]> = (0..ws.len()).map(|i| &raw[(left + i) * row..][..row]).collect();
    let mut at = 0;
    for chunk in acc.chunks_mut(BLOCK) {
        let n = chunk.len();
        let mut t = [0f32; BLOCK];
        for (from, &w) in rows.iter().zip(ws) {
            for (a, &p) in t[..n].iter_mut().zip(&from[at..at + n]) {
                *a += f32::from(p) * w;
            }
        }
        chunk.copy_from_slice(&t[..n]);
        at += n;
    }
}

/// One horizontal-pass row: each output pixel's four sums over its taps, in 0.24.9's order,
/// clamped and rounded.
fn horizontal_row(from: &[f32], taps: &Taps, to: &mut [u8]) {
    for ((left, ws), px) in taps.iter().zip(to.chunks_exact_mut(4)) {
        let mut t = [0f32; 4];
        for (s, &w) in from[left * 4..].chunks_exact(4).zip(ws) {
            t[0] += s[0] * w;
            t[1] += s[1] * w;
            t[2] += s[2] * w;
            t[3] += s[3] * w;
        }
        px.copy_from_slice(&[to_u8(t[0]), to_u8(t[1]), to_u8(t[2]), to_u8(t[3])]);
    }
}

#[cfg(test)]
#[path = "resize_tests.rs"]
mod tests;
