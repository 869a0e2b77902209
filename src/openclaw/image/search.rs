//! The side × quality search of OpenClaw's `resizeImageBase64IfNeeded`: the sides tried, the
//! size fitted inside each, the qualities, and the error when nothing fits the byte cap.

use super::base64::format_bytes_short;
use super::codec::{decode, encode_jpeg};
use super::ops::{ImageLimits, Reencoded};

/// The fixed part of the side grid tried when re-encoding (capped at the maximum side).
pub const SIDE_STEPS: [u32; 6] = [1800, 1600, 1400, 1200, 1000, 800];

/// JPEG qualities tried for each side, best first.
pub const QUALITY_STEPS: [u8; 6] = [85, 75, 65, 55, 45, 35];

/// Why the side × quality search sent nothing.
pub(super) enum Unreduced {
    /// Decoding or encoding failed with this message.
    Failed(String),
    /// No JPEG fitted the byte cap; the smallest size reached.
    TooLarge(usize),
}

/// The side × quality search: the first JPEG within `max_bytes` wins; the first error ends
/// it; otherwise the error names the smallest size reached. The decode and each resize are
/// done once (OpenClaw redoes them per attempt, with the same result).
pub(super) fn reduce(
    bytes: &[u8],
    size: Option<(u32, u32)>,
    limits: ImageLimits,
) -> Result<(Vec<u8>, Reencoded), Unreduced> {
    let max = limits.max_dimension_px;
    let start = size.map_or(max, |(w, h)| max.min(w.max(h)));
    let decoded = decode(bytes, limits.release.heif_primary_item).map_err(Unreduced::Failed)?;
    let mut smallest: Option<usize> = None;
    let mut tried: Option<(u32, u32)> = None;
    for side in side_grid(max, start) {
        let (w, h) = fit_inside(decoded.width(), decoded.height(), side);
        if tried == Some((w, h)) {
            // The same size at the same qualities gives the same bytes: already too big.
            continue;
        }
        tried = Some((w, h));
        let resized = decoded.resized(w, h);
        for quality in QUALITY_STEPS {
            let jpeg = encode_jpeg(&resized, quality).map_err(Unreduced::Failed)?;
            smallest = Some(smallest.map_or(jpeg.len(), |s| s.min(jpeg.len())));
            if jpeg.len() <= limits.max_bytes {
                let reencoded = Reencoded {
                    width: w,
                    height: h,
                    bytes: jpeg.len(),
                    quality,
                    side,
                };
                return Ok((jpeg, reencoded));
            }
        }
    }
    Err(Unreduced::TooLarge(smallest.unwrap_or(bytes.len())))
}

/// The failure of a search that reached `got` bytes at best, worded as the release words it.
pub fn reduce_error(limits: ImageLimits, got: usize) -> String {
    if limits.release.reduce_error_short_format {
        format!(
            "Error: Image could not be reduced below {} (got {})",
            format_bytes_short(limits.max_bytes),
            format_bytes_short(got)
        )
    } else {
        format!(
            "Error: Image could not be reduced below {}MB (got {}MB)",
            mib_fixed(limits.max_bytes, 0),
            mib_fixed(got, 2)
        )
    }
}

/// The side grid: `[start, 1800, 1600, 1400, 1200, 1000, 800]`, each capped at `max`,
/// positive, de-duplicated, sorted descending.
pub fn side_grid(max: u32, start: u32) -> Vec<u32> {
    let mut grid: Vec<u32> = std::iter::once(start)
        .chain(SIDE_STEPS)
        .map(|v| v.min(max))
        .filter(|&v| v > 0)
        .collect();
    grid.sort_unstable_by(|a, b| b.cmp(a));
    grid.dedup();
    grid
}

/// JavaScript's `Math.round` for a non-negative number (ties up).
fn js_round(x: f64) -> f64 {
    let floor = x.floor();
    if x - floor >= 0.5 { floor + 1.0 } else { floor }
}

/// rastermill's size for an image of `width`×`height` fitted inside a `side`×`side` box,
/// never enlarged: one scale for both axes, each side rounded, at least 1.
pub fn fit_inside(width: u32, height: u32, side: u32) -> (u32, u32) {
    let (w, h, s) = (f64::from(width), f64::from(height), f64::from(side));
    let scale = (s / w).min(s / h).min(1.0);
    let scaled = |v: f64| (js_round(v * scale) as u32).max(1);
    (scaled(w), scaled(h))
}

/// `(bytes / 2^20).toFixed(digits)` with JavaScript's round-half-up on exact ties.
pub fn mib_fixed(bytes: usize, digits: u32) -> String {
    let scale = 10u128.pow(digits);
    let n = (bytes as u128 * scale + (1 << 19)) >> 20;
    if digits == 0 {
        return n.to_string();
    }
    format!("{}.{:0width$}", n / scale, n % scale, width = digits as usize)
}
