//! Each distinct image is decoded once per process: one `releases` run (every rule set of the
//! release matrix) and an export's release line on a session with a dozen screenshots, some
//! sent more than once, decode each distinct one exactly once.
//!
//! One test in its own binary: the count is the process's (`Store::global().decodes()`).

use std::io::{Cursor, Write};

use image::{DynamicImage, ImageFormat, Rgb, RgbImage};
use replaylens::hygiene::ReplayOptions;
use replaylens::load::{LoadOptions, load_path};
use replaylens::openclaw::image::cache::Store;
use replaylens::policy::Target;
use replaylens::rule_set::RULE_SETS;
use replaylens::scan::releases::matrix;

/// A UI-like screenshot over the 1200 px limit, different for each `seed`.
fn screenshot(seed: u32) -> String {
    let img = RgbImage::from_fn(1250 + seed * 4, 120, |x, y| {
        let band = ((x / 40 + y / 30 + seed) % 5) as u8;
        Rgb([30 + band * 40, 200 - band * 30, ((x ^ y) % 64) as u8 + band])
    });
    let mut out = Cursor::new(Vec::new());
    DynamicImage::ImageRgb8(img)
        .write_to(&mut out, ImageFormat::Png)
        .unwrap();
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(out.into_inner())
}

#[test]
fn each_distinct_image_is_decoded_once_across_all_rule_sets_and_the_export_line() {
    const DISTINCT: u32 = 12;
    let shots: Vec<String> = (0..DISTINCT).map(screenshot).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("screenshots.jsonl");
    let mut f = std::fs::File::create(&path).unwrap();
    writeln!(
        f,
        r#"{{"type":"session","version":3,"id":"shots","timestamp":"2026-03-14T09:30:00.000Z","cwd":"/tmp"}}"#
    )
    .unwrap();
    let mut parent = "null".to_owned();
    // 18 screenshots: the twelve, then six of them again.
    for (i, shot) in shots.iter().chain(&shots[..6]).enumerate() {
        let user = format!(
            r#"{{"type":"message","id":"u{i}","parentId":{parent},"timestamp":"2026-03-14T09:30:{:02}.000Z","message":{{"role":"user","content":[{{"type":"text","text":"look"}},{{"type":"image","data":"{shot}","mimeType":"image/png"}}]}}}}"#,
            i % 60
        );
        writeln!(f, "{user}").unwrap();
        let reply = format!(
            r#"{{"type":"message","id":"a{i}","parentId":"u{i}","timestamp":"2026-03-14T09:30:{:02}.500Z","message":{{"role":"assistant","content":[{{"type":"text","text":"seen"}}],"provider":"anthropic","model":"claude-sonnet-4-5","api":"anthropic-messages","stopReason":"stop"}}}}"#,
            i % 60
        );
        writeln!(f, "{reply}").unwrap();
        parent = format!(r#""a{i}""#);
    }
    drop(f);

    let session = load_path(&path, &LoadOptions::default()).unwrap();
    let target = Target::new(Some("anthropic"), Some("anthropic-messages"), Some("claude-sonnet-4-5"));
    let store = Store::global();
    assert_eq!(store.decodes(), 0);

    let m = matrix(&session, &target, &ReplayOptions::default());
    assert_eq!(m.rows.len(), RULE_SETS.len());
    assert!(RULE_SETS.len() > 1);
    for row in &m.rows {
        assert_eq!(
            row.scan.rewrites_by_rule.get("image-sanitize"),
            Some(&18),
            "every screenshot is re-encoded under {}",
            row.rule_set
        );
    }
    assert_eq!(
        store.decodes(),
        DISTINCT as usize,
        "each distinct screenshot decoded once across {} rule sets",
        RULE_SETS.len()
    );

    // An export's release line and another `releases` run in the same process decode nothing.
    matrix(&session, &target, &ReplayOptions::default());
    assert_eq!(store.decodes(), DISTINCT as usize);

    // Another longest side is other work: each distinct screenshot once more.
    let smaller = ReplayOptions {
        image_max_px: 800,
        ..ReplayOptions::default()
    };
    matrix(&session, &target, &smaller);
    assert_eq!(store.decodes(), 2 * DISTINCT as usize);
}
