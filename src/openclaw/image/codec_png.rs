//! rastermill's own decoder for 8-bit grey+alpha PNGs, tried when Photon rejects a PNG: the
//! chunks are walked without checking CRCs, the IDAT data inflated (failing as Node's zlib
//! fails) and the scanlines unfiltered.

use flate2::{Decompress, FlushDecompress, Status};
use photon_image::RgbaImage;

/// RGBA pixels of an 8-bit grey+alpha PNG; `Ok(None)` when this decoder does not apply,
/// `Err` with Node's zlib error when the data does not inflate.
pub(super) fn grey_alpha_png(b: &[u8]) -> Result<Option<RgbaImage>, String> {
    if b.len() < 33 || !b.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Ok(None);
    }
    let (mut width, mut height) = (0u32, 0u32);
    let mut idat = Vec::new();
    let mut at = 8;
    while at + 12 <= b.len() {
        let length = u32::from_be_bytes(b[at..at + 4].try_into().unwrap_or_default()) as usize;
        let kind = &b[at + 4..at + 8];
        let (start, end) = (at + 8, at + 8 + length);
        if end + 4 > b.len() {
            return Ok(None);
        }
        let data = &b[start..end];
        match kind {
            b"IHDR" => {
                if length != 13 || data[8..13] != [8, 4, 0, 0, 0] {
                    return Ok(None);
                }
                width = u32::from_be_bytes(data[0..4].try_into().unwrap_or_default());
                height = u32::from_be_bytes(data[4..8].try_into().unwrap_or_default());
            }
            b"IDAT" => idat.extend_from_slice(data),
            b"IEND" => break,
            _ => {}
        }
        at = end + 4;
    }
    if width == 0 || height == 0 || idat.is_empty() {
        return Ok(None);
    }
    let stride = u64::from(width) * 2;
    let expected = (stride + 1) * u64::from(height);
    let inflated = inflate(&idat, expected)?;
    if inflated.len() as u64 != expected {
        return Ok(None);
    }
    let Some(grey_alpha) = unfilter(&inflated, stride as usize, height as usize) else {
        return Ok(None);
    };
    let mut rgba = Vec::with_capacity(grey_alpha.len() * 2);
    for pair in grey_alpha.chunks_exact(2) {
        rgba.extend_from_slice(&[pair[0], pair[0], pair[0], pair[1]]);
    }
    Ok(RgbaImage::from_raw(width, height, rgba))
}

/// `zlib.inflateSync(data, {maxOutputLength: max})`: the output, or Node's error text.
fn inflate(data: &[u8], max: u64) -> Result<Vec<u8>, String> {
    let header_ok = data.len() >= 2 && data[0] & 0x0f == 8 && (u16::from(data[0]) << 8 | u16::from(data[1])) % 31 == 0;
    let mut z = Decompress::new(true);
    let cap = usize::try_from(max.min(1 << 31)).unwrap_or(usize::MAX);
    let mut out = Vec::with_capacity(cap.min(64 << 20) + 1);
    loop {
        if out.len() == out.capacity() {
            out.reserve(out.capacity().max(1024));
        }
        let consumed = z.total_in() as usize;
        let before = out.len();
        let status = z.decompress_vec(&data[consumed..], &mut out, FlushDecompress::None);
        if out.len() as u64 > max {
            return Err(format!("RangeError: Cannot create a Buffer larger than {max} bytes"));
        }
        match status {
            Ok(Status::StreamEnd) => return Ok(out),
            Ok(_) if z.total_in() as usize == data.len() && out.len() == before => {
                return Err("Error: unexpected end of file".to_owned());
            }
            Ok(_) => {}
            Err(_) if !header_ok => return Err("Error: incorrect header check".to_owned()),
            Err(_) => return Err("Error: invalid block type".to_owned()),
        }
    }
}

/// Undo the PNG filters of `height` rows of `stride` bytes (2 bytes per pixel).
fn unfilter(inflated: &[u8], stride: usize, height: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; stride * height];
    for row in 0..height {
        let filter = inflated[row * (stride + 1)];
        let src = &inflated[row * (stride + 1) + 1..(row + 1) * (stride + 1)];
        for col in 0..stride {
            let left = if col >= 2 { out[row * stride + col - 2] } else { 0 };
            let up = if row > 0 { out[(row - 1) * stride + col] } else { 0 };
            let up_left = if row > 0 && col >= 2 {
                out[(row - 1) * stride + col - 2]
            } else {
                0
            };
            let predicted = match filter {
                0 => 0,
                1 => left,
                2 => up,
                3 => ((u16::from(left) + u16::from(up)) / 2) as u8,
                4 => paeth(left, up, up_left),
                _ => return None,
            };
            out[row * stride + col] = src[col].wrapping_add(predicted);
        }
    }
    Some(out)
}

fn paeth(left: u8, up: u8, up_left: u8) -> u8 {
    let p = i16::from(left) + i16::from(up) - i16::from(up_left);
    let (da, db, dc) = (
        (p - i16::from(left)).abs(),
        (p - i16::from(up)).abs(),
        (p - i16::from(up_left)).abs(),
    );
    if da <= db && da <= dc {
        left
    } else if db <= dc {
        up
    } else {
        up_left
    }
}
