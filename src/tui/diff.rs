//! Diff marks between the two sides of a row: whole lines removed (left only) or added
//! (right only), and word-level changes inside replaced lines (via `similar`).

use similar::{ChangeTag, DiffTag, TextDiff};

use super::describe::DocLine;
use super::theme::Role;

/// Lines above which a row is not diffed word by word (marked as a whole instead).
const MAX_DIFF_LINES: usize = 400;

/// Mark `left` and `right` body lines in place.
pub fn mark(left: &mut [DocLine], right: &mut [DocLine]) {
    if left.len() > MAX_DIFF_LINES || right.len() > MAX_DIFF_LINES {
        return;
    }
    let old: String = left.iter().map(|l| l.text() + "\n").collect();
    let new: String = right.iter().map(|l| l.text() + "\n").collect();
    let diff = TextDiff::from_lines(&old, &new);
    for op in diff.ops() {
        match op.tag() {
            DiffTag::Equal => {}
            DiffTag::Delete => {
                for i in op.old_range() {
                    left[i].whole = Some(Role::Removed);
                }
            }
            DiffTag::Insert => {
                for i in op.new_range() {
                    right[i].whole = Some(Role::Added);
                }
            }
            DiffTag::Replace => {
                for change in diff.iter_inline_changes(op) {
                    let (line, index) = match change.tag() {
                        ChangeTag::Delete => (&mut *left, change.old_index()),
                        ChangeTag::Insert => (&mut *right, change.new_index()),
                        ChangeTag::Equal => continue,
                    };
                    let Some(line) = index.and_then(|i| line.get_mut(i)) else {
                        continue;
                    };
                    let mut at = 0;
                    let mut any_plain = false;
                    let mut ranges = Vec::new();
                    for (emph, value) in change.iter_strings_lossy() {
                        let value = value.trim_end_matches('\n');
                        if emph && !value.is_empty() {
                            ranges.push((at..at + value.len(), Role::Modified));
                        } else if !value.trim().is_empty() {
                            any_plain = true;
                        }
                        at += value.len();
                    }
                    if any_plain {
                        line.emph = ranges;
                    } else {
                        line.whole = Some(if change.tag() == ChangeTag::Delete {
                            Role::Removed
                        } else {
                            Role::Added
                        });
                    }
                }
            }
        }
    }
}

/// Mark every line with one role (a dropped or inserted message).
pub fn mark_all(lines: &mut [DocLine], role: Role) {
    for l in lines {
        l.whole = Some(role);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(texts: &[&str]) -> Vec<DocLine> {
        texts.iter().map(|t| DocLine::plain(*t, Role::Text)).collect()
    }

    #[test]
    fn marks_removed_added_and_words() {
        let mut left = lines(&["same", "gone", "the quick brown fox"]);
        let mut right = lines(&["same", "the quick red fox", "new"]);
        mark(&mut left, &mut right);
        assert_eq!(left[0].whole, None);
        assert_eq!(left[1].whole, Some(Role::Removed));
        assert_eq!(right[2].whole, Some(Role::Added));
        let emph: Vec<&str> = right[1]
            .emph
            .iter()
            .map(|(r, _)| &"the quick red fox"[r.clone()])
            .collect();
        assert_eq!(emph, ["red"]);
    }
}
