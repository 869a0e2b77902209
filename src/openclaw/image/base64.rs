//! Base64 handling of image payloads, as OpenClaw 2026.9.6's media layer does it: JavaScript's
//! `trim`, the decoded-size estimate that refuses payloads over 10 MiB before anything else,
//! and `canonicalizeBase64` (characters up to U+0020 removed, padding added to unpadded data,
//! non-zero pad bits refused; 2026.6's stricter-and-looser form beside it).

use std::borrow::Cow;

/// Payloads whose estimated decoded size is over this are refused unread (10 MiB).
pub const MAX_INPUT_BYTES: u64 = 10 * 1024 * 1024;

pub use crate::openclaw::js::js_trim;

/// OpenClaw's `estimateBase64DecodedBytes`: UTF-16 length minus characters up to U+0020,
/// times 3/4, minus the trailing padding.
pub fn estimate_decoded_bytes(data: &str) -> u64 {
    let units: u64 = data.chars().map(|c| c.len_utf16() as u64).sum();
    let blanks = data.bytes().filter(|&b| b <= 0x20).count() as u64;
    let effective = units - blanks;
    if effective == 0 {
        return 0;
    }
    let mut tail = data.bytes().rev().filter(|&b| b > 0x20);
    let padding = match (tail.next(), tail.next()) {
        (Some(b'='), Some(b'=')) => 2,
        (Some(b'='), _) => 1,
        _ => 0,
    };
    (effective * 3 / 4).saturating_sub(padding)
}

/// The value of a base64 alphabet character.
fn value(b: u8) -> Option<u8> {
    match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// OpenClaw's `canonicalizeBase64`: the payload without characters up to U+0020, padded to a
/// multiple of 4; `None` when a character is outside the alphabet, `=` is followed by data or
/// repeated more than twice, the length cannot be padded, or the pad bits are not zero.
pub fn canonical_base64(data: &str) -> Option<Cow<'_, str>> {
    let bytes = data.as_bytes();
    let mut cleaned: Option<Vec<u8>> = None;
    let (mut padding, mut saw_padding, mut last) = (0, false, 0u8);
    for (i, &b) in bytes.iter().enumerate() {
        if b <= 0x20 {
            cleaned.get_or_insert_with(|| bytes[..i].to_vec());
            continue;
        }
        if b == b'=' {
            padding += 1;
            if padding > 2 {
                return None;
            }
            saw_padding = true;
        } else {
            match value(b) {
                Some(v) if !saw_padding => last = v,
                _ => return None,
            }
        }
        if let Some(out) = cleaned.as_mut() {
            out.push(b);
        }
    }
    let length = cleaned.as_ref().map_or(bytes.len(), Vec::len);
    if length == 0 {
        return None;
    }
    let remainder = length % 4;
    if remainder != 0 && (saw_padding || remainder == 1) {
        return None;
    }
    let effective_padding = if remainder == 0 { padding } else { 4 - remainder };
    let mask = match effective_padding {
        2 => 15,
        1 => 3,
        _ => 0,
    };
    if last & mask != 0 {
        return None;
    }
    let pad = if remainder == 0 { 0 } else { 4 - remainder };
    Some(match cleaned {
        None if pad == 0 => Cow::Borrowed(data),
        other => {
            let mut out = other.unwrap_or_else(|| bytes.to_vec());
            out.resize(out.len() + pad, b'=');
            Cow::Owned(String::from_utf8(out).ok()?)
        }
    })
}

/// 2026.6's `canonicalizeBase64`: the payload without characters up to U+0020, never padded;
/// `None` when a character is outside the alphabet, `=` is followed by data or repeated more
/// than twice, or the length is not a multiple of 4. Pad bits are not checked.
pub fn canonical_base64_unpadded(data: &str) -> Option<Cow<'_, str>> {
    let bytes = data.as_bytes();
    let mut padding = 0;
    for &b in bytes.iter().filter(|&&b| b > 0x20) {
        if b == b'=' {
            padding += 1;
            if padding > 2 {
                return None;
            }
        } else if padding > 0 || value(b).is_none() {
            return None;
        }
    }
    let length = bytes.iter().filter(|&&b| b > 0x20).count();
    if length == 0 || length % 4 != 0 {
        return None;
    }
    Some(if length == bytes.len() {
        Cow::Borrowed(data)
    } else {
        Cow::Owned(String::from_utf8(bytes.iter().copied().filter(|&b| b > 0x20).collect()).ok()?)
    })
}

/// The decoded size of a canonical payload.
pub fn canonical_decoded_len(canonical: &str) -> usize {
    let padding = canonical.len() - canonical.trim_end_matches('=').len();
    canonical.len() / 4 * 3 - padding
}

/// The MIME type shown by the first base64 characters (JPEG, PNG, GIF only).
pub fn infer_mime_type(base64: &str) -> Option<&'static str> {
    let s = js_trim(base64);
    if s.starts_with("/9j/") {
        Some("image/jpeg")
    } else if s.starts_with("iVBOR") {
        Some("image/png")
    } else if s.starts_with("R0lGOD") {
        Some("image/gif")
    } else {
        None
    }
}

/// OpenClaw's `formatBytesShort`: binary units up to MB, `5.00MB`, `512.0KB`, `12B`.
pub fn format_bytes_short(bytes: usize) -> String {
    let bytes = bytes as u128;
    let (shift, digits, unit) = if bytes >= 1 << 20 {
        (20, 2, "MB")
    } else if bytes >= 1 << 10 {
        (10, 1, "KB")
    } else {
        (0, 0, "B")
    };
    let scale = 10u128.pow(digits);
    let n = bytes * scale;
    let (q, r) = (n >> shift, n & ((1 << shift) - 1));
    let rounded = if shift > 0 && r >= 1 << (shift - 1) { q + 1 } else { q };
    if digits == 0 {
        return format!("{rounded}{unit}");
    }
    format!(
        "{}.{:0width$}{unit}",
        rounded / scale,
        rounded % scale,
        width = digits as usize
    )
}
