//! Tests of the header reader against rastermill's rules.

use super::*;

#[test]
fn png_gif_bmp_and_webp_sizes_come_from_fixed_offsets() {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend_from_slice(&[0, 0, 5, 0, 0, 0, 0, 7]);
    let p = probe(&png).unwrap();
    assert_eq!((p.width, p.height, p.format), (1280, 7, HeaderFormat::Png));
    png[19] = 0;
    png[18] = 0;
    assert_eq!(probe(&png), None, "a zero width has no size");
    let gif = b"GIF89a\x10\0\x08\0".to_vec();
    assert_eq!(probe(&gif).map(|p| (p.width, p.height)), Some((16, 8)));
    let mut bmp = b"BM".to_vec();
    bmp.extend_from_slice(&[0; 12]);
    bmp.extend_from_slice(&40u32.to_le_bytes());
    bmp.extend_from_slice(&(-3i32).to_le_bytes());
    bmp.extend_from_slice(&4i32.to_le_bytes());
    assert_eq!(probe(&bmp), None, "a negative width has no size");
    bmp[18..22].copy_from_slice(&3i32.to_le_bytes());
    bmp[22..26].copy_from_slice(&(-4i32).to_le_bytes());
    assert_eq!(probe(&bmp).map(|p| (p.width, p.height)), Some((3, 4)), "top-down rows");
}

#[test]
fn jpeg_size_comes_from_the_first_start_of_frame_and_orientation_from_exif() {
    let mut jpeg = vec![0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x14, 0x05, 0x14];
    jpeg.extend_from_slice(&[3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9]);
    let p = probe(&jpeg).unwrap();
    assert_eq!(
        (p.width, p.height, p.format, p.orientation),
        (1300, 20, HeaderFormat::Jpeg, None)
    );
    assert_eq!(probe(&jpeg[..8]), None, "a cut segment has no size");
}

#[test]
fn heif_needs_an_image_brand_and_an_ispe() {
    let boxed = |kind: &[u8; 4], data: &[u8]| {
        let mut out = ((data.len() + 8) as u32).to_be_bytes().to_vec();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        out
    };
    let mut ispe = vec![0, 0, 0, 0];
    ispe.extend_from_slice(&64u32.to_be_bytes());
    ispe.extend_from_slice(&48u32.to_be_bytes());
    let meta = boxed(
        b"meta",
        &[
            &[0u8, 0, 0, 0][..],
            &boxed(b"iprp", &boxed(b"ipco", &boxed(b"ispe", &ispe))),
        ]
        .concat(),
    );
    for (brand, format) in [(b"heic", HeaderFormat::Heif), (b"avif", HeaderFormat::Avif)] {
        let mut file = boxed(b"ftyp", &[&brand[..], &[0; 4], b"mif1"].concat());
        file.extend_from_slice(&meta);
        let p = probe(&file).unwrap();
        assert_eq!((p.width, p.height, p.format), (64, 48, format));
        assert!(!photon_decodable(&file));
    }
    let mut mp4 = boxed(b"ftyp", b"isom\0\0\0\0mp41");
    mp4.extend_from_slice(&meta);
    assert_eq!(probe(&mp4), None, "not an image brand");
}

#[test]
fn tiff_with_sub_ifds_has_no_size() {
    let mut tiff = b"II*\0\x08\0\0\0\x02\0".to_vec();
    for (tag, value) in [(256u16, 8u16), (257, 6)] {
        tiff.extend_from_slice(&tag.to_le_bytes());
        tiff.extend_from_slice(&3u16.to_le_bytes());
        tiff.extend_from_slice(&1u32.to_le_bytes());
        tiff.extend_from_slice(&u32::from(value).to_le_bytes());
    }
    tiff.extend_from_slice(&[0; 4]);
    assert_eq!(
        probe(&tiff).map(|p| (p.width, p.height, p.format)),
        Some((8, 6, HeaderFormat::Tiff))
    );
    tiff[10..12].copy_from_slice(&330u16.to_le_bytes());
    assert_eq!(probe(&tiff), None);
}

#[test]
fn rastermill_0_3_1_sizes_heif_by_the_largest_ispe_without_orientation() {
    let boxed = |kind: &[u8; 4], data: &[u8]| {
        let mut out = ((data.len() + 8) as u32).to_be_bytes().to_vec();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        out
    };
    let ispe = |w: u32, h: u32| boxed(b"ispe", &[&[0u8; 4][..], &w.to_be_bytes(), &h.to_be_bytes()].concat());
    // Item 1 (primary): 64×48 turned by `irot` 1; item 2: a 4000×3000 tile.
    let ipco = boxed(
        b"ipco",
        &[ispe(64, 48), boxed(b"irot", &[1]), ispe(4000, 3000)].concat(),
    );
    let ipma = boxed(b"ipma", &[0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 2, 1, 2, 0, 2, 1, 3]);
    let pitm = boxed(b"pitm", &[0, 0, 0, 0, 0, 1]);
    let meta = boxed(
        b"meta",
        &[&[0u8; 4][..], &pitm, &boxed(b"iprp", &[ipco, ipma].concat())].concat(),
    );
    let mut file = boxed(b"ftyp", b"heic\0\0\0\0mif1heic");
    file.extend_from_slice(&meta);
    let newest = probe(&file).unwrap();
    assert_eq!((newest.width, newest.height, newest.orientation), (64, 48, Some(8)));
    let old = probe_with(&file, false).unwrap();
    assert_eq!((old.width, old.height, old.orientation), (4000, 3000, None));
    assert_eq!(orientation_with(&file, false), None);
}
