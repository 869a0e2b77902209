//! The pixel work behind image sanitization: read an image's header, decode it flat (grey or
//! RGB, alpha composited onto black), downscale by area average and search the side × quality
//! grid for a JPEG within the byte cap. Payload-level decisions (base64, MIME type, limits
//! from the header) stay in [`super::image_ops`].

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::metadata::Orientation;
use image::{ColorType, DynamicImage, ImageDecoder, ImageReader, ImageResult};

use super::image_ops::{
    ImageLimits, MAX_INPUT_PIXELS, QUALITY_STEPS, Reencoded, UNDECODABLE, UNDETERMINED_DIMENSIONS, fit_inside,
    is_heif_or_avif, mib_fixed, side_grid,
};

/// What the header of an image says.
#[derive(Debug, Clone, Copy)]
pub(super) struct Probe {
    /// Stored width.
    pub(super) width: u32,
    /// Stored height.
    pub(super) height: u32,
    /// EXIF orientation.
    pub(super) orientation: Orientation,
}

impl Probe {
    /// Whether the orientation swaps width and height (EXIF 5–8).
    fn swaps_axes(&self) -> bool {
        matches!(
            self.orientation,
            Orientation::Rotate90 | Orientation::Rotate270 | Orientation::Rotate90FlipH | Orientation::Rotate270FlipH
        )
    }

    /// The displayed size.
    pub(super) fn displayed(&self) -> (u32, u32) {
        if self.swaps_axes() {
            (self.height, self.width)
        } else {
            (self.width, self.height)
        }
    }
}

/// A decoder for the bytes, by the format their signature shows.
fn decoder(bytes: &[u8]) -> Result<impl ImageDecoder + '_, String> {
    if is_heif_or_avif(bytes) {
        return Err("unsupported image format".to_owned());
    }
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    if reader.format().is_none() {
        return Err("unsupported image format".to_owned());
    }
    reader.into_decoder().map_err(|e| format!("corrupt image data ({e})"))
}

/// Read the header only: size (from the header alone, as OpenClaw does, so a truncated file
/// whose header is intact still has a size) and, when the decoder can read it, the EXIF
/// orientation.
pub(super) fn probe(bytes: &[u8]) -> Result<Probe, String> {
    if is_heif_or_avif(bytes) {
        return Err("Error: unsupported image format".to_owned());
    }
    let size = imagesize::blob_size(bytes)
        .ok()
        .filter(|s| s.width > 0 && s.height > 0)
        .ok_or_else(|| UNDETERMINED_DIMENSIONS.to_owned())?;
    let orientation = decoder(bytes)
        .ok()
        .and_then(|mut d| d.orientation().ok())
        .unwrap_or(Orientation::NoTransforms);
    Ok(Probe {
        width: u32::try_from(size.width).map_err(|_| UNDETERMINED_DIMENSIONS.to_owned())?,
        height: u32::try_from(size.height).map_err(|_| UNDETERMINED_DIMENSIONS.to_owned())?,
        orientation,
    })
}

/// Decode fully, flattened for JPEG: grey stays grey, colour becomes RGB, alpha is
/// composited onto black (what a JPEG encoder without alpha support produces).
fn decode_flat(bytes: &[u8], probe: &Probe) -> Result<DynamicImage, String> {
    let pixels = u64::from(probe.width) * u64::from(probe.height);
    if pixels > MAX_INPUT_PIXELS {
        return Err(format!(
            "Error: image exceeds pixel limit ({}×{} = {pixels} pixels > {MAX_INPUT_PIXELS})",
            probe.width, probe.height
        ));
    }
    let decoder = decoder(bytes).map_err(|_| UNDECODABLE.to_owned())?;
    let decoded = DynamicImage::from_decoder(decoder).map_err(|_| UNDECODABLE.to_owned())?;
    let grey = matches!(
        decoded.color(),
        ColorType::L8 | ColorType::L16 | ColorType::La8 | ColorType::La16
    );
    Ok(match (grey, decoded.color().has_alpha()) {
        (true, false) => DynamicImage::ImageLuma8(decoded.into_luma8()),
        (false, false) => DynamicImage::ImageRgb8(decoded.into_rgb8()),
        (true, true) => {
            let la = decoded.into_luma_alpha8();
            DynamicImage::ImageLuma8(image::GrayImage::from_fn(la.width(), la.height(), |x, y| {
                let [l, a] = la.get_pixel(x, y).0;
                image::Luma([over_black(l, a)])
            }))
        }
        (false, true) => {
            let rgba = decoded.into_rgba8();
            DynamicImage::ImageRgb8(image::RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
                let [r, g, b, a] = rgba.get_pixel(x, y).0;
                image::Rgb([over_black(r, a), over_black(g, a), over_black(b, a)])
            }))
        }
    })
}

/// Downscale with an area average (a box filter over each output pixel's footprint), using
/// fast_image_resize's SIMD convolution. `flat` is grey or RGB (see [`decode_flat`]).
fn downscale(flat: &DynamicImage, width: u32, height: u32) -> DynamicImage {
    use fast_image_resize::images::{Image, ImageRef};
    use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer};
    let (pixel_type, raw) = match flat {
        DynamicImage::ImageLuma8(img) => (PixelType::U8, img.as_raw()),
        DynamicImage::ImageRgb8(img) => (PixelType::U8x3, img.as_raw()),
        other => return other.thumbnail_exact(width, height),
    };
    let resized = ImageRef::new(flat.width(), flat.height(), raw, pixel_type)
        .ok()
        .and_then(|src| {
            let mut dst = Image::new(width, height, pixel_type);
            let options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Box));
            Resizer::new().resize(&src, &mut dst, &options).ok()?;
            Some(dst.into_vec())
        });
    let rebuilt = resized.and_then(|buf| match pixel_type {
        PixelType::U8 => image::GrayImage::from_raw(width, height, buf).map(DynamicImage::ImageLuma8),
        _ => image::RgbImage::from_raw(width, height, buf).map(DynamicImage::ImageRgb8),
    });
    rebuilt.unwrap_or_else(|| flat.thumbnail_exact(width, height))
}

/// A channel value composited onto black.
fn over_black(value: u8, alpha: u8) -> u8 {
    ((u16::from(value) * u16::from(alpha) + 127) / 255) as u8
}

/// Encode as baseline JPEG at a quality, with jpeg-encoder's SIMD encoder for grey and RGB
/// images (what [`decode_flat`] gives), the `image` encoder otherwise.
pub(super) fn encode_jpeg(img: &DynamicImage, quality: u8) -> ImageResult<Vec<u8>> {
    let simd = match img {
        DynamicImage::ImageLuma8(i) => Some((i.as_raw(), jpeg_encoder::ColorType::Luma)),
        DynamicImage::ImageRgb8(i) => Some((i.as_raw(), jpeg_encoder::ColorType::Rgb)),
        _ => None,
    };
    let size = (u16::try_from(img.width()), u16::try_from(img.height()));
    let mut out = Vec::new();
    if let (Some((data, color)), (Ok(w), Ok(h))) = (simd, size)
        && jpeg_encoder::Encoder::new(&mut out, quality)
            .encode(data, w, h, color)
            .is_ok()
    {
        return Ok(out);
    }
    out.clear();
    img.write_with_encoder(JpegEncoder::new_with_quality(&mut out, quality))?;
    Ok(out)
}

/// The side × quality search: the first JPEG within `max_bytes` wins; otherwise the
/// error names the smallest size reached. An image whose header cannot be read cannot be
/// decoded either, so the search needs the probe (upstream's "side = max when the size is
/// unknown" case always ends in a decode error here).
pub(super) fn reduce(
    bytes: &[u8],
    probe: Result<Probe, String>,
    limits: ImageLimits,
) -> Result<(Vec<u8>, Reencoded), String> {
    let probe = probe?;
    let (width, height) = probe.displayed();
    let start = limits.max_dimension_px.min(width.max(height));
    let flat = decode_flat(bytes, &probe)?;
    let mut smallest: Option<usize> = None;
    let mut tried: Option<(u32, u32)> = None;
    for side in side_grid(limits.max_dimension_px, start) {
        let (w, h) = fit_inside(width, height, side);
        if tried == Some((w, h)) {
            // The same size at the same qualities gives the same bytes: already too big.
            continue;
        }
        tried = Some((w, h));
        let mut resized = if (w, h) == (width, height) {
            flat.clone()
        } else if probe.swaps_axes() {
            downscale(&flat, h, w)
        } else {
            downscale(&flat, w, h)
        };
        resized.apply_orientation(probe.orientation);
        for quality in QUALITY_STEPS {
            let jpeg = encode_jpeg(&resized, quality).map_err(|e| format!("Error: {e}"))?;
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
    let best = smallest.unwrap_or(bytes.len());
    Err(format!(
        "Error: Image could not be reduced below {}MB (got {}MB)",
        mib_fixed(limits.max_bytes, 0),
        mib_fixed(best, 2)
    ))
}
