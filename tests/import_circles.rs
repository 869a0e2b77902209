//! No import circles across folders. `tests/layers.rs` holds the order of the library's top-level
//! modules; this test looks one level finer, at files: every `use` and every `crate::`,
//! `super::`, `self::` and `replaylens::` path of a file's code (test code left out, as in
//! `layers.rs`) is resolved to the file that defines the module it names, and the strongly
//! connected parts of that graph are computed. A part whose files sit in more than one top-level
//! folder is a circle between folders (as `export` ↔ `reduce` and `args` ↔ `cli` were); the test
//! fails naming the files and one import of each edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod common;

use common::source::{code_lines, rust_files as files};

/// The binary's modules (declared in `main.rs`); every other module belongs to the library.
const BINARY: &[&str] = &["main", "args", "cli", "tui"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn is_test_file(rel: &Path) -> bool {
    let name = rel.file_stem().unwrap().to_string_lossy();
    name == "tests"
        || name.ends_with("_tests")
        || name == "test_support"
        || name.ends_with("_test_support")
        || name == "fixtures"
        || rel.components().any(|c| c.as_os_str() == "tests")
}

/// The code of `text` without comments and inline `#[cfg(test)] mod … { … }` blocks.
fn code(text: &str) -> String {
    code_lines(text).into_iter().fold(String::new(), |mut out, (_, line)| {
        out.push_str(line);
        out.push('\n');
        out
    })
}

/// The module path of a file under `src/`: `["export", "view"]` for `export/view.rs`,
/// `["export"]` for `export/mod.rs`, `[]` for `lib.rs` and `main.rs`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.strip_suffix(".rs").unwrap().to_owned();
    if stem != "mod" && stem != "lib" && stem != "main" {
        parts.push(stem);
    }
    parts
}

/// The file defining module `path` (relative to `src/`), or the deepest ancestor that exists.
fn file_of(path: &[String]) -> Option<PathBuf> {
    let root = src();
    let mut found = None;
    let mut dir = root.clone();
    for seg in path {
        let flat = dir.join(format!("{seg}.rs"));
        let nested = dir.join(seg).join("mod.rs");
        if flat.is_file() {
            found = Some(flat.strip_prefix(&root).unwrap().to_path_buf());
        } else if nested.is_file() {
            found = Some(nested.strip_prefix(&root).unwrap().to_path_buf());
        } else {
            break;
        }
        dir = dir.join(seg);
    }
    found
}

/// Expands one `use` tree (`crate::{a::{b, c}, d}`) into its paths.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.to_owned()];
    };
    let prefix = &tree[..open];
    let mut parts = Vec::new();
    let (mut depth, mut start, mut closed) = (0, open + 1, false);
    for (i, c) in tree.char_indices().skip_while(|(i, _)| *i <= open) {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                parts.push(&tree[start..i]);
                closed = true;
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&tree[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !closed {
        return vec![tree.to_owned()];
    }
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| expand(p).into_iter().map(move |e| format!("{prefix}{e}")))
        .collect()
}

/// Every path the code names: the expanded `use` trees and the inline `crate::`/`super::`/
/// `self::`/`replaylens::` paths.
fn paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before_ok = at == 0 || !rest.as_bytes()[at - 1].is_ascii_alphanumeric();
        let after = &rest[at + 4..];
        let end = after.find(';').unwrap_or(after.len());
        if before_ok {
            out.extend(expand(&after[..end]).into_iter().map(|p| {
                let p = p.split(" as ").next().unwrap_or_default();
                p.replace(char::is_whitespace, "")
            }));
        }
        rest = &after[end.min(after.len())..];
    }
    for root in ["crate::", "super::", "self::", "replaylens::"] {
        for (at, _) in code.match_indices(root) {
            if at > 0 {
                let b = code.as_bytes()[at - 1];
                if b.is_ascii_alphanumeric() || b == b'_' || b == b':' {
                    continue;
                }
            }
            let path: String = code[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            if !path.ends_with("::") {
                out.push(path);
            }
        }
    }
    out
}

/// The file a path names from `module` (in the library or the binary), if it is a crate file.
fn resolve(path: &str, module: &[String], in_binary: bool) -> Option<PathBuf> {
    let mut segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Vec<String> = match segs.first().copied() {
        Some("crate") => {
            segs.remove(0);
            Vec::new()
        }
        Some("replaylens") if in_binary => {
            segs.remove(0);
            Vec::new()
        }
        Some("self") => {
            segs.remove(0);
            module.to_vec()
        }
        Some("super") => {
            let mut m = module.to_vec();
            while segs.first() == Some(&"super") {
                segs.remove(0);
                m.pop();
            }
            m
        }
        Some(first) if !first.is_empty() => {
            // A bare path names a child module of this one (`use app::App` in `tui/mod.rs`).
            let mut child = module.to_vec();
            child.push(first.to_owned());
            file_of(&child).filter(|f| module_of(f) == child)?;
            module.to_vec()
        }
        _ => return None,
    };
    if base.is_empty() {
        let top = segs.first()?;
        if BINARY.contains(top) != in_binary && !(in_binary && path.starts_with("replaylens::")) {
            return None;
        }
    }
    base.extend(segs.iter().map(|s| (*s).to_owned()));
    file_of(&base)
}

/// The import graph: file → (imported file → the first line naming it).
fn graph() -> BTreeMap<PathBuf, BTreeMap<PathBuf, String>> {
    let root = src();
    let mut all = Vec::new();
    files(&root, &mut all);
    all.sort();
    let mut graph = BTreeMap::new();
    for path in all {
        let rel = path.strip_prefix(&root).unwrap().to_path_buf();
        if is_test_file(&rel) {
            continue;
        }
        let top = rel.components().next().unwrap().as_os_str().to_string_lossy();
        let top = top.strip_suffix(".rs").unwrap_or(&top).to_owned();
        let in_binary = BINARY.contains(&top.as_str());
        let module = module_of(&rel);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut edges = BTreeMap::new();
        for p in paths(&code(&text)) {
            if let Some(to) = resolve(&p, &module, in_binary)
                && to != rel
                && !is_test_file(&to)
            {
                edges.entry(to).or_insert(p);
            }
        }
        graph.insert(rel, edges);
    }
    graph
}

/// Strongly connected parts with more than one file (Tarjan's algorithm, iterative).
fn circles(graph: &BTreeMap<PathBuf, BTreeMap<PathBuf, String>>) -> Vec<Vec<PathBuf>> {
    let nodes: Vec<&PathBuf> = graph.keys().collect();
    let index_of: BTreeMap<&PathBuf, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let adj: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| graph[*n].keys().filter_map(|t| index_of.get(t).copied()).collect())
        .collect();
    let n = nodes.len();
    let (mut index, mut low, mut on_stack) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0);
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut work = vec![(start, 0usize)];
        while let Some(&mut (v, ref mut child)) = work.last_mut() {
            if *child == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = adj[v].get(*child) {
                *child += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut part = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    part.push(nodes[w].clone());
                    if w == v {
                        break;
                    }
                }
                if part.len() > 1 {
                    part.sort();
                    out.push(part);
                }
            }
        }
    }
    out
}

fn describe(part: &[PathBuf], graph: &BTreeMap<PathBuf, BTreeMap<PathBuf, String>>) -> String {
    let members: BTreeSet<&PathBuf> = part.iter().collect();
    let mut lines = vec![format!("circle of {} files:", part.len())];
    for from in part {
        for (to, via) in &graph[from] {
            if members.contains(to) {
                lines.push(format!("  src/{} -> src/{}  ({via})", from.display(), to.display()));
            }
        }
    }
    lines.join("\n")
}

/// The top-level module a file belongs to (`export` for `export/html/mod.rs`, `args` for
/// `args.rs`): the folders whose circles this test forbids. A module's own subfolders may use
/// their parent's items (`super::Constraint`) while it re-exports theirs.
fn folder(path: &Path) -> String {
    let first = path.components().next().unwrap().as_os_str().to_string_lossy();
    first.strip_suffix(".rs").unwrap_or(&first).to_owned()
}

#[test]
fn no_import_circle_runs_between_folders() {
    let graph = graph();
    let bad: Vec<String> = circles(&graph)
        .into_iter()
        .filter(|part| part.iter().map(|p| folder(p)).collect::<BTreeSet<_>>().len() > 1)
        .map(|part| describe(&part, &graph))
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
}

#[test]
fn the_check_sees_a_circle() {
    let a = PathBuf::from("a/x.rs");
    let b = PathBuf::from("b/y.rs");
    let c = PathBuf::from("b/z.rs");
    let mut graph = BTreeMap::new();
    graph.insert(a.clone(), BTreeMap::from([(b.clone(), "crate::b::y".to_owned())]));
    graph.insert(b.clone(), BTreeMap::from([(c.clone(), "super::z".to_owned())]));
    graph.insert(c.clone(), BTreeMap::from([(a.clone(), "crate::a::x".to_owned())]));
    assert_eq!(circles(&graph), vec![vec![a, b, c]]);
    assert_eq!(
        expand("crate::{a::{b, c}, d as e}"),
        ["crate::a::b", "crate::a::c", "crate::d as e"]
    );
    assert_eq!(
        paths("use crate::{a::b as c, d};\nlet x = super::e::f(1);"),
        ["crate::a::b", "crate::d", "super::e::f"]
    );
}
