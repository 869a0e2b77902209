//! Word-level differences between two texts (for modified rows), via `similar`.

use serde::Serialize;
use similar::{ChangeTag, TextDiff};

/// Whether a segment is kept, removed or added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SegmentKind {
    /// In both texts.
    Equal,
    /// Only in the stored text.
    Removed,
    /// Only in the replayed text.
    Added,
}

/// A run of text with one kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Segment {
    /// Kept, removed or added.
    pub kind: SegmentKind,
    /// The text.
    pub text: String,
}

/// Word-level diff of `old` → `new`, adjacent segments of one kind joined.
pub fn word_diff(old: &str, new: &str) -> Vec<Segment> {
    let diff = TextDiff::from_words(old, new);
    let mut out: Vec<Segment> = Vec::new();
    for change in diff.iter_all_changes() {
        let kind = match change.tag() {
            ChangeTag::Equal => SegmentKind::Equal,
            ChangeTag::Delete => SegmentKind::Removed,
            ChangeTag::Insert => SegmentKind::Added,
        };
        match out.last_mut() {
            Some(last) if last.kind == kind => last.text.push_str(change.value()),
            _ => out.push(Segment {
                kind,
                text: change.value().to_owned(),
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_removed_and_added_words() {
        let d = word_diff("keep call_a|fc_b here", "keep callafcb here");
        assert_eq!(
            d[0],
            Segment {
                kind: SegmentKind::Equal,
                text: "keep ".into()
            }
        );
        assert!(
            d.iter()
                .any(|s| s.kind == SegmentKind::Removed && s.text.contains("call_a|fc_b"))
        );
        assert!(
            d.iter()
                .any(|s| s.kind == SegmentKind::Added && s.text.contains("callafcb"))
        );
    }
}
