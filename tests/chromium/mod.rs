//! Headless Chromium for the HTML tests: found on the PATH, or the test is skipped with a
//! message, unless `REPLAYLENS_REQUIRE_CHROMIUM=1` (CI) makes it mandatory.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The first of `chromium`, `chromium-browser`, `google-chrome` on the PATH.
pub fn find() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let out = Command::new("sh")
                .arg("-c")
                .arg(format!("command -v {name}"))
                .output()
                .ok()?;
            out.status
                .success()
                .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
        })
}

/// The browser, or `None` after saying the test is skipped; panics when it is missing and
/// `REPLAYLENS_REQUIRE_CHROMIUM=1`.
pub fn find_or_skip() -> Option<PathBuf> {
    let found = find();
    if found.is_none() {
        if std::env::var("REPLAYLENS_REQUIRE_CHROMIUM").as_deref() == Ok("1") {
            panic!("chromium is required (REPLAYLENS_REQUIRE_CHROMIUM=1) but was not found");
        }
        eprintln!("SKIPPED: chromium not installed (.ci/run installs it)");
    }
    found
}

/// The DOM of `file` after loading it headless at `width`×`height`, with a fresh profile
/// under `profile` and nothing fetched from the network.
pub fn dump_dom(browser: &Path, profile: &Path, file: &Path, (width, height): (u32, u32)) -> Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=2000",
        ])
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", file.display()))
        .output()
        .expect("run chromium")
}
