//! Expanding a glob pattern (`*`, `?`, `[…]`, `**`) without the `glob` crate's walk, which
//! follows a symlink loop until the path is too long (one self-link made one session 41
//! matches; two made gigabytes): every folder is entered once, by device and inode, and the
//! matches are capped.

use std::collections::HashSet;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use walkdir::WalkDir;

/// The most files a pattern or a scan's arguments may name (`scan --max-files`): far above
/// real fleets (100,000 sessions are measured in the README), low enough that a runaway list
/// is refused in one sentence instead of filling memory.
pub const MAX_FILES: usize = 1_000_000;

/// Why a pattern was not expanded.
#[derive(Debug, thiserror::Error)]
pub enum GlobError {
    /// Not a valid pattern.
    #[error("`{pattern}` is not a valid pattern: {reason}")]
    Invalid {
        /// The pattern, escaped for one line.
        pattern: String,
        /// Why.
        reason: String,
    },
    /// More matches than the cap.
    #[error("`{pattern}` matches more than {} files; narrow it, or raise --max-files", crate::text::thousands(*max as u64))]
    TooMany {
        /// The pattern, escaped for one line.
        pattern: String,
        /// The cap.
        max: usize,
    },
}

/// Whether `path` is a glob pattern rather than a path.
pub fn is_pattern(path: &Path) -> bool {
    path.to_str().is_some_and(|p| p.contains(['*', '?', '[']))
}

/// The files and folders `pattern` matches, sorted: folders (symlinked ones too) are entered
/// at most once each, judged by device and inode, so a symlink loop is walked once; more than
/// `max` matches is an error. `*` and `?` never match `/`; `**` matches any number of folders.
pub fn expand(pattern: &str, max: usize) -> Result<Vec<PathBuf>, GlobError> {
    let shown = || crate::text::escape_controls_single_line(pattern).into_owned();
    let options = glob::MatchOptions {
        require_literal_separator: true,
        ..glob::MatchOptions::new()
    };
    let matcher = glob::Pattern::new(pattern).map_err(|e| GlobError::Invalid {
        pattern: shown(),
        reason: e.to_string(),
    })?;
    // The folder the walk starts from: the pattern's components before the first wildcard.
    let mut base = PathBuf::new();
    let mut rest = Vec::new();
    for c in Path::new(pattern).components() {
        let wild = matches!(c, Component::Normal(n) if is_pattern(Path::new(n)));
        if rest.is_empty() && !wild {
            base.push(c);
        } else {
            rest.push(c);
        }
    }
    if rest.is_empty() {
        return Ok(if base.exists() { vec![base] } else { Vec::new() });
    }
    let depth = if rest.iter().any(|c| c.as_os_str() == "**") {
        usize::MAX
    } else {
        rest.len()
    };
    let start = if base.as_os_str().is_empty() {
        Path::new(".")
    } else {
        base.as_path()
    };
    let mut entered: HashSet<(u64, u64)> = HashSet::new();
    if let Ok(m) = std::fs::metadata(start) {
        entered.insert((m.dev(), m.ino()));
    }
    let walk = WalkDir::new(start)
        .min_depth(1)
        .max_depth(depth)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            // A folder reached a second time (a loop, or two links to one folder) is not
            // entered again; walkdir's own loop check then never fires.
            !e.file_type().is_dir() || e.metadata().is_ok_and(|m| entered.insert((m.dev(), m.ino())))
        });
    let mut found = Vec::new();
    for entry in walk.filter_map(Result::ok) {
        let path = if base.as_os_str().is_empty() {
            entry.path().strip_prefix(".").unwrap_or(entry.path()).to_owned()
        } else {
            entry.into_path()
        };
        if matcher.matches_path_with(&path, options) {
            if found.len() == max {
                return Err(GlobError::TooMany { pattern: shown(), max });
            }
            found.push(path);
        }
    }
    found.sort();
    Ok(found)
}

/// `paths` with each file named once: a later path naming the same file as an earlier one
/// (by device and inode, through links) is left out. Other paths (missing, a FIFO, a device)
/// stay once each by name, so that loading them reports why.
pub fn one_per_file(paths: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut seen: HashSet<(u64, u64)> = HashSet::new();
    let mut seen_paths: HashSet<PathBuf> = HashSet::new();
    paths
        .into_iter()
        .filter(|p| match std::fs::metadata(p) {
            Ok(m) if m.is_file() => seen.insert((m.dev(), m.ino())),
            _ => seen_paths.insert(p.clone()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::symlink;

    use super::*;

    #[test]
    fn a_symlink_loop_is_walked_once_and_each_session_named_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("p/q")).unwrap();
        fs::write(root.join("p/s.jsonl"), "{}\n").unwrap();
        fs::write(root.join("p/q/t.jsonl"), "{}\n").unwrap();
        // Two self-links and a link back to the root: the `glob` crate walks them until the
        // path is too long.
        symlink(".", root.join("p/self")).unwrap();
        symlink("..", root.join("p/q/up")).unwrap();
        symlink(root, root.join("p/q/root")).unwrap();
        let pattern = format!("{}/**/*.jsonl", root.display());
        let found = expand(&pattern, MAX_FILES).unwrap();
        let names: Vec<_> = found
            .iter()
            .map(|p| p.strip_prefix(root).unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["p/q/t.jsonl", "p/s.jsonl"]);
        // Without `**` the walk stops at the pattern's depth.
        let one = expand(&format!("{}/p/*.jsonl", root.display()), MAX_FILES).unwrap();
        assert_eq!(one, [root.join("p/s.jsonl")]);
    }

    #[test]
    fn matches_past_the_cap_are_refused_in_one_sentence() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..5 {
            fs::write(dir.path().join(format!("s{i}.jsonl")), "{}\n").unwrap();
        }
        let pattern = format!("{}/*.jsonl", dir.path().display());
        assert_eq!(expand(&pattern, 5).unwrap().len(), 5);
        let err = expand(&pattern, 4).unwrap_err().to_string();
        assert!(
            err.ends_with("matches more than 4 files; narrow it, or raise --max-files"),
            "{err}"
        );
    }

    #[test]
    fn one_file_given_twice_or_through_a_link_is_kept_once() {
        let dir = tempfile::tempdir().unwrap();
        let s = dir.path().join("s.jsonl");
        fs::write(&s, "{}\n").unwrap();
        symlink(&s, dir.path().join("alias.jsonl")).unwrap();
        let missing = dir.path().join("missing.jsonl");
        let kept = one_per_file(vec![
            s.clone(),
            dir.path().join("alias.jsonl"),
            missing.clone(),
            s.clone(),
            missing.clone(),
        ]);
        assert_eq!(kept, [s, missing]);
    }
}
