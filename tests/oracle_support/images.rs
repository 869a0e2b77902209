//! Image fixtures for generated transcripts: small valid PNG / JPEG files, PNGs at and over
//! the 1200 px limit (small in bytes and in pixels, so decoding stays cheap in debug builds),
//! undecodable data and mislabelled MIME types. Built once.

use std::io::Cursor;
use std::sync::OnceLock;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use image::{ImageFormat, RgbImage};
use replaylens::json;
use replaylens::model::json::Value;

use super::rng::Rng;

/// One image payload: base64 data and the MIME type it is labelled with.
#[derive(Debug, Clone)]
pub struct ImageFixture {
    /// The base64 `data` field.
    pub data: String,
    /// The `mimeType` field.
    pub mime: &'static str,
}

fn encode(width: u32, height: u32, format: ImageFormat) -> String {
    let img = RgbImage::from_fn(width, height, |x, y| {
        let band = ((x / 16 + y / 16) % 3) as u8;
        image::Rgb([40 + band * 60, 90, 200 - band * 50])
    });
    let mut bytes = Cursor::new(Vec::new());
    img.write_to(&mut bytes, format).expect("encode a fixture image");
    STANDARD.encode(bytes.into_inner())
}

/// Every fixture, built on first use.
pub fn fixtures() -> &'static [ImageFixture] {
    static CELL: OnceLock<Vec<ImageFixture>> = OnceLock::new();
    CELL.get_or_init(|| {
        let png = |w, h| encode(w, h, ImageFormat::Png);
        let small = png(8, 8);
        let jpeg = encode(24, 12, ImageFormat::Jpeg);
        let fx = |data: String, mime| ImageFixture { data, mime };
        vec![
            fx(small.clone(), "image/png"),
            fx(png(64, 32), "image/png"),
            fx(jpeg.clone(), "image/jpeg"),
            fx(png(1300, 16), "image/png"),
            fx(png(16, 1500), "image/png"),
            fx(png(2000, 40), "image/png"),
            fx(png(1201, 30), "image/png"),
            fx(png(1200, 10), "image/png"),
            fx(String::new(), "image/png"),
            fx("   ".into(), "image/png"),
            fx("not base64!!".into(), "image/png"),
            fx("iVBORw0KGgo=".into(), "image/png"),
            fx(small, "image/jpeg"),
            fx(jpeg, "image/png"),
            fx(png(1300, 16), "image/webp"),
        ]
    })
}

/// A random image block `{type:"image", data, mimeType}`.
pub fn image_block(rng: &mut Rng) -> Value {
    let f = rng.pick(fixtures());
    json!({"type": "image", "data": f.data, "mimeType": f.mime})
}
