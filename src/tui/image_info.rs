//! Image summaries for the inspector: the library's [`ImageSummary`] (header-only), plus
//! synthetic image headers for tests and the benchmark.

pub use replaylens::model::ImageSummary as ImageInfo;

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
    base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &bytes)
}
