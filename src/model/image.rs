//! Image summaries (`image/png 2600×400 1.8 MB`) from a block's base64 data, without
//! decoding pixels: only the first bytes are decoded to read the header.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};

/// Base64 characters decoded to find an image header.
const HEADER_CHARS: usize = 64 * 1024;

/// What an image block holds, as far as its header tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageSummary {
    /// Declared MIME type (`image/?` when missing).
    pub mime: String,
    /// Width and height, when the header could be read.
    pub dims: Option<(u32, u32)>,
    /// Decoded size in bytes (from the base64 length).
    pub bytes: usize,
}

impl ImageSummary {
    /// Summarize an image block's MIME type and base64 data (a `data:` URL prefix is allowed).
    pub fn of(mime: Option<&str>, data: Option<&str>) -> Self {
        let data = data.unwrap_or("");
        let payload = data.split_once("base64,").map_or(data, |(_, d)| d);
        let clean: String = payload
            .chars()
            .filter(|c| !c.is_whitespace())
            .take(HEADER_CHARS)
            .collect();
        let chars = payload.bytes().filter(|b| !b.is_ascii_whitespace()).count();
        let padding = payload
            .bytes()
            .rev()
            .filter(|b| !b.is_ascii_whitespace())
            .take_while(|&b| b == b'=')
            .count();
        let bytes = (chars * 3 / 4).saturating_sub(padding);
        let body = clean.trim_end_matches('=');
        // Whole groups of four; a cut inside a character means the text is not base64.
        let head = body
            .get(..body.len() - body.len() % 4)
            .and_then(|body| {
                STANDARD_NO_PAD
                    .decode(body)
                    .or_else(|_| URL_SAFE_NO_PAD.decode(body))
                    .ok()
            })
            .unwrap_or_default();
        let dims = imagesize::blob_size(&head)
            .ok()
            .and_then(|s| Some((u32::try_from(s.width).ok()?, u32::try_from(s.height).ok()?)));
        Self {
            mime: mime.unwrap_or("image/?").to_owned(),
            dims,
            bytes,
        }
    }
}

impl fmt::Display for ImageSummary {
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
    let f = n as f64;
    if n >= 1_000_000 {
        format!("{:.1} MB", f / 1_000_000.0)
    } else if n >= 1_000 {
        format!("{} KB", n / 1_000)
    } else {
        format!("{n} B")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::STANDARD;

    fn png_header(width: u32, height: u32, total: usize) -> String {
        let mut v = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        v.extend_from_slice(&width.to_be_bytes());
        v.extend_from_slice(&height.to_be_bytes());
        v.extend_from_slice(&[8, 2, 0, 0, 0]);
        v.resize(total, 0);
        STANDARD.encode(v)
    }

    #[test]
    fn reads_the_header_and_estimates_the_size() {
        let png = ImageSummary::of(Some("image/png"), Some(&png_header(2600, 400, 1_800_000)));
        assert_eq!(png.to_string(), "image/png 2600×400 1.8 MB");
        let url = format!("data:image/png;base64,{}", png_header(12, 34, 500));
        assert_eq!(ImageSummary::of(None, Some(&url)).to_string(), "image/? 12×34 500 B");
        assert_eq!(
            ImageSummary::of(Some("image/png"), Some("iVBORw0KGgo")).to_string(),
            "image/png (undecodable) 8 B"
        );
    }

    #[test]
    fn text_that_is_not_base64_has_no_header_and_no_panic() {
        // A two-byte character across the cut to whole groups of four (found by fuzzing the
        // exports: the summary sliced inside the character).
        for data in ["AAAé", "iVBORw0KGgoAé", "data:image/png;base64,AAAAé=="] {
            let s = ImageSummary::of(Some("image/png"), Some(data));
            assert_eq!(s.dims, None, "{data}");
        }
    }
}
