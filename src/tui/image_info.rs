//! Image summaries (`image/png 2600×400 1.8 MB`) from base64 data, without decoding pixels:
//! only the header bytes are decoded to read the dimensions.

use std::fmt;

/// What the inspector shows for an image block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageInfo {
    /// Declared MIME type.
    pub mime: String,
    /// Width and height, when the header could be read.
    pub dims: Option<(u32, u32)>,
    /// Decoded size in bytes (estimated from the base64 length).
    pub bytes: usize,
}

impl ImageInfo {
    /// Summarize an image block's MIME type and base64 data.
    pub fn new(mime: Option<&str>, data: Option<&str>) -> Self {
        let data = data.unwrap_or("");
        let payload = data.split_once("base64,").map_or(data, |(_, d)| d);
        let padding = payload.bytes().rev().take_while(|&b| b == b'=').count();
        let bytes = (payload.len() * 3 / 4).saturating_sub(padding);
        let head = decode_prefix(payload, 64 * 1024);
        Self {
            mime: mime.unwrap_or("image/?").to_owned(),
            dims: dimensions(&head),
            bytes,
        }
    }
}

impl fmt::Display for ImageInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mime)?;
        match self.dims {
            Some((w, h)) => write!(f, " {w}×{h}")?,
            None => write!(f, " (undecodable)")?,
        }
        write!(f, " {}", human_bytes(self.bytes))
    }
}

/// `1.8 MB`, `140 KB`, `512 B` (decimal units).
pub fn human_bytes(n: usize) -> String {
    #[allow(clippy::cast_precision_loss)]
    let f = n as f64;
    if n >= 1_000_000 {
        format!("{:.1} MB", f / 1_000_000.0)
    } else if n >= 1_000 {
        format!("{} KB", n / 1_000)
    } else {
        format!("{n} B")
    }
}

/// Decode at most `max` bytes from the start of a base64 string (standard or URL-safe).
fn decode_prefix(text: &str, max: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(max.min(text.len()));
    let mut acc = 0u32;
    let mut bits = 0;
    for b in text.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return out,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
            if out.len() >= max {
                break;
            }
        }
    }
    out
}

fn be16(b: &[u8], i: usize) -> Option<u32> {
    Some(u32::from(*b.get(i)?) << 8 | u32::from(*b.get(i + 1)?))
}

fn be32(b: &[u8], i: usize) -> Option<u32> {
    Some(be16(b, i)? << 16 | be16(b, i + 2)?)
}

/// Width and height from a PNG, JPEG, GIF or WebP header.
fn dimensions(b: &[u8]) -> Option<(u32, u32)> {
    if b.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some((be32(b, 16)?, be32(b, 20)?));
    }
    if b.starts_with(b"GIF8") {
        let le = |i: usize| Some(u32::from(*b.get(i)?) | u32::from(*b.get(i + 1)?) << 8);
        return Some((le(6)?, le(8)?));
    }
    if b.starts_with(&[0xff, 0xd8]) {
        let mut i = 2;
        while i + 9 < b.len() {
            if b[i] != 0xff {
                return None;
            }
            let marker = b[i + 1];
            let len = be16(b, i + 2)? as usize;
            if matches!(marker, 0xc0..=0xcf) && !matches!(marker, 0xc4 | 0xc8 | 0xcc) {
                return Some((be16(b, i + 7)?, be16(b, i + 5)?));
            }
            i += 2 + len;
        }
        return None;
    }
    if b.len() >= 30 && &b[0..4] == b"RIFF" && &b[8..12] == b"WEBP" && &b[12..16] == b"VP8X" {
        let le24 = |i: usize| u32::from(b[i]) | u32::from(b[i + 1]) << 8 | u32::from(b[i + 2]) << 16;
        return Some((le24(24) + 1, le24(27) + 1));
    }
    None
}

/// Base64 of a minimal image header of the given kind and size, padded to `total` bytes
/// (for tests and the benchmark).
#[cfg_attr(not(test), allow(dead_code))]
pub fn synthetic_base64(png: bool, width: u32, height: u32, total: usize) -> String {
    let mut bytes: Vec<u8> = if png {
        let mut v = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        v.extend_from_slice(&width.to_be_bytes());
        v.extend_from_slice(&height.to_be_bytes());
        v
    } else {
        let mut v = vec![0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08];
        v.extend_from_slice(&(height as u16).to_be_bytes());
        v.extend_from_slice(&(width as u16).to_be_bytes());
        v
    };
    bytes.resize(total.max(bytes.len()), 0);
    encode(&bytes)
}

fn encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_png_and_jpeg_headers() {
        let png = ImageInfo::new(Some("image/png"), Some(&synthetic_base64(true, 2600, 400, 1_800_000)));
        assert_eq!(png.to_string(), "image/png 2600×400 1.8 MB");
        let jpg = ImageInfo::new(Some("image/jpeg"), Some(&synthetic_base64(false, 1200, 185, 140_000)));
        assert_eq!(jpg.to_string(), "image/jpeg 1200×185 140 KB");
        let bad = ImageInfo::new(Some("image/png"), Some("iVBORw0KGgo"));
        assert_eq!(bad.to_string(), "image/png (undecodable) 8 B");
    }
}
