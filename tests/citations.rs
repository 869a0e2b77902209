//! Comments and references cite what a reader can open: OpenClaw's code by file or function
//! name, its published documentation, a provider's API documentation, or `docs/` of this
//! repository. A section sign followed by a number (a section of some document that is not in
//! the checkout) fails this test, naming the file and line.

use std::path::{Path, PathBuf};

/// The folders and files searched, relative to the repository root.
const SEARCHED: &[&str] = &["src", "tests", "benches", "examples", "docs", "README.md"];

fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else { return };
    for entry in entries.flatten() {
        files(&entry.path(), out);
    }
}

/// The 1-based numbers of the lines of `text` holding a section sign followed by a digit.
fn section_citations(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| {
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                if c == '\u{a7}' && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                    return true;
                }
            }
            false
        })
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn no_file_cites_a_section_number() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    for name in SEARCHED {
        files(&root.join(name), &mut all);
    }
    assert!(all.len() > 100, "only {} files found under {SEARCHED:?}", all.len());
    let mut found = Vec::new();
    for path in &all {
        // Binary files (screenshots, compressed samples) are not text and cite nothing.
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        for line in section_citations(&text) {
            found.push(format!("{}:{line}", path.strip_prefix(root).unwrap_or(path).display()));
        }
    }
    assert!(
        found.is_empty(),
        "cite OpenClaw's code or documentation by name, a provider's API documentation, or docs/ of this \
         repository, not a section number of a document outside the checkout:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_a_section_number() {
    assert_eq!(
        section_citations("fine\n// see notes \u{a7}2.6\n\u{a7} alone\n\u{a7}x"),
        vec![2]
    );
    assert_eq!(section_citations("(README \u{a7}3.1)"), vec![1]);
    assert!(section_citations("no citation here").is_empty());
}
