//! Diff marks between the two sides of a row, as theme roles: the library's line and word
//! marks ([`replaylens::alignment::lines`]) applied to the described lines.

use replaylens::alignment::lines::{LineMark, mark as line_marks};

use super::describe::DocLine;
use super::theme::Role;

/// Mark `left` and `right` body lines in place.
pub fn mark(left: &mut [DocLine], right: &mut [DocLine]) {
    let old: Vec<String> = left.iter().map(DocLine::text).collect();
    let new: Vec<String> = right.iter().map(DocLine::text).collect();
    let (l, r) = line_marks(&old, &new);
    for (lines, marks, whole) in [(left, l, Role::Removed), (right, r, Role::Added)] {
        for (line, m) in lines.iter_mut().zip(marks) {
            match m {
                LineMark::Same => {}
                LineMark::Whole => line.whole = Some(whole),
                LineMark::Words(ranges) => {
                    line.emph = ranges.into_iter().map(|r| (r, Role::Modified)).collect();
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
    fn library_marks_become_roles() {
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
