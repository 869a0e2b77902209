//! Reading this crate's own sources, for the tests that check its structure (`layers.rs`,
//! `import_circles.rs`).

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, appended to `out`.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of `text` (numbered from 1) that are not comments and not in an inline
/// `#[cfg(test)] mod … { … }` block.
pub fn code_lines(text: &str) -> Vec<(usize, &str)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if line.starts_with("#[cfg(test)]")
            && lines[i + 1..]
                .iter()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| l.trim_start().starts_with("mod "))
        {
            // An inline test module: skip to its closing brace at the same indent.
            let indent = lines[i].len() - line.len();
            i += 1;
            while i < lines.len() && !lines[i].starts_with(&format!("{}}}", " ".repeat(indent))) {
                i += 1;
            }
            i += 1;
            continue;
        }
        if !line.starts_with("//") {
            out.push((i + 1, lines[i]));
        }
        i += 1;
    }
    out
}
