//! A session picker line's text: name and marks, then last update, message count, working
//! directory and model; and the fuzzy match the pickers filter with.

use replaylens::load::discover::Listing;
use replaylens::text::{escape_controls_single_line, truncate_chars};

/// How a label is laid out: the name column's width and the date's form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelLayout {
    /// Width of the name column.
    pub name_width: usize,
    /// `03-12 18:57` (month, day, time) rather than `2026-03-12 18:57`.
    pub compact_date: bool,
}

impl LabelLayout {
    /// The widest layout: the full name column and full dates.
    pub const WIDE: Self = Self {
        name_width: NAME_WIDTH,
        compact_date: false,
    };

    /// The layout for a line of `width` columns whose name is preceded by `before` columns and
    /// followed by `between` columns (counts and marks) before the date: full dates and the full
    /// name column when both fit with room to spare, else the compact date, and the name
    /// column gives up what the date and the cut mark after it need (down to
    /// [`MIN_NAME_WIDTH`]).
    pub fn for_width(width: usize, before: usize, between: usize) -> Self {
        let fixed = before + between;
        if width >= fixed + NAME_WIDTH + FULL_DATE_WIDTH + SPARE {
            return Self::WIDE;
        }
        let name_width = width
            .saturating_sub(fixed + COMPACT_DATE_WIDTH + 1)
            .clamp(MIN_NAME_WIDTH, NAME_WIDTH);
        Self {
            name_width,
            compact_date: true,
        }
    }

    fn date_width(self) -> usize {
        if self.compact_date {
            COMPACT_DATE_WIDTH
        } else {
            FULL_DATE_WIDTH
        }
    }
}

/// Width of a full date, `2026-03-12 18:57`.
const FULL_DATE_WIDTH: usize = 16;
/// Width of a compact date, `03-12 18:57`.
const COMPACT_DATE_WIDTH: usize = 11;
/// The narrowest name column: a name shorter than this is cut rather than the date.
pub const MIN_NAME_WIDTH: usize = 20;
/// Columns wanted after a full date (the message count) before full dates are used.
const SPARE: usize = 11;

/// A listing's last update as shown: `2026-03-12 18:57`, or `03-12 18:57` when compact.
pub fn date_text(updated: Option<&str>, compact: bool) -> String {
    let full: String = updated
        .unwrap_or("")
        .chars()
        .take(FULL_DATE_WIDTH)
        .enumerate()
        .map(|(i, c)| if i == 10 && c == 'T' { ' ' } else { c })
        .collect();
    let dated = full.len() == FULL_DATE_WIDTH && full.as_bytes()[4] == b'-' && full.as_bytes()[10] == b' ';
    if compact && dated { full[5..].to_owned() } else { full }
}

/// The label of a session line, in two parts: what it is (the file name, or a database
/// window's session key) with its sub-agent, archive or unreadable mark, padded to the name
/// column; then last update, message count, working directory and model. Every field has its
/// control characters escaped; long names and folders are shortened in the middle and at the
/// start.
pub fn label_parts(l: &Listing, layout: LabelLayout) -> (String, String) {
    let e = |text: &str| escape_controls_single_line(text).into_owned();
    let width = layout.name_width;
    let base = if l.format == Some("openclaw-sqlite") {
        l.session_key.clone().unwrap_or_else(|| l.id.clone())
    } else {
        l.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| l.id.clone())
    };
    let mut marks = String::new();
    if let Some(parent) = &l.parent {
        let short: String = parent.chars().take(8).collect();
        marks.push_str(&format!(" (sub-agent of {short})"));
    }
    if let Some(archive) = &l.archive {
        marks.push_str(&format!(" ({})", short_archive(archive)));
    }
    if l.error.is_some() {
        marks.push_str(" (unreadable)");
    }
    // The marks tell apart rows that share a name (a database's windows of one key), so
    // the name gives way to them: it is shortened in the middle first.
    let marks = e(&marks);
    let room = width.saturating_sub(marks.chars().count()).max(12);
    let name = format!("{}{marks}", shorten_middle(&e(&base), room));
    let name = if name.chars().count() > width {
        truncate_chars(&name, width - 1).into_owned()
    } else {
        name
    };
    let date_width = layout.date_width();
    let tail = format!(
        "{:<date_width$} {:>5} {:<4}  {:<CWD_WIDTH$} {}",
        e(&date_text(l.updated.as_deref(), layout.compact_date)),
        l.messages,
        if l.messages == 1 { "msg" } else { "msgs" },
        shorten_start(&e(l.cwd.as_deref().unwrap_or("")), CWD_WIDTH),
        e(l.model.as_deref().unwrap_or("")),
    );
    (format!("{name:<width$}"), tail.trim_end().to_owned())
}

/// An archive mark short enough to stay whole in the name column: a database's previous
/// window reads `previous window, started by reset` in the CLI and `previous window: reset`
/// here.
fn short_archive(archive: &str) -> String {
    match archive.strip_prefix("previous window, started by ") {
        Some(reason) => format!("previous window: {reason}"),
        None => archive.to_owned(),
    }
}

/// Width of the name column of the session picker, when there is room.
pub const NAME_WIDTH: usize = 40;
/// Width of the working-directory column of the session picker.
const CWD_WIDTH: usize = 30;

/// At most `max` characters, keeping both ends: `rollout-2026-01-02T…-1111.jsonl`.
fn shorten_middle(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_owned();
    }
    let keep = max.saturating_sub(1);
    let head = keep / 2;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(n - (keep - head)).collect();
    format!("{start}…{}", without_orphan_selector(&end))
}

/// At most `max` characters, keeping the end: `…/work/my-app`.
fn shorten_start(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_owned();
    }
    let end: String = text.chars().skip(n - max.saturating_sub(1)).collect();
    format!("…{}", without_orphan_selector(&end))
}

/// `end` without a presentation selector at its start: a cut that kept the selector but not
/// the emoji before it would put it after the `…`, where it is shown escaped nowhere.
fn without_orphan_selector(end: &str) -> &str {
    end.trim_start_matches(['\u{fe0e}', '\u{fe0f}'])
}

/// Fuzzy match (the `nucleo-matcher` crate, fzf's scoring and syntax, smart case; words of
/// the filter all have to match); higher is better. An empty filter matches everything.
pub fn fuzzy_score(haystack: &str, needle: &str) -> Option<i64> {
    use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
    use nucleo_matcher::{Config, Matcher, Utf32Str};
    if needle.trim().is_empty() {
        return Some(0);
    }
    let mut matcher = Matcher::new(Config::DEFAULT.match_paths());
    let pattern = Pattern::parse(needle, CaseMatching::Smart, Normalization::Smart);
    let mut buf = Vec::new();
    pattern
        .score(Utf32Str::new(haystack, &mut buf), &mut matcher)
        .map(i64::from)
}

/// Score bonus of a session whose file name is the filter (`abc` for `abc.jsonl`), and of one
/// whose file name holds it: such a file ranks above any fuzzy match elsewhere.
pub fn file_name_bonus(path: &std::path::Path, needle: &str) -> i64 {
    let needle = needle.trim().to_lowercase();
    if needle.is_empty() {
        return 0;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let bare = name.strip_suffix(".zst").unwrap_or(&name);
    let stem = [".jsonl", ".json", ".sqlite", ".db"]
        .iter()
        .find_map(|ext| bare.strip_suffix(ext))
        .unwrap_or(bare);
    if name == needle || stem == needle {
        2_000_000
    } else if name.contains(&needle) {
        1_000_000
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::tests::listing;

    fn label(l: &Listing) -> String {
        let (head, tail) = label_parts(l, LabelLayout::WIDE);
        format!("{head} {tail}").trim_end().to_owned()
    }

    #[test]
    fn session_label_escapes_and_marks() {
        let mut l = listing(
            "agent-x",
            Some("Claude Code"),
            Some("2026-01-02T03:04:05Z"),
            Some("/a/\u{1b}]0;x\u{7}b"),
        );
        l.parent = Some("0a1b2c3d-4e5f".into());
        let label = label(&l);
        assert!(label.starts_with("agent-x.jsonl (sub-agent of 0a1b2c3d) "), "{label}");
        assert!(label.contains("2026-01-02 03:04"), "{label}");
        assert!(label.contains("/a/\\e]0;x\\x07b"), "{label}");
        assert!(!label.chars().any(char::is_control), "{label:?}");
    }

    #[test]
    fn session_label_shortens_long_names_and_folders() {
        let mut l = listing(
            "x",
            Some("Codex"),
            None,
            Some("/home/someone/projects/a/very/deep/tree/my-app"),
        );
        l.path = "/c/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl".into();
        l.archive = Some("archived".into());
        let label = label(&l);
        let name = &label[..label.find("  ").unwrap_or(label.len())];
        assert!(
            name.starts_with("rollout-2026-0") && name.contains('…') && name.ends_with("1111.jsonl (archived)"),
            "{label}"
        );
        assert!(name.chars().count() <= NAME_WIDTH, "{name}");
        assert!(label.ends_with("  …jects/a/very/deep/tree/my-app"), "{label}");
        assert_eq!(shorten_middle("abcdefghij", 5), "ab…ij");
        assert_eq!(shorten_start("abcdefghij", 5), "…ghij");
        assert_eq!(shorten_middle("abc", 5), "abc");
    }

    #[test]
    fn narrow_lines_get_compact_dates_and_a_narrower_name_column() {
        assert_eq!(LabelLayout::for_width(110, 2, 25), LabelLayout::WIDE);
        let narrow = LabelLayout::for_width(70, 2, 25);
        assert!(narrow.compact_date && narrow.name_width == 31, "{narrow:?}");
        assert_eq!(date_text(Some("2026-03-12T18:57:01Z"), true), "03-12 18:57");
        assert_eq!(date_text(Some("2026-03-12T18:57:01Z"), false), "2026-03-12 18:57");
        assert_eq!(date_text(Some("yesterday"), true), "yesterday");
        assert_eq!(date_text(None, true), "");
        let l = listing("a", Some("pi"), Some("2026-03-12T18:57:01Z"), None);
        let (head, tail) = label_parts(&l, narrow);
        assert_eq!(head.chars().count(), 31);
        assert!(tail.starts_with("03-12 18:57     1 msg"), "{tail}");
    }
}
