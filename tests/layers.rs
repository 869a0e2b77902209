//! The layers run one way. Each top-level module of the library sits in one layer (the order is
//! written once, here and in `docs/architecture.md`); a module may use its own layer and the
//! layers below it, never one above. Test code (`tests.rs`, `*_tests.rs`, `test_support.rs`,
//! an inline `#[cfg(test)] mod …`) is left out: tests may build inputs from anywhere. The
//! library also holds no terminal code: only the binary's `tui` and `cli` draw.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod common;

use common::source::{code_lines, rust_files as files};

/// The layers, lowest first; modules on one line share a layer.
const LAYERS: &[&[&str]] = &[
    &["model", "text", "write"],
    &["rule_set"],
    &["openclaw"],
    &["load"],
    &["policy"],
    &["hygiene"],
    &["replay"],
    &["wire"],
    &["lint"],
    &["repair"],
    &["alignment"],
    &["export", "scan", "reduce"],
];

/// The binary's own modules: above every library layer.
const BINARY: &[&str] = &["main", "args", "cli", "tui"];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The top-level module a file under `src/` belongs to: `load` for `load/jsonl.rs`.
fn top_module(rel: &Path) -> String {
    let first = rel.components().next().unwrap().as_os_str().to_string_lossy();
    first.strip_suffix(".rs").unwrap_or(&first).to_owned()
}

fn is_test_file(path: &Path) -> bool {
    let name = path.file_stem().unwrap().to_string_lossy();
    name == "tests"
        || name.ends_with("_tests")
        || name == "test_support"
        || name.ends_with("_test_support")
        || path.components().any(|c| c.as_os_str() == "tests")
}

/// Every `crate::<module>` a library file names, with where.
fn uses(root: &Path) -> Vec<(String, String, String)> {
    let mut all = Vec::new();
    files(root, &mut all);
    all.sort();
    let mut out = Vec::new();
    for path in all {
        let rel = path.strip_prefix(root).unwrap();
        let top = top_module(rel);
        if top == "lib" || BINARY.contains(&top.as_str()) || is_test_file(&path) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in code_lines(&text) {
            for part in line.split("crate::").skip(1) {
                let used: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if used != top && layer_of(&used).is_some() {
                    out.push((top.clone(), used, format!("src/{}:{n}", rel.display())));
                }
            }
        }
    }
    out
}

/// The back-imports under `root`: (from, to, where).
fn back_imports(root: &Path) -> Vec<(String, String, String)> {
    uses(root)
        .into_iter()
        .filter(|(from, to, _)| match (layer_of(from), layer_of(to)) {
            (Some(a), Some(b)) => b > a,
            _ => false,
        })
        .collect()
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn every_library_module_has_a_layer() {
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(src()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().replace(".rs", "");
        if name != "lib" && !BINARY.contains(&name.as_str()) && layer_of(&name).is_none() {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "modules without a layer in tests/layers.rs: {missing:?}"
    );
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let back = back_imports(&src());
    let mut by_pair: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for (from, to, at) in back {
        by_pair.entry((from, to)).or_default().push(at);
    }
    let report: Vec<String> = by_pair
        .iter()
        .map(|((from, to), at)| format!("{from} → {to} (a layer above): {}", at.join(", ")))
        .collect();
    assert!(report.is_empty(), "back-imports:\n{}", report.join("\n"));
}

#[test]
fn the_library_holds_no_terminal_code() {
    let mut all = Vec::new();
    files(&src(), &mut all);
    let mut found = Vec::new();
    for path in all {
        let rel = path.strip_prefix(src()).unwrap();
        let top = top_module(rel);
        if BINARY.contains(&top.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in code_lines(&text) {
            if line.contains("ratatui::") || line.contains("crossterm::") {
                found.push(format!("src/{}:{n}", rel.display()));
            }
        }
    }
    assert!(found.is_empty(), "terminal code in the library: {found:?}");
}

#[test]
fn the_check_sees_a_back_import() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("load")).unwrap();
    std::fs::write(
        dir.path().join("load/mod.rs"),
        "//! crate::export in a comment is fine\nuse crate::export::ExportFormat;\n#[cfg(test)]\nmod tests {\n    use crate::tui::App;\n}\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("load/tests.rs"), "use crate::export::X;\n").unwrap();
    let back = back_imports(dir.path());
    assert_eq!(back, [("load".into(), "export".into(), "src/load/mod.rs:2".into())]);
}

/// `src/hygiene/rules/` holds one file per rule and nothing else: no folder, and every file but
/// `mod.rs` implements `Rule` (a rule's steps, or the steps an older rule set ran in another
/// place, may be several impls of one file). Helpers the rules share live in
/// `src/hygiene/helpers/`.
#[test]
fn the_rules_folder_holds_only_rules() {
    let dir = src().join("hygiene/rules");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            path.is_file(),
            "{name}: a folder in src/hygiene/rules (one file per rule, nothing else)"
        );
        if name == "mod.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("impl Rule for "),
            "{name}: not a rule (helpers go to src/hygiene/helpers)"
        );
    }
}
