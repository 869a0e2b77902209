//! Tests of the image engine, one per rule of OpenClaw's `transcript-hygiene.md` › "Global rule: image
//! sanitization" and of `sanitizeContentBlocksImages`.

use image::{DynamicImage, GenericImageView, GrayImage, Luma, Rgba, RgbaImage};

use super::*;
use crate::openclaw::image::codec::encode_jpeg;
use crate::openclaw::image::fixtures::{bmp_header_only, ftyp, gradient, jpeg, jpeg_with_orientation, noise, png};

/// The pixels as Photon holds them (RGBA, `image` 0.24).
fn photon_pixels(img: &DynamicImage) -> photon_image::RgbaImage {
    let rgba = img.to_rgba8();
    photon_image::RgbaImage::from_raw(rgba.width(), rgba.height(), rgba.into_raw()).unwrap()
}

fn limits(px: u32, bytes: usize) -> ImageLimits {
    ImageLimits {
        max_dimension_px: px,
        max_bytes: bytes,
        release: ImageRelease::NEWEST,
    }
}

fn decode(image: &SanitizedImage<'_>) -> DynamicImage {
    let bytes = STANDARD.decode(image.data.as_bytes()).unwrap();
    image::load_from_memory(&bytes).unwrap()
}

#[test]
fn default_limits_are_1200_px_and_5_mib() {
    assert_eq!(ImageLimits::default(), limits(1200, 5 * 1024 * 1024));
    assert_eq!(ImageLimits::with_max_dimension(0).max_dimension_px, 1);
}

#[test]
fn canonical_base64_strips_whitespace_and_checks_shape() {
    assert_eq!(canonical_base64("QUJD"), Some(Cow::Borrowed("QUJD")));
    assert!(matches!(canonical_base64("QUJD"), Some(Cow::Borrowed(_))));
    assert_eq!(canonical_base64(" QU\nJD\t"), Some(Cow::Owned("QUJD".to_owned())));
    assert_eq!(
        canonical_base64("QU\u{1}JD"),
        Some(Cow::Owned("QUJD".to_owned())),
        "controls are blanks"
    );
    assert_eq!(canonical_base64("QUI="), Some(Cow::Borrowed("QUI=")));
    assert_eq!(canonical_base64("QQ=="), Some(Cow::Borrowed("QQ==")));
    assert_eq!(
        canonical_base64("QUI"),
        Some(Cow::Owned("QUI=".to_owned())),
        "padding is added"
    );
    assert_eq!(canonical_base64("QQ"), Some(Cow::Owned("QQ==".to_owned())));
    for bad in [
        "",
        "   ",
        "QUJ$",
        "Q===",
        "====",
        "QU=D",
        "QUJD-_AA",
        "QUJDQ",
        "QUJ=",
        "QR==",
        "QUI=\u{a0}",
    ] {
        assert_eq!(canonical_base64(bad), None, "{bad:?}");
    }
}

#[test]
fn mime_type_is_inferred_from_the_base64_prefix_only_for_jpeg_png_gif() {
    assert_eq!(infer_mime_type("/9j/4AAQ"), Some("image/jpeg"));
    assert_eq!(infer_mime_type("iVBORw0KGgo"), Some("image/png"));
    assert_eq!(infer_mime_type("R0lGODlh"), Some("image/gif"));
    assert_eq!(infer_mime_type("UklGRg=="), None, "WebP keeps its declared type");
}

#[test]
fn side_grid_is_capped_deduplicated_and_descending() {
    assert_eq!(side_grid(1200, 1200), [1200, 1000, 800]);
    assert_eq!(side_grid(2000, 2000), [2000, 1800, 1600, 1400, 1200, 1000, 800]);
    assert_eq!(side_grid(1200, 900), [1200, 1000, 900, 800]);
    assert_eq!(side_grid(500, 500), [500]);
}

#[test]
fn fit_inside_keeps_aspect_and_never_enlarges() {
    assert_eq!(fit_inside(2600, 400, 1200), (1200, 185));
    assert_eq!(fit_inside(400, 2600, 1200), (185, 1200));
    assert_eq!(fit_inside(1000, 800, 1200), (1000, 800));
    assert_eq!(fit_inside(5000, 1, 1200), (1200, 1));
}

#[test]
fn heif_without_a_size_has_no_header_and_is_refused() {
    let heic = to_base64(&ftyp(b"heic", &[b"mif1", b"heic"]));
    assert_eq!(
        sanitize_image(&heic, "image/heic", ImageLimits::default()),
        Err(ImageFailure::Unusable(UNDETERMINED_DIMENSIONS.into()))
    );
}

#[test]
fn byte_sizes_are_formatted_as_openclaw_formats_them() {
    assert_eq!(format_bytes_short(5 * 1024 * 1024), "5.00MB");
    assert_eq!(format_bytes_short(10 * 1024 * 1024), "10.00MB");
    assert_eq!(
        format_bytes_short(1024 * 1024 * 49 / 8),
        "6.13MB",
        "an exact tie rounds up"
    );
    assert_eq!(format_bytes_short(1024 * 1024 - 1), "1024.0KB");
    assert_eq!(format_bytes_short(1536), "1.5KB");
    assert_eq!(format_bytes_short(1000), "1000B");
    assert_eq!(mib_fixed(5 * 1024 * 1024, 0), "5");
    assert_eq!(mib_fixed(1024 * 1024 * 49 / 8, 2), "6.13", "an exact tie rounds up");
    assert_eq!(mib_fixed(1024 * 1024 * 3 / 2, 2), "1.50");
    assert_eq!(mib_fixed(1000, 0), "0");
    assert_eq!(human_bytes(512), "512 B");
    assert_eq!(human_bytes(3500), "3.4 KB");
    assert_eq!(human_bytes(140 * 1024), "140 KB");
    assert_eq!(human_bytes(1_900_000), "1.8 MB");
}

#[test]
fn placeholders_use_the_label() {
    assert_eq!(
        ImageFailure::Empty.placeholder("session:history"),
        "[session:history] omitted empty image payload"
    );
    assert_eq!(
        ImageFailure::InvalidBase64.placeholder("session:history"),
        "[session:history] omitted image payload: invalid base64"
    );
    assert_eq!(
        ImageFailure::Unusable(NO_BACKEND.into()).placeholder("x"),
        format!("[x] omitted image payload: {NO_BACKEND}")
    );
    assert_eq!(
        ImageFailure::InputTooLarge.placeholder("x"),
        "[x] omitted image payload: image exceeds input size limit (10.00MB)"
    );
    assert_eq!(
        ImageFailure::MissingFields.placeholder("x"),
        "[x] omitted image payload: missing data or mimeType"
    );
}

#[test]
fn image_within_limits_is_kept_borrowed_with_the_inferred_type() {
    let data = to_base64(&png(&DynamicImage::ImageRgb8(gradient(40, 30))));
    let out = sanitize_image(&data, "image/jpeg", ImageLimits::default()).unwrap();
    assert!(matches!(out.data, Cow::Borrowed(_)));
    assert_eq!(out.data, data);
    assert_eq!(out.mime_type, "image/png");
    assert_eq!(out.source_size, Some((40, 30)));
    assert_eq!(out.reencoded, None);
}

#[test]
fn empty_and_invalid_payloads_fail_before_decoding() {
    assert_eq!(
        sanitize_image(" \n", "image/png", ImageLimits::default()),
        Err(ImageFailure::Empty)
    );
    assert_eq!(
        sanitize_image("not base64!", "image/png", ImageLimits::default()),
        Err(ImageFailure::InvalidBase64)
    );
    let huge = "A".repeat(14_000_004);
    assert_eq!(
        sanitize_image(&huge, "image/png", ImageLimits::default()),
        Err(ImageFailure::InputTooLarge)
    );
}

#[test]
fn oversized_sides_are_reduced_to_a_jpeg() {
    let data = to_base64(&png(&DynamicImage::ImageRgb8(gradient(2600, 400))));
    let out = sanitize_image(&data, "image/png", ImageLimits::default()).unwrap();
    let re = out.reencoded.clone().unwrap();
    assert_eq!((re.width, re.height, re.quality, re.side), (1200, 185, 85, 1200));
    assert_eq!(out.mime_type, "image/jpeg");
    assert_eq!(out.source_mime_type, "image/png");
    assert_eq!(decode(&out).dimensions(), (1200, 185));
    assert_eq!(re.bytes, STANDARD.decode(out.data.as_bytes()).unwrap().len());
}

#[test]
fn over_the_byte_cap_within_sides_is_recompressed_at_the_same_size() {
    let png = png(&DynamicImage::ImageRgba8(noise(200, 200, 1)));
    let data = to_base64(&png);
    let cap = png.len() - 1;
    let out = sanitize_image(&data, "image/png", limits(1200, cap)).unwrap();
    let re = out.reencoded.unwrap();
    assert_eq!((re.width, re.height, re.side), (200, 200, 1200));
    assert!(re.bytes <= cap);
}

#[test]
fn quality_then_side_search_reports_the_smallest_result_when_nothing_fits() {
    let img = DynamicImage::ImageRgba8(noise(300, 200, 2));
    let data = to_base64(&png(&img));
    let err = sanitize_image(&data, "image/png", limits(1200, 1000)).unwrap_err();
    // Sides 1200, 1000 and 800 all give the 300×200 original; the smallest try is quality 35.
    let smallest = encode_jpeg(&photon_pixels(&img), 35).unwrap().len();
    assert_eq!(
        err,
        ImageFailure::Unusable(format!(
            "Error: Image could not be reduced below 1000B (got {})",
            format_bytes_short(smallest)
        ))
    );
}

#[test]
fn a_later_quality_wins_when_the_first_is_too_big() {
    let img = DynamicImage::ImageRgba8(noise(300, 200, 3));
    let data = to_base64(&png(&img));
    let q65 = encode_jpeg(&photon_pixels(&img), 65).unwrap().len();
    let out = sanitize_image(&data, "image/png", limits(1200, q65)).unwrap();
    assert_eq!(out.reencoded.unwrap().quality, 65);
}

#[test]
fn exif_orientation_is_applied_when_reencoding() {
    // Stored 1300×100, left half red; orientation 6 (rotate 90° clockwise) shows 100×1300
    // with the red half on top.
    let data = to_base64(&jpeg_with_orientation(1300, 100, 6));
    let out = sanitize_image(&data, "image/jpeg", ImageLimits::default()).unwrap();
    assert_eq!(out.source_size, Some((100, 1300)));
    assert_eq!(out.orientation, Some(6));
    let img = decode(&out).to_rgb8();
    assert_eq!(img.dimensions(), (92, 1200));
    let [r, _, b] = img.get_pixel(46, 100).0;
    assert!(r > 200 && b < 60, "top is red: {r} {b}");
    let [r, _, b] = img.get_pixel(46, 1100).0;
    assert!(r < 60 && b > 200, "bottom is blue: {r} {b}");
}

#[test]
fn exif_oriented_image_within_limits_is_kept_as_is() {
    let data = to_base64(&jpeg_with_orientation(100, 50, 8));
    let out = sanitize_image(&data, "image/jpeg", ImageLimits::default()).unwrap();
    assert_eq!(out.source_size, Some((50, 100)));
    assert_eq!(out.data, data);
    assert_eq!(out.reencoded, None);
}

#[test]
fn more_than_25_megapixels_is_refused_without_decoding() {
    let data = to_base64(&bmp_header_only(6000, 5000));
    assert_eq!(
        sanitize_image(&data, "image/bmp", ImageLimits::default()),
        Err(ImageFailure::Unusable(
            "RastermillError: Image dimensions exceed the 25,000,000 pixel input limit: 6000x5000 (30000000 pixels)"
                .into()
        ))
    );
}

#[test]
fn formats_photon_does_not_decode_have_no_backend_when_over_a_limit() {
    let data = to_base64(&bmp_header_only(1300, 10));
    assert_eq!(
        sanitize_image(&data, "image/bmp", ImageLimits::default()),
        Err(ImageFailure::Unusable(NO_BACKEND.into()))
    );
    let small = to_base64(&bmp_header_only(10, 10));
    assert!(sanitize_image(&small, "image/bmp", ImageLimits::default()).is_ok());
}

#[test]
fn undecodable_payloads_fail_with_a_reason() {
    // OpenClaw 2026.9.6's rastermill texts: no readable header, or over a limit and undecodable.
    let png = png(&DynamicImage::ImageRgb8(gradient(2600, 400)));
    let cut = |n: usize| sanitize_image(&to_base64(&png[..n]), "image/png", ImageLimits::default()).map(|_| ());
    assert_eq!(cut(12), Err(ImageFailure::Unusable(UNDETERMINED_DIMENSIONS.into())));
    assert_eq!(cut(png.len() / 2), Err(ImageFailure::Unusable(UNDECODABLE.into())));
}

#[test]
fn reencoding_goes_through_rgba_and_drops_alpha_as_photon_does() {
    let grey = DynamicImage::ImageLuma8(GrayImage::from_pixel(1300, 10, Luma([200])));
    let data = to_base64(&png(&grey));
    let out = sanitize_image(&data, "image/png", ImageLimits::default()).unwrap();
    assert_eq!(decode(&out).color(), image::ColorType::Rgb8);
    let clear = DynamicImage::ImageRgba8(RgbaImage::from_pixel(1300, 10, Rgba([255, 255, 255, 0])));
    let data = to_base64(&png(&clear));
    let out = sanitize_image(&data, "image/png", ImageLimits::default()).unwrap();
    let [r, g, b] = decode(&out).to_rgb8().get_pixel(600, 4).0;
    assert!(r > 247 && g > 247 && b > 247, "{r} {g} {b}");
}

#[test]
fn reencoding_is_deterministic() {
    let data = to_base64(&jpeg(&DynamicImage::ImageRgb8(gradient(1800, 1200)), 95));
    let a = sanitize_image(&data, "image/jpeg", ImageLimits::default()).unwrap();
    let b = sanitize_image(&data, "image/jpeg", ImageLimits::default()).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.reencoded.unwrap().width, 1200);
}

fn release(edit: impl FnOnce(&mut ImageRelease)) -> ImageLimits {
    let mut release = ImageRelease::NEWEST;
    edit(&mut release);
    ImageLimits::default().for_release(release)
}

#[test]
fn before_2026_6_11_no_input_estimate_refuses_a_large_payload() {
    let huge = "A".repeat(14_000_004);
    let old = release(|r| r.input_limit = false);
    assert_eq!(
        sanitize_image(&huge, "image/png", old),
        Err(ImageFailure::Unusable(UNDETERMINED_DIMENSIONS.to_owned()))
    );
}

#[test]
fn in_2026_6_base64_is_neither_padded_nor_checked_for_pad_bits() {
    let old = release(|r| r.base64_padding = false);
    let png = to_base64(&png(&DynamicImage::ImageRgb8(gradient(8, 8))));
    let unpadded = png.trim_end_matches('=');
    assert_ne!(unpadded, png, "the fixture needs padding");
    assert_eq!(
        sanitize_image(unpadded, "image/png", old),
        Err(ImageFailure::InvalidBase64)
    );
    assert!(sanitize_image(unpadded, "image/png", ImageLimits::default()).is_ok());
    // `QUJ=` has non-zero pad bits: refused later, decoded (to "AB", no image) in 2026.6.
    assert_eq!(
        sanitize_image("QUJ=", "image/png", old),
        Err(ImageFailure::Unusable(UNDETERMINED_DIMENSIONS.to_owned()))
    );
    assert_eq!(
        sanitize_image("QUJ=", "image/png", ImageLimits::default()),
        Err(ImageFailure::InvalidBase64)
    );
    let wrapped = format!(" {}\n{} ", &png[..8], &png[8..]);
    assert_eq!(sanitize_image(&wrapped, "image/png", old).unwrap().data, png);
}

#[test]
fn up_to_2026_9_1_the_reduce_error_gives_the_cap_in_whole_megabytes() {
    let img = DynamicImage::ImageRgba8(noise(300, 200, 2));
    let data = to_base64(&png(&img));
    let old = ImageLimits {
        max_bytes: 1000,
        ..release(|r| r.reduce_error_short_format = false)
    };
    let smallest = encode_jpeg(&photon_pixels(&img), 35).unwrap().len();
    assert_eq!(
        sanitize_image(&data, "image/png", old),
        Err(ImageFailure::Unusable(format!(
            "Error: Image could not be reduced below 0MB (got {}MB)",
            mib_fixed(smallest, 2)
        )))
    );
}
