//! Diff marks between two lists of text lines, for views that compare rendered text rather
//! than JSON (the inspector's side-by-side rows): lines only one side has, and the changed
//! words inside a line replaced by another (via `similar`).

use std::ops::Range;

use similar::{ChangeTag, DiffTag, TextDiff};

/// Lines above which two sides are not compared (every mark stays empty).
pub const MAX_LINES: usize = 400;

/// What a line of one side shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineMark {
    /// Unchanged (or not compared).
    Same,
    /// The whole line is only on this side (removed on the old side, added on the new).
    Whole,
    /// The line replaced one of the other side; these byte ranges are the words that differ.
    Words(Vec<Range<usize>>),
}

/// The marks of both sides: one per line of `old` and one per line of `new`.
pub fn mark(old: &[String], new: &[String]) -> (Vec<LineMark>, Vec<LineMark>) {
    let mut left = vec![LineMark::Same; old.len()];
    let mut right = vec![LineMark::Same; new.len()];
    if old.len() > MAX_LINES || new.len() > MAX_LINES {
        return (left, right);
    }
    let a: String = old.iter().map(|l| format!("{l}\n")).collect();
    let b: String = new.iter().map(|l| format!("{l}\n")).collect();
    let diff = TextDiff::from_lines(&a, &b);
    for op in diff.ops() {
        match op.tag() {
            DiffTag::Equal => {}
            DiffTag::Delete => op.old_range().for_each(|i| left[i] = LineMark::Whole),
            DiffTag::Insert => op.new_range().for_each(|i| right[i] = LineMark::Whole),
            DiffTag::Replace => {
                for change in diff.iter_inline_changes(op) {
                    let (side, index) = match change.tag() {
                        ChangeTag::Delete => (&mut left, change.old_index()),
                        ChangeTag::Insert => (&mut right, change.new_index()),
                        ChangeTag::Equal => continue,
                    };
                    let Some(slot) = index.and_then(|i| side.get_mut(i)) else {
                        continue;
                    };
                    let mut at = 0;
                    let mut any_plain = false;
                    let mut ranges = Vec::new();
                    for (emph, value) in change.iter_strings_lossy() {
                        let value = value.trim_end_matches('\n');
                        if emph && !value.is_empty() {
                            ranges.push(at..at + value.len());
                        } else if !value.trim().is_empty() {
                            any_plain = true;
                        }
                        at += value.len();
                    }
                    *slot = if any_plain {
                        LineMark::Words(ranges)
                    } else {
                        LineMark::Whole
                    };
                }
            }
        }
    }
    (left, right)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn marks_removed_added_and_words() {
        let (left, right) = mark(
            &owned(&["same", "gone", "the quick brown fox"]),
            &owned(&["same", "the quick red fox", "new"]),
        );
        assert_eq!(left[0], LineMark::Same);
        assert_eq!(left[1], LineMark::Whole);
        assert_eq!(right[2], LineMark::Whole);
        let LineMark::Words(words) = &right[1] else {
            panic!("{:?}", right[1])
        };
        let emph: Vec<&str> = words.iter().map(|r| &"the quick red fox"[r.clone()]).collect();
        assert_eq!(emph, ["red"]);
    }

    #[test]
    fn too_many_lines_are_not_compared() {
        let many = vec!["x".to_owned(); MAX_LINES + 1];
        let (left, right) = mark(&many, &[]);
        assert!(left.iter().all(|m| *m == LineMark::Same) && right.is_empty());
    }
}
