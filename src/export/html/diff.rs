//! JSON diff lines as HTML: a sign, the path and the value; words that differ inside a changed
//! string as `<del>`/`<ins>`; long values elided in the middle with their length and shown
//! whole in a `<details>` (no script). Unified, or side by side where a path has both a
//! stored and a replay value.

use std::fmt::Write;

use crate::model::json::Value;
use html_escape::encode_text as esc;

use crate::alignment::json::row::Section;
use crate::alignment::json::{self, Line, Mark, Piece, Sign, thousands};

/// Longest value (characters of compact JSON) a `<details>` shows whole; longer ones (image
/// data, huge tool output) stay elided.
const EXPAND_MAX_CHARS: usize = 64 * 1024;

/// How much of each value a diff line shows.
fn options() -> json::Options {
    json::Options::default()
}

/// No elision at all: the whole value, for the expanded view.
fn full_options() -> json::Options {
    json::Options {
        context: 0,
        width: usize::MAX / 8,
        around: usize::MAX / 8,
        folds: false,
    }
}

/// The lines of one comparison, with the values they were cut from (to show elided values
/// whole).
pub(super) struct Lines<'v> {
    lines: Vec<Line>,
    old: &'v Value,
    new: &'v Value,
}

impl<'v> Lines<'v> {
    /// The changed paths from `old` to `new`, with context.
    #[cfg(test)]
    pub fn diff(old: &'v Value, new: &'v Value) -> Self {
        Self {
            lines: json::diff(old, new, &options()),
            old,
            new,
        }
    }

    /// A whole message, one line per top-level field, all of one sign.
    pub fn listing(value: &'v Value, sign: Sign) -> Self {
        Self::listing_except(value, None, sign)
    }

    /// Like [`Lines::listing`], leaving out the fields `except` has with the same value.
    pub fn listing_except(value: &'v Value, except: Option<&Value>, sign: Sign) -> Self {
        Self {
            lines: json::listing_except(value, except, sign, &options()),
            old: value,
            new: value,
        }
    }

    /// A section of a row's comparison (see [`crate::alignment::json::row`]).
    pub fn section(section: Section<'v>) -> Option<Self> {
        let old = section.old.or(section.new)?;
        Some(Self {
            lines: section.lines,
            old,
            new: section.new.unwrap_or(old),
        })
    }

    /// Whether some path has both a stored and a replay line: then side by side helps.
    fn has_pairs(&self) -> bool {
        self.lines
            .iter()
            .filter(|l| l.sign == Sign::Removed)
            .any(|r| self.lines.iter().any(|a| a.sign == Sign::Added && a.path == r.path))
    }

    /// The line's value whole (with its word marks), when it was elided and is not too long.
    fn whole(&self, line: &Line) -> Option<Vec<Piece>> {
        if line.value.iter().all(|p| p.elided == 0) {
            return None;
        }
        let old_side = line.sign == Sign::Removed;
        let marked = line.value.iter().any(|p| p.mark != Mark::Same);
        if marked {
            // A changed string: diff both sides again without eliding anything.
            let a = resolve(self.old, &line.path, true)?;
            let b = resolve(self.new, &line.path, false)?;
            let long = |v: &Value| v.as_str().map_or(usize::MAX, |s| s.chars().count());
            if long(a).max(long(b)) > EXPAND_MAX_CHARS {
                return None;
            }
            return json::diff(a, b, &full_options())
                .into_iter()
                .find(|l| l.sign == line.sign)
                .map(|l| l.value);
        }
        let v = resolve(if old_side { self.old } else { self.new }, &line.path, old_side)?;
        let text = serde_json::to_string(v).ok()?;
        (text.chars().count() <= EXPAND_MAX_CHARS).then(|| {
            vec![Piece {
                mark: Mark::Same,
                head: text,
                elided: 0,
                tail: String::new(),
            }]
        })
    }

    /// The lines as HTML: side by side (`sides`: the column labels) when some path has both a
    /// stored and a replay value, else unified.
    pub fn write(&self, out: &mut String, sides: Option<(&str, &str)>) {
        match sides {
            Some((left, right)) if self.has_pairs() => self.write_split(out, left, right),
            _ => {
                out.push_str("<div class=\"diff\">\n");
                for l in &self.lines {
                    self.write_line(out, l, "");
                    out.push('\n');
                }
                out.push_str("</div>\n");
            }
        }
    }

    /// Two columns on wide screens (context on both sides, each changed path's stored value
    /// beside its replay value); on narrow ones the pairs stack into a unified diff.
    fn write_split(&self, out: &mut String, left: &str, right: &str) {
        let _ = writeln!(
            out,
            "<div class=\"diff split\"><div class=\"sides\"><span>{}</span><span>{}</span></div>",
            esc(left),
            esc(right)
        );
        let mut k = 0;
        while k < self.lines.len() {
            let l = &self.lines[k];
            if l.sign == Sign::Context {
                out.push_str("<div class=\"pair\">");
                self.write_line(out, l, "");
                self.write_line(out, l, " dup");
                out.push_str("</div>\n");
                k += 1;
                continue;
            }
            let end = self.lines[k..]
                .iter()
                .position(|l| l.sign == Sign::Context)
                .map_or(self.lines.len(), |n| k + n);
            for (left, right) in pairs(&self.lines[k..end]) {
                out.push_str("<div class=\"pair\">");
                match left {
                    Some(l) => self.write_line(out, l, ""),
                    None => out.push_str("<div class=\"l none\"></div>"),
                }
                match right {
                    Some(l) => self.write_line(out, l, ""),
                    None => out.push_str("<div class=\"l none\"></div>"),
                }
                out.push_str("</div>\n");
            }
            k = end;
        }
        out.push_str("</div>\n");
    }

    fn write_line(&self, out: &mut String, l: &Line, extra: &str) {
        let class = match l.sign {
            Sign::Context | Sign::Folded => "ctx",
            Sign::Removed => "rm",
            Sign::Added => "add",
        };
        let path = if l.path.is_empty() { "$" } else { &l.path };
        let head = format!(
            "<span class=\"sg\">{}</span> <span class=\"p\">{}</span>: ",
            l.sign.prefix(),
            esc(path)
        );
        match self.whole(l) {
            None => {
                let _ = write!(out, "<div class=\"l {class}{extra}\">{head}<span class=\"v\">");
                write_pieces(out, &l.value);
                out.push_str("</span></div>");
            }
            Some(whole) => {
                let _ = write!(
                    out,
                    "<details class=\"l {class}{extra}\"><summary>{head}<span class=\"v\">"
                );
                write_pieces(out, &l.value);
                out.push_str("</span><span class=\"fold\">fold</span></summary><div class=\"whole\">");
                let whole: Vec<Piece> = whole
                    .into_iter()
                    .map(|p| Piece {
                        head: break_lines(&p.head),
                        ..p
                    })
                    .collect();
                write_pieces(out, &whole);
                out.push_str("</div></details>");
            }
        }
    }
}

/// The changed lines between two context lines, paired for two columns: each stored line
/// with the replay line of the same path, in order of first appearance; the rest alone.
fn pairs(run: &[Line]) -> Vec<(Option<&Line>, Option<&Line>)> {
    let mut used = vec![false; run.len()];
    let mut out = Vec::new();
    for (i, l) in run.iter().enumerate() {
        if used[i] {
            continue;
        }
        used[i] = true;
        if l.sign == Sign::Added {
            out.push((None, Some(l)));
            continue;
        }
        let partner = (i + 1..run.len()).find(|&j| !used[j] && run[j].sign == Sign::Added && run[j].path == l.path);
        if let Some(j) = partner {
            used[j] = true;
        }
        out.push((Some(l), partner.map(|j| &run[j])));
    }
    out
}

/// Pieces as HTML: removed words in `<del>`, added ones in `<ins>`, elisions as a note.
fn write_pieces(out: &mut String, pieces: &[Piece]) {
    for p in pieces {
        let (open, close) = match p.mark {
            Mark::Same => ("", ""),
            Mark::Removed => ("<del>", "</del>"),
            Mark::Added => ("<ins>", "</ins>"),
        };
        out.push_str(open);
        out.push_str(&esc(&p.head));
        if p.elided > 0 {
            let _ = write!(out, "<span class=\"el\">… {} chars …</span>", thousands(p.elided));
            out.push_str(&esc(&p.tail));
        }
        out.push_str(close);
    }
}

/// JSON text with a line break after each `\n` escape, so that a value shown whole reads as
/// the text it holds. An escaped backslash (`\\n`) is not a break.
fn break_lines(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 16);
    let mut escaped = false;
    for c in json.chars() {
        out.push(c);
        if escaped && c == 'n' {
            out.push('\n');
        }
        escaped = !escaped && c == '\\';
    }
    out
}

/// The value a diff path names (`content[1→0].text`, `["odd key"]`): for `a→b` indices the
/// stored index `a` when `old_side`, else `b`. `None` when the path does not resolve.
fn resolve<'v>(root: &'v Value, path: &str, old_side: bool) -> Option<&'v Value> {
    let mut v = root;
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            if r.starts_with('"') {
                let mut keys = serde_json::Deserializer::from_str(r).into_iter::<String>();
                let key = keys.next()?.ok()?;
                rest = r[keys.byte_offset()..].strip_prefix(']')?;
                v = v.as_object()?.get(&key)?;
            } else {
                let end = r.find(']')?;
                let index = match r[..end].split_once('→') {
                    Some((old, new)) => {
                        if old_side {
                            old
                        } else {
                            new
                        }
                    }
                    None => &r[..end],
                };
                v = v.as_array()?.get(index.parse::<usize>().ok()?)?;
                rest = &r[end + 1..];
            }
        } else {
            let r = rest.strip_prefix('.').unwrap_or(rest);
            let end = r.find(['.', '[']).unwrap_or(r.len());
            v = v.as_object()?.get(&r[..end])?;
            rest = &r[end..];
        }
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use crate::json;

    use super::*;

    #[test]
    fn paths_resolve_on_either_side() {
        let old = json!({"content": [{"type": "text"}, {"a b": {"x": [1, 2]}}], "k": "v"});
        let new = json!({"content": [{"a b": {"x": [3]}}]});
        assert_eq!(resolve(&old, "content[1→0][\"a b\"].x[1]", true), Some(&json!(2)));
        assert_eq!(resolve(&new, "content[1→0][\"a b\"].x[0]", false), Some(&json!(3)));
        assert_eq!(resolve(&old, "k", true), Some(&json!("v")));
        assert_eq!(resolve(&old, "", true), Some(&old));
        assert_eq!(resolve(&old, "content[7]", true), None);
    }

    #[test]
    fn elided_values_expand_whole_and_escaped() {
        let long = format!("<b>{}</b>", "x".repeat(500));
        let old = json!({"role": "user", "text": long, "n": 1});
        let new = json!({"role": "user", "text": format!("{long} tail"), "n": 1});
        let mut out = String::new();
        Lines::diff(&old, &new).write(&mut out, Some(("stored", "replay")));
        assert!(out.contains("<div class=\"diff split\">"), "{out}");
        assert!(out.contains("<details class=\"l rm\">") && out.contains("<ins> tail</ins>"));
        assert!(out.contains(" chars …</span>"));
        assert!(out.contains(&"x".repeat(500)), "the whole value is in the details");
        assert!(!out.contains("<b>") && out.contains("&lt;b&gt;"));
        let mut only_removed = String::new();
        Lines::diff(&json!({"a": 1, "b": 2}), &json!({"a": 1})).write(&mut only_removed, Some(("s", "r")));
        assert!(
            only_removed.starts_with("<div class=\"diff\">"),
            "nothing to pair: unified"
        );
    }

    #[test]
    fn whole_values_break_at_newline_escapes_only() {
        assert_eq!(break_lines(r#""a\nb\\nc""#), "\"a\\n\nb\\\\nc\"");
    }

    #[test]
    fn stored_and_replay_lines_pair_by_path() {
        let line = |sign, path: &str| Line {
            sign,
            path: path.into(),
            value: Vec::new(),
        };
        let run = [
            line(Sign::Removed, "a"),
            line(Sign::Removed, "b"),
            line(Sign::Added, "b"),
            line(Sign::Added, "c"),
        ];
        let paths: Vec<(Option<&str>, Option<&str>)> = pairs(&run)
            .into_iter()
            .map(|(l, r)| (l.map(|l| l.path.as_str()), r.map(|r| r.path.as_str())))
            .collect();
        assert_eq!(paths, [(Some("a"), None), (Some("b"), Some("b")), (None, Some("c"))]);
    }
}
