//! The detail pane's JSON comparison: the structural diff every view shares
//! ([`replaylens::alignment::json::row`]), drawn as delta draws a diff: removed members in the
//! removed colour, added ones in the added colour, changed words emphasised, unchanged runs
//! folded into one `⋯ N unchanged` line, each line wrapped at word boundaries.

use std::hash::{DefaultHasher, Hash, Hasher};

use ratatui::text::{Line, Span};
use replaylens::alignment::json::row::{RowValues, heading_text, sections};
use replaylens::alignment::json::{Mark, Options, Sign, listing, thousands};
use replaylens::model::Origin;
use replaylens::model::json::Value;
use replaylens::text::escape_controls_single_line;

use super::json::{Fold, fold_map_with};
use crate::tui::describe::Seg;
use crate::tui::inspection::Inspection;
use crate::tui::rows::Row;
use crate::tui::theme::{Role, Theme};
use crate::tui::wrap::wrap_segs;

/// How the pane cuts values before comparing them: strings over 16 Ki characters by their two
/// ends (4 Ki each) and a digest of the whole, so a 5 MB screenshot costs a few kilobytes per
/// frame and still shows as changed when its middle changed; arrays after 2,000 elements.
const BOUNDS: Fold = Fold {
    max_string: 16 * 1024,
    max_items: 2_000,
    cut: |s, n| {
        const END: usize = 4 * 1024;
        let head: String = s.chars().take(END).collect();
        let tail: String = s.chars().skip(n - END).collect();
        let mut h = DefaultHasher::new();
        s.hash(&mut h);
        format!(
            "{head}… {} chars, digest {:08x} …{tail}",
            thousands(n - 2 * END),
            h.finish() as u32
        )
    },
};

/// How much the pane shows of each value: two lines of context, values up to 400 columns
/// (wrapped), runs folded.
fn options() -> Options {
    Options {
        context: 2,
        width: 400,
        around: 60,
        folds: true,
    }
}

/// The comparison of a row's stored and replay JSON, wrapped to `width` columns: a title
/// line, then each section's heading and diff lines.
pub fn lines(insp: &Inspection, row: &Row, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let stored: Vec<(usize, Value)> = row
        .stored
        .iter()
        .filter_map(|&s| insp.stored(s).map(|m| (s, fold_map_with(m.as_map(), &BOUNDS))))
        .collect();
    let stored: Vec<(usize, &Value)> = stored.iter().map(|(s, v)| (*s, v)).collect();
    let replay = row
        .replay
        .and_then(|j| insp.replayed(j).map(|m| (j, fold_map_with(m.as_map(), &BOUNDS))));
    // Before the projection exists, the stored side is all there is: shown as it is.
    let waiting = row.replay.is_none() && (insp.preview || insp.pending);
    let values = RowValues {
        kind: row.kind,
        stored: &stored,
        replay: replay.as_ref().map(|(j, v)| (*j, v)),
        moved_to: row.moved_to,
    };
    let mut out = vec![title(insp, row, theme)];
    if waiting {
        let why = if insp.preview {
            "the replay side follows once the whole file is read"
        } else {
            "the replay side follows once the projection is computed"
        };
        out.push(Line::from(Span::styled(why, theme.style(Role::Placeholder))));
        for &(_, v) in &stored {
            out.extend(
                listing(v, Sign::Context, &options())
                    .iter()
                    .flat_map(|l| diff_line(l, width, theme)),
            );
        }
        return out;
    }
    for section in sections(values, &options()) {
        if let Some(h) = heading_text(&section.heading) {
            out.extend(wrap_segs(&[Seg::new(format!("@@ {h} @@"), Role::Moved)], width, theme));
        }
        for l in &section.lines {
            out.extend(diff_line(l, width, theme));
        }
    }
    out
}

/// `stored → replay JSON`, saying where a mapped session's message came from.
fn title(insp: &Inspection, row: &Row, theme: &Theme) -> Line<'static> {
    let mapped = match row.stored.first().and_then(|&s| insp.transcript.messages.get(s)) {
        Some(m) if m.origin == Origin::Mapped => match m.location {
            Some(at) => format!(" (stored side mapped from {at})"),
            None => " (stored side mapped)".to_owned(),
        },
        _ => String::new(),
    };
    let what = match (row.stored.is_empty(), row.replay.is_some()) {
        (false, true) => "JSON: stored → replay",
        (false, false) => "stored JSON",
        (true, _) => "replay JSON",
    };
    Line::from(vec![
        Span::styled(what.to_owned(), theme.style(Role::Title)),
        Span::styled(
            escape_controls_single_line(&mapped).into_owned(),
            theme.style(Role::Muted),
        ),
    ])
}

/// One diff line as wrapped terminal lines: the sign, the path, the value; continuation lines
/// indented under the path.
fn diff_line(l: &replaylens::alignment::json::Line, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let base = match l.sign {
        Sign::Context => Role::Text,
        Sign::Removed => Role::Removed,
        Sign::Added => Role::Added,
        Sign::Folded => Role::Placeholder,
    };
    let mut segs = vec![Seg::new(format!("{} ", l.sign.prefix()), base)];
    if l.sign != Sign::Folded {
        let path = if l.path.is_empty() { "$" } else { &l.path };
        segs.push(Seg::new(escape_controls_single_line(path).into_owned(), Role::Muted));
        segs.push(Seg::new(": ", Role::Muted));
    }
    let mut json = Spacing::default();
    for p in &l.value {
        let role = match p.mark {
            Mark::Same => base,
            Mark::Removed | Mark::Added => Role::Modified,
        };
        let head = json.spaced(&p.head);
        segs.push(Seg::new(escape_controls_single_line(&head).into_owned(), role));
        if p.elided > 0 {
            // What the elision left out is unknown: no more spacing on this line.
            json.off = true;
            segs.push(Seg::new(
                format!("… {} chars …", thousands(p.elided)),
                Role::Placeholder,
            ));
            segs.push(Seg::new(escape_controls_single_line(&p.tail).into_owned(), role));
        }
    }
    // Continuation lines sit two columns in, so the sign column stays clean.
    let mut wrapped = wrap_segs(&segs, width.saturating_sub(2).max(8), theme);
    for w in wrapped.iter_mut().skip(1) {
        w.spans.insert(0, Span::styled("  ", theme.style(base)));
    }
    wrapped
}

/// Compact JSON with a space after each `,` and `:` outside strings, so that a value wraps
/// between its members and never inside an id.
#[derive(Debug, Default)]
struct Spacing {
    in_string: bool,
    escaped: bool,
    /// Stop spacing (after an elision the position in the JSON text is unknown).
    off: bool,
}

impl Spacing {
    fn spaced(&mut self, text: &str) -> String {
        if self.off {
            return text.to_owned();
        }
        let mut out = String::with_capacity(text.len() + text.len() / 8);
        for c in text.chars() {
            out.push(c);
            if self.in_string {
                match (self.escaped, c) {
                    (true, _) => self.escaped = false,
                    (false, '\\') => self.escaped = true,
                    (false, '"') => self.in_string = false,
                    _ => {}
                }
            } else {
                match c {
                    '"' => self.in_string = true,
                    ',' | ':' => out.push(' '),
                    _ => {}
                }
            }
        }
        out
    }
}
#[cfg(test)]
mod tests {
    use super::Spacing;

    #[test]
    fn spaces_go_between_members_never_inside_strings() {
        let mut s = Spacing::default();
        assert_eq!(
            s.spaced(r#"{"id":"a,b:c","q":"say \"x,y\"","n":[1,2]}"#),
            r#"{"id": "a,b:c", "q": "say \"x,y\"", "n": [1, 2]}"#
        );
        // Pieces of one value keep the state between them.
        let mut s = Spacing::default();
        let joined = s.spaced(r#""a,"#) + &s.spaced(r#"b","c":1"#);
        assert_eq!(joined, r#""a,b", "c": 1"#);
    }
}
