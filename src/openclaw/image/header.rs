//! Reading an image's size, format and orientation from its header without decoding pixels,
//! with the rules of rastermill 0.3.3 (OpenClaw 2026.9.6's image layer; 0.3.1 differs only in
//! HEIF/AVIF, see [`probe_with`]): which formats it
//! recognizes (PNG, GIF, WebP, BMP, TIFF, HEIF/AVIF, JPEG, tried in that order), which header
//! fields it trusts and when it gives up. Everything it does not recognize (SVG, ICO, plain
//! text, …) has no size, and OpenClaw then refuses the image.

/// An image format recognized by its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderFormat {
    /// PNG (signature and `IHDR`).
    Png,
    /// GIF87a / GIF89a.
    Gif,
    /// WebP (`VP8X`, `VP8 ` or `VP8L`).
    Webp,
    /// Windows bitmap.
    Bmp,
    /// TIFF (every IFD carries a width and a height).
    Tiff,
    /// HEIF (ISO-BMFF with an image brand).
    Heif,
    /// AVIF (ISO-BMFF with an `avif`/`avis` brand).
    Avif,
    /// JPEG (a start-of-frame segment).
    Jpeg,
}

/// What a header says about an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeaderProbe {
    /// Stored width (positive).
    pub width: u32,
    /// Stored height (positive).
    pub height: u32,
    /// The format recognized.
    pub format: HeaderFormat,
    /// EXIF orientation (JPEG) or the HEIF primary item's rotation/mirror, when present.
    pub orientation: Option<u8>,
}

impl HeaderProbe {
    /// The displayed size: orientations 5–8 swap the axes.
    pub fn displayed(&self) -> (u32, u32) {
        if matches!(self.orientation, Some(5..=8)) {
            (self.height, self.width)
        } else {
            (self.width, self.height)
        }
    }
}

/// Positive dimensions, as rastermill's `normalizeMetadata`.
fn dims(width: i64, height: i64) -> Option<(u32, u32)> {
    (width > 0 && height > 0 && width <= i64::from(u32::MAX) && height <= i64::from(u32::MAX))
        .then_some((width as u32, height as u32))
}

fn u16_be(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u16_le(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_be(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u32_le(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u24_le(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at + 3)?;
    Some(u32::from(s[0]) | u32::from(s[1]) << 8 | u32::from(s[2]) << 16)
}

fn tag(b: &[u8], at: usize) -> &[u8] {
    b.get(at..at + 4).unwrap_or(&[])
}

const PNG_SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

fn png(b: &[u8]) -> Option<(u32, u32)> {
    if b.len() < 24 || !b.starts_with(PNG_SIGNATURE) || tag(b, 12) != b"IHDR" {
        return None;
    }
    dims(i64::from(u32_be(b, 16)?), i64::from(u32_be(b, 20)?))
}

fn gif(b: &[u8]) -> Option<(u32, u32)> {
    if b.len() < 10 || !(b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a")) {
        return None;
    }
    dims(i64::from(u16_le(b, 6)?), i64::from(u16_le(b, 8)?))
}

fn webp(b: &[u8]) -> Option<(u32, u32)> {
    if b.len() < 30 || !b.starts_with(b"RIFF") || tag(b, 8) != b"WEBP" {
        return None;
    }
    match tag(b, 12) {
        b"VP8X" => dims(1 + i64::from(u24_le(b, 24)?), 1 + i64::from(u24_le(b, 27)?)),
        b"VP8 " => dims(i64::from(u16_le(b, 26)? & 0x3fff), i64::from(u16_le(b, 28)? & 0x3fff)),
        b"VP8L" => {
            if b[20] != 0x2f {
                return None;
            }
            let bits = u32_le(b, 21)?;
            dims(i64::from(bits & 0x3fff) + 1, i64::from((bits >> 14) & 0x3fff) + 1)
        }
        _ => None,
    }
}

fn bmp(b: &[u8]) -> Option<(u32, u32)> {
    if b.len() < 26 || !b.starts_with(b"BM") {
        return None;
    }
    match u32_le(b, 14)? {
        12 => dims(i64::from(u16_le(b, 18)?), i64::from(u16_le(b, 20)?)),
        size if size < 40 => None,
        _ => {
            let width = i32::from_le_bytes(b[18..22].try_into().ok()?);
            let height = i32::from_le_bytes(b[22..26].try_into().ok()?);
            dims(i64::from(width), i64::from(height).abs())
        }
    }
}

/// The larger of two sizes by pixel count (the first on a tie).
fn larger(current: Option<(u32, u32)>, candidate: Option<(u32, u32)>) -> Option<(u32, u32)> {
    match (current, candidate) {
        (None, c) => c,
        (c, None) => c,
        (Some(a), Some(b)) => {
            let pixels = |(w, h): (u32, u32)| u64::from(w) * u64::from(h);
            Some(if pixels(b) > pixels(a) { b } else { a })
        }
    }
}

fn tiff(b: &[u8]) -> Option<(u32, u32)> {
    if b.len() < 8 {
        return None;
    }
    let le = match &b[0..2] {
        b"II" => true,
        b"MM" => false,
        _ => return None,
    };
    let u16_at = |at: usize| if le { u16_le(b, at) } else { u16_be(b, at) };
    let u32_at = |at: usize| if le { u32_le(b, at) } else { u32_be(b, at) };
    if u16_at(2)? != 42 {
        return None;
    }
    let mut ifd = u32_at(4)? as usize;
    let mut largest = None;
    let mut seen = std::collections::HashSet::new();
    while ifd != 0 {
        if !seen.insert(ifd) || ifd + 2 > b.len() {
            return None;
        }
        let count = usize::from(u16_at(ifd)?);
        let entries = ifd + 2;
        let end = entries + count * 12;
        if end + 4 > b.len() {
            return None;
        }
        let (mut width, mut height) = (None, None);
        for i in 0..count {
            let at = entries + i * 12;
            let t = u16_at(at)?;
            if t == 330 {
                return None;
            }
            if t != 256 && t != 257 {
                continue;
            }
            let kind = u16_at(at + 2)?;
            if u32_at(at + 4)? != 1 || (kind != 3 && kind != 4) {
                continue;
            }
            let value = if kind == 3 {
                u32::from(u16_at(at + 8)?)
            } else {
                u32_at(at + 8)?
            };
            if t == 256 {
                width = Some(value);
            } else {
                height = Some(value);
            }
        }
        let size = dims(i64::from(width?), i64::from(height?))?;
        largest = larger(largest, Some(size));
        ifd = u32_at(end)? as usize;
    }
    largest
}

#[path = "header_bmff.rs"]
mod bmff;

fn jpeg(b: &[u8]) -> Option<(u32, u32)> {
    if b.len() < 4 || b[0] != 0xff || b[1] != 0xd8 {
        return None;
    }
    let mut at = 2;
    while at + 8 < b.len() {
        while at < b.len() && b[at] == 0xff {
            at += 1;
        }
        let marker = *b.get(at)?;
        at += 1;
        if matches!(marker, 0xd8 | 0xd9 | 0x01 | 0xd0..=0xd7) {
            continue;
        }
        if at + 1 >= b.len() {
            return None;
        }
        let length = usize::from(u16_be(b, at)?);
        if length < 2 || at + length > b.len() {
            return None;
        }
        if (0xc0..=0xcf).contains(&marker) && !matches!(marker, 0xc4 | 0xc8 | 0xcc) {
            if length < 7 || at + 6 >= b.len() {
                return None;
            }
            return dims(i64::from(u16_be(b, at + 5)?), i64::from(u16_be(b, at + 3)?));
        }
        at += length;
    }
    None
}

/// The EXIF orientation (1–8) of a JPEG, from the `Exif` APP1 segment before the scan.
pub fn jpeg_exif_orientation(b: &[u8]) -> Option<u8> {
    if b.len() < 4 || b[0] != 0xff || b[1] != 0xd8 {
        return None;
    }
    let mut at = 2;
    while at + 4 < b.len() {
        if b[at] != 0xff {
            at += 1;
            continue;
        }
        let marker = b[at + 1];
        if marker == 0xff {
            at += 1;
            continue;
        }
        if marker == 0xda || marker == 0xd9 {
            return None;
        }
        let length = usize::from(u16_be(b, at + 2)?);
        if length < 2 || at + 2 + length > b.len() {
            return None;
        }
        if marker == 0xe1 && length >= 14 && &b[at + 4..at + 8] == b"Exif" && b[at + 8] == 0 && b[at + 9] == 0 {
            return exif_orientation(b, at + 10, at + 2 + length);
        }
        at += 2 + length;
    }
    None
}

fn exif_orientation(b: &[u8], start: usize, end: usize) -> Option<u8> {
    if start + 8 > end {
        return None;
    }
    let le = match &b[start..start + 2] {
        b"II" => true,
        b"MM" => false,
        _ => return None,
    };
    let u16_at = |at: usize| if le { u16_le(b, at) } else { u16_be(b, at) };
    let u32_at = |at: usize| if le { u32_le(b, at) } else { u32_be(b, at) };
    if u16_at(start + 2)? != 42 {
        return None;
    }
    let ifd0 = start + u32_at(start + 4)? as usize;
    if ifd0 + 2 > end {
        return None;
    }
    for i in 0..usize::from(u16_at(ifd0)?) {
        let entry = ifd0 + 2 + i * 12;
        if entry + 12 > end {
            return None;
        }
        if u16_at(entry)? == 0x0112 {
            let o = u16_at(entry + 8)?;
            return (1..=8).contains(&o).then_some(o as u8);
        }
    }
    None
}

/// The orientation the decoder applies: a JPEG's EXIF, else a HEIF primary item's.
pub fn orientation(b: &[u8]) -> Option<u8> {
    orientation_with(b, true)
}

/// [`orientation`], or with rastermill 0.3.1's rules when `heif_primary_item` is false: a
/// JPEG's EXIF only.
pub fn orientation_with(b: &[u8], heif_primary_item: bool) -> Option<u8> {
    jpeg_exif_orientation(b).or_else(|| {
        heif_primary_item
            .then(|| bmff::primary_item(b).and_then(|p| p.orientation))
            .flatten()
    })
}

/// Read the header: the first format (in rastermill's order) whose header gives a positive size.
pub fn probe(b: &[u8]) -> Option<HeaderProbe> {
    probe_with(b, true)
}

/// [`probe`], or with rastermill 0.3.1's rules when `heif_primary_item` is false: a HEIF or
/// AVIF is sized by its largest `ispe`, without orientation.
pub fn probe_with(b: &[u8], heif_primary_item: bool) -> Option<HeaderProbe> {
    let plain = |(width, height): (u32, u32), format| HeaderProbe {
        width,
        height,
        format,
        orientation: None,
    };
    if let Some(size) = png(b) {
        return Some(plain(size, HeaderFormat::Png));
    }
    if let Some(size) = gif(b) {
        return Some(plain(size, HeaderFormat::Gif));
    }
    if let Some(size) = webp(b) {
        return Some(plain(size, HeaderFormat::Webp));
    }
    if let Some(size) = bmp(b) {
        return Some(plain(size, HeaderFormat::Bmp));
    }
    if let Some(size) = tiff(b) {
        return Some(plain(size, HeaderFormat::Tiff));
    }
    let primary = heif_primary_item.then(|| bmff::primary_item(b)).flatten();
    if let Some(size) = primary.map(|p| p.size).or_else(|| bmff::largest_ispe(b)) {
        let format = if bmff::is_avif(b) {
            HeaderFormat::Avif
        } else {
            HeaderFormat::Heif
        };
        return Some(HeaderProbe {
            orientation: primary.and_then(|p| p.orientation),
            ..plain(size, format)
        });
    }
    jpeg(b).map(|size| HeaderProbe {
        orientation: jpeg_exif_orientation(b),
        ..plain(size, HeaderFormat::Jpeg)
    })
}

/// Whether Photon is let near the bytes: a PNG, GIF, WebP or JPEG header with a size.
pub fn photon_decodable(b: &[u8]) -> bool {
    png(b).is_some() || gif(b).is_some() || webp(b).is_some() || jpeg(b).is_some()
}

/// Whether the header can be read from a prefix of the payload with the answer the whole
/// payload gives: the fixed-offset formats and JPEG's sequential walk. TIFF and ISO-BMFF need
/// the whole file (IFDs anywhere; boxes must tile the file).
pub fn prefix_safe(format: HeaderFormat) -> bool {
    !matches!(format, HeaderFormat::Tiff | HeaderFormat::Heif | HeaderFormat::Avif)
}

#[cfg(test)]
#[path = "header_tests.rs"]
mod tests;
