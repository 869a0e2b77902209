//! `scan`'s text table fits the terminal (issue 47 point 5): at 80 columns no line is longer
//! than 80 (display width), every file's path is there whole (broken only after a `/`), each
//! session's own target is named, and a file with skipped lines shows them in LOAD.

mod common;

use std::path::Path;
use std::process::Command;

use replaylens::model::json::Value;
use replaylens::text::display_width;

fn scan(dir: &Path, columns: &str, extra: &[&str]) -> String {
    let out = Command::new(common::bin())
        .arg("scan")
        .arg(dir)
        .args(extra)
        .env("COLUMNS", columns)
        .env("NO_COLOR", "1")
        .output()
        .expect("run replaylens");
    String::from_utf8(out.stdout).unwrap()
}

/// The paths `scan --format json` lists, and each row's load problems.
fn rows(dir: &Path) -> Vec<(String, u64)> {
    let out = Command::new(common::bin())
        .args(["scan", "--format", "json"])
        .arg(dir)
        .output()
        .expect("run replaylens");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let n = r["skipped"].as_u64().unwrap_or(0) + r["warnings"].as_u64().unwrap_or(0);
            (r["path"].as_str().unwrap().to_owned(), n)
        })
        .collect()
}

/// The text with every line's leading spaces removed, joined: a path broken after a `/`
/// reads whole again.
fn joined(text: &str) -> String {
    text.lines().map(str::trim_start).collect()
}

fn check(dir: &Path, extra: &[&str]) {
    let text = scan(dir, "80", extra);
    for line in text.lines() {
        assert!(display_width(line) <= 80, "{} columns: {line}", display_width(line));
        assert!(!line.contains('…') || !line.contains('/'), "a cut path: {line}");
    }
    let all = joined(&text);
    let rows = rows(dir);
    assert!(!rows.is_empty());
    for (path, _) in &rows {
        assert!(all.contains(path.as_str()), "{path} is not whole in:\n{text}");
    }
}

#[test]
fn the_shared_samples_fit_80_columns_with_every_path_whole() {
    let Some(dir) = common::shared_samples() else { return };
    check(&dir, &[]);
    check(
        &dir,
        &[
            "--target",
            "mistral",
            "--target",
            "google/google-generative-ai/gemini-2.5-pro",
        ],
    );
}

#[test]
fn rows_name_their_target_and_count_load_problems() {
    let Some(dir) = common::shared_samples() else { return };
    let text = scan(&dir, "80", &[]);
    assert!(text.contains("  T1 = anthropic/anthropic-messages/"), "{text}");
    let header = text.lines().nth(1).unwrap();
    assert!(header.contains("LOAD"), "{header}");
    let problems = rows(&dir).iter().filter(|(_, n)| *n > 0).count();
    assert!(problems > 0, "the shared samples hold files with skipped lines");
    // A row's LOAD sits under the header's LOAD.
    let end = header.chars().count() - header.split_once("LOAD").unwrap().1.chars().count();
    let flagged = text
        .lines()
        .filter(|l| !l.starts_with(' ') && l.contains('→'))
        .filter(|l| {
            let load: String = l.chars().take(end).skip(end - 4).collect();
            load.trim().parse::<u64>().is_ok_and(|n| n > 0)
        })
        .count();
    assert!(flagged > 0, "{text}");
    assert!(text.contains(&format!("{problems} with load problems")), "{text}");
}
