//! Byte builders for the image fixtures: real images encoded with the `image` crate, and
//! minimal hand-built headers and containers for what it does not write (TIFF directories,
//! HEIF/AVIF boxes, ICO, animated WebP, odd PNG chunks, cut or damaged files).

use std::io::{Cursor, Write};

use flate2::Compression;
use flate2::write::ZlibEncoder;
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, DynamicImage, Frame, ImageFormat, RgbImage, RgbaImage};

/// A banded RGB picture (compresses well, decodes to something visible).
pub fn picture(width: u32, height: u32) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        let band = ((x / 16 + y / 16) % 3) as u8;
        image::Rgb([40 + band * 60, 90, 200 - band * 50])
    })
}

/// The picture encoded in a format the `image` crate writes.
pub fn encoded(width: u32, height: u32, format: ImageFormat) -> Vec<u8> {
    let img = DynamicImage::ImageRgb8(picture(width, height));
    let img = if format == ImageFormat::WebP {
        DynamicImage::ImageRgba8(img.to_rgba8())
    } else {
        img
    };
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, format).expect("encode a fixture image");
    out.into_inner()
}

/// A PNG chunk: length, type, data, CRC.
pub fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut crc = flate2::Crc::new();
    crc.update(kind);
    crc.update(data);
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc.sum().to_be_bytes());
    out
}

/// A PNG of `width`×`height` with colour type `color` (0, 2, 4 or 6), 8 bits, unfiltered
/// rows of `fill`, and extra chunks before IDAT.
pub fn raw_png(width: u32, height: u32, color: u8, extra: &[Vec<u8>]) -> Vec<u8> {
    let channels = match color {
        0 => 1,
        4 => 2,
        6 => 4,
        _ => 3,
    };
    let mut raw = Vec::new();
    for y in 0..height {
        raw.push(0);
        raw.extend((0..width * channels).map(|x| (x * 7 + y * 3) as u8));
    }
    let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
    z.write_all(&raw).expect("deflate");
    let idat = z.finish().expect("deflate");
    png_with_idat(width, height, color, extra, &idat)
}

/// A PNG with the given (possibly broken) IDAT data.
pub fn png_with_idat(width: u32, height: u32, color: u8, extra: &[Vec<u8>], idat: &[u8]) -> Vec<u8> {
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, color, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(png_chunk(b"IHDR", &ihdr));
    for chunk in extra {
        out.extend_from_slice(chunk);
    }
    out.extend(png_chunk(b"IDAT", idat));
    out.extend(png_chunk(b"IEND", &[]));
    out
}

/// Flip one bit of every CRC after the IHDR's (the data still inflates).
pub fn break_crcs(mut png: Vec<u8>) -> Vec<u8> {
    let mut at = 8 + 25;
    while at + 12 <= png.len() {
        let length = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        let crc = at + 8 + length;
        png[crc] ^= 1;
        at = crc + 4;
    }
    png
}

/// An animated GIF of two frames.
pub fn animated_gif(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = GifEncoder::new(&mut out);
        enc.set_repeat(Repeat::Infinite).expect("gif repeat");
        for shade in [40u8, 200] {
            let frame = RgbaImage::from_pixel(width, height, image::Rgba([shade, 90, 255 - shade, 255]));
            enc.encode_frame(Frame::from_parts(frame, 0, 0, Delay::from_numer_denom_ms(100, 1)))
                .expect("gif frame");
        }
    }
    out
}

/// The chunk `kind` of a RIFF WebP file, with its header.
fn riff_chunk(webp: &[u8], kind: &[u8; 4]) -> Vec<u8> {
    let mut at = 12;
    while at + 8 <= webp.len() {
        let size = u32::from_le_bytes(webp[at + 4..at + 8].try_into().unwrap()) as usize;
        let end = (at + 8 + size + (size & 1)).min(webp.len());
        if &webp[at..at + 4] == kind {
            return webp[at..end].to_vec();
        }
        at = end;
    }
    panic!("no {kind:?} chunk")
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = kind.to_vec();
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(data);
    if data.len() % 2 == 1 {
        out.push(0);
    }
    out
}

fn u24(v: u32) -> [u8; 3] {
    let b = v.to_le_bytes();
    [b[0], b[1], b[2]]
}

/// An animated WebP: VP8X (animation flag), ANIM, two ANMF frames holding lossless bitstreams.
pub fn animated_webp(width: u32, height: u32) -> Vec<u8> {
    let still = encoded(width, height, ImageFormat::WebP);
    let vp8l = riff_chunk(&still, b"VP8L");
    let mut vp8x = vec![0x02 | 0x10, 0, 0, 0];
    vp8x.extend(u24(width - 1));
    vp8x.extend(u24(height - 1));
    let mut body = b"WEBP".to_vec();
    body.extend(chunk(b"VP8X", &vp8x));
    body.extend(chunk(b"ANIM", &[0, 0, 0, 0, 0, 0]));
    for _ in 0..2 {
        let mut frame = Vec::new();
        frame.extend(u24(0));
        frame.extend(u24(0));
        frame.extend(u24(width - 1));
        frame.extend(u24(height - 1));
        frame.extend(u24(100));
        frame.push(0);
        frame.extend_from_slice(&vp8l);
        body.extend(chunk(b"ANMF", &frame));
    }
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend(body);
    out
}

/// A little-endian TIFF header with one IFD of width, height (SHORT) and `extra` tags.
pub fn tiff(width: u16, height: u16, extra_tag: Option<u16>) -> Vec<u8> {
    let mut tags = vec![(256u16, width), (257, height)];
    if let Some(t) = extra_tag {
        tags.push((t, 0));
    }
    let mut out = b"II*\0".to_vec();
    out.extend_from_slice(&8u32.to_le_bytes());
    out.extend_from_slice(&(tags.len() as u16).to_le_bytes());
    for (tag, value) in tags {
        out.extend_from_slice(&tag.to_le_bytes());
        out.extend_from_slice(&3u16.to_le_bytes());
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&u32::from(value).to_le_bytes());
    }
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&[0; 16]);
    out
}

/// An ISO-BMFF box.
pub fn bmff_box(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = ((data.len() + 8) as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out
}

/// A full box (version 0, no flags).
fn full_box(kind: &[u8; 4], payload: &[u8]) -> Vec<u8> {
    let mut data = vec![0, 0, 0, 0];
    data.extend_from_slice(payload);
    bmff_box(kind, &data)
}

/// An `ispe` property.
fn ispe(width: u32, height: u32) -> Vec<u8> {
    let mut p = width.to_be_bytes().to_vec();
    p.extend_from_slice(&height.to_be_bytes());
    full_box(b"ispe", &p)
}

/// A HEIF/AVIF file: `ftyp` with `brand`, then a `meta` box. With `primary`, the meta box holds
/// `pitm`, and the primary item's `ispe` (and `irot`, when given) associated through `ipma`;
/// otherwise only an `iprp/ipco/ispe` the fallback search finds. `size: None` leaves the
/// `ftyp` alone (no size anywhere).
pub fn heif(brand: &[u8; 4], size: Option<(u32, u32)>, rotation: Option<u8>) -> Vec<u8> {
    let mut ftyp = brand.to_vec();
    ftyp.extend_from_slice(&[0, 0, 0, 0]);
    ftyp.extend_from_slice(b"mif1");
    ftyp.extend_from_slice(brand);
    let mut out = bmff_box(b"ftyp", &ftyp);
    let Some((w, h)) = size else {
        out.extend_from_slice(&[0; 16]);
        return out;
    };
    let mut ipco = ispe(w, h);
    let mut associated = vec![1u8];
    if let Some(r) = rotation {
        ipco.extend(bmff_box(b"irot", &[r]));
        associated.push(2);
    }
    let mut ipma = 1u32.to_be_bytes().to_vec();
    ipma.extend_from_slice(&1u16.to_be_bytes());
    ipma.push(associated.len() as u8);
    ipma.extend_from_slice(&associated);
    let mut iprp = bmff_box(b"ipco", &ipco);
    iprp.extend(full_box(b"ipma", &ipma));
    let mut meta = vec![0, 0, 0, 0];
    if rotation.is_some() {
        meta.extend(full_box(b"pitm", &1u16.to_be_bytes()));
    }
    meta.extend(bmff_box(b"iprp", &iprp));
    out.extend(bmff_box(b"meta", &meta));
    out
}

/// An ICO file holding one 16×16 PNG.
pub fn ico() -> Vec<u8> {
    let png = encoded(16, 16, ImageFormat::Png);
    let mut out = vec![0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0];
    out.extend_from_slice(&(png.len() as u32).to_le_bytes());
    out.extend_from_slice(&22u32.to_le_bytes());
    out.extend(png);
    out
}

/// A BMP header (BITMAPINFOHEADER) with a signed width and height, no pixel data.
pub fn bmp_header(width: i32, height: i32) -> Vec<u8> {
    let mut out = b"BM".to_vec();
    out.extend_from_slice(&70u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&54u32.to_le_bytes());
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(&width.to_le_bytes());
    out.extend_from_slice(&height.to_le_bytes());
    out.extend_from_slice(&[1, 0, 24, 0]);
    out.extend_from_slice(&[0; 24]);
    out
}

/// A JPEG with an EXIF APP1 segment naming `orientation`, spliced after SOI.
pub fn jpeg_with_orientation(width: u32, height: u32, orientation: u16) -> Vec<u8> {
    let jpeg = encoded(width, height, ImageFormat::Jpeg);
    let mut tiff = b"MM\0*\0\0\0\x08\0\x01".to_vec();
    tiff.extend_from_slice(&0x0112u16.to_be_bytes());
    tiff.extend_from_slice(&3u16.to_be_bytes());
    tiff.extend_from_slice(&1u32.to_be_bytes());
    tiff.extend_from_slice(&orientation.to_be_bytes());
    tiff.extend_from_slice(&[0, 0, 0, 0, 0, 0]);
    let mut app1 = b"Exif\0\0".to_vec();
    app1.extend(tiff);
    let mut out = jpeg[..2].to_vec();
    out.extend_from_slice(&[0xff, 0xe1]);
    out.extend_from_slice(&((app1.len() + 2) as u16).to_be_bytes());
    out.extend(app1);
    out.extend_from_slice(&jpeg[2..]);
    out
}
