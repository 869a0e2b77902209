//! One aligned row laid out for a column width: both sides' wrapped lines, with diff marks,
//! placeholders for missing sides, move/merge notes and rule tags.

use ratatui::text::{Line, Span};

use super::describe::{Doc, DocLine, Extent, Seg, describe};
use super::diff;
use super::inspection::Inspection;
use super::rows::{Row, RowKind};
use super::theme::{Role, Theme};
use super::wrap::{note, wrap_line, wrap_segs};

/// Body lines shown for a collapsed message before `… N more lines`.
pub const COLLAPSED_BODY: usize = 6;

/// A row laid out for one width.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RowLines {
    /// Left (stored) visual lines.
    pub left: Vec<Line<'static>>,
    /// Right (replay) visual lines.
    pub right: Vec<Line<'static>>,
}

impl RowLines {
    /// Height of the row in terminal lines.
    pub fn height(&self) -> usize {
        self.left.len().max(self.right.len()).max(1)
    }
}

/// Lay out a row with each side `width` columns wide.
pub fn layout(insp: &Inspection, row: &Row, width: usize, extent: Extent, theme: &Theme) -> RowLines {
    let single_stored = match row.stored.as_slice() {
        [s] => insp.stored(*s),
        _ => None,
    };
    let right_msg = row.replay.and_then(|j| insp.replayed(j));
    // Only the replay side compares with its stored source ("stripped", "before → after").
    let mut left: Vec<Doc> = row
        .stored
        .iter()
        .filter_map(|&s| insp.stored(s).map(|m| describe(m, s, extent, None)))
        .collect();
    let mut right: Option<Doc> = row
        .replay
        .and_then(|j| right_msg.map(|m| describe(m, j, extent, single_stored)));

    match row.kind {
        RowKind::Dropped => {
            for d in &mut left {
                diff::mark_all(&mut d.body, Role::Removed);
            }
        }
        RowKind::Inserted => {
            if let Some(r) = &mut right {
                diff::mark_all(&mut r.body, Role::Added);
            }
        }
        RowKind::Same | RowKind::MovedFrom => {}
        RowKind::Modified | RowKind::Merged | RowKind::Moved => {
            if let Some(r) = &mut right {
                let counts: Vec<usize> = left.iter().map(|d| d.body.len()).collect();
                let mut joined: Vec<DocLine> = left.iter_mut().flat_map(|d| d.body.drain(..)).collect();
                diff::mark(&mut joined, &mut r.body);
                let mut it = joined.into_iter();
                for (d, n) in left.iter_mut().zip(counts) {
                    d.body = it.by_ref().take(n).collect();
                }
            }
        }
    }

    let tags = tag_segs(insp, row);
    let mut out = RowLines::default();
    let (left_mark, right_mark) = match row.kind {
        RowKind::Dropped => (Some(Role::Removed), None),
        RowKind::Inserted => (None, Some(Role::Added)),
        _ => (None, None),
    };
    for d in &left {
        let dim = row.kind == RowKind::MovedFrom;
        push_doc(&mut out.left, d, left_mark, width, extent, theme, dim);
    }
    match (&mut right, row.kind) {
        (None, _) if insp.preview => out.right.push(note("… once the whole file is read", theme)),
        (None, _) if insp.pending => out.right.push(note("… computing the projection", theme)),
        (Some(r), kind) => {
            match kind {
                RowKind::Moved => {
                    let from = replaylens::text::index_list(&row.stored, "#");
                    r.header
                        .push(Seg::new(format!(" » moved from stored {from}"), Role::Moved));
                }
                RowKind::Merged => {
                    let from = replaylens::text::index_list(&row.stored, "#");
                    r.header.push(Seg::new(format!(" = merged {from}"), Role::Modified));
                }
                RowKind::Inserted => r.header.push(Seg::new(" + synthesized", Role::Added)),
                _ => {}
            }
            r.header.extend(tags);
            push_doc(&mut out.right, r, right_mark, width, extent, theme, false);
        }
        (None, RowKind::MovedFrom) => {
            let to = row.moved_to.map_or_else(String::new, |j| format!(" to replay #{j}"));
            let mut segs = vec![Seg::new(format!("« moved{to}"), Role::Moved)];
            segs.extend(tags);
            out.right.extend(wrap_segs(&segs, width, theme));
        }
        (None, _) => {
            let mut segs = vec![Seg::new("✗ dropped from the replay", Role::Removed)];
            segs.extend(tags);
            out.right.extend(wrap_segs(&segs, width, theme));
        }
    }
    if row.kind == RowKind::Inserted {
        out.left.push(Line::from(Span::styled(
            "+ synthesized: no stored message",
            theme.style(Role::Placeholder),
        )));
    }
    out
}

fn tag_segs(insp: &Inspection, row: &Row) -> Vec<Seg> {
    let mut seen: Vec<&str> = Vec::new();
    let mut segs = Vec::new();
    for &i in &row.rewrites {
        let Some(r) = insp.rewrites.get(i) else { continue };
        if seen.contains(&r.rule) {
            continue;
        }
        seen.push(r.rule);
        segs.push(Seg::new(" ", Role::Text));
        segs.push(Seg::new(format!("‹{}›", r.rule), Role::RuleTag));
    }
    segs
}

fn push_doc(
    out: &mut Vec<Line<'static>>,
    doc: &Doc,
    mark: Option<Role>,
    width: usize,
    extent: Extent,
    theme: &Theme,
    dim: bool,
) {
    let header_line = DocLine {
        segs: doc.header.clone(),
        emph: Vec::new(),
        whole: mark,
    };
    let header = wrap_line(&header_line, width, theme);
    let mut body: Vec<Line<'static>> = Vec::new();
    let mut unlaid = 0usize;
    let mut more = doc.more;
    for (i, line) in doc.body.iter().enumerate() {
        match extent {
            Extent::Collapsed if body.len() > COLLAPSED_BODY => {
                unlaid = doc.body.len() - i;
                break;
            }
            Extent::Expanded(budget) if body.len() >= budget => {
                more = true;
                break;
            }
            _ => {}
        }
        body.extend(wrap_line(line, width, theme));
    }
    out.extend(header);
    match extent {
        Extent::Collapsed if body.len() > COLLAPSED_BODY => {
            let hidden = body.len() - (COLLAPSED_BODY - 1) + unlaid;
            body.truncate(COLLAPSED_BODY - 1);
            out.extend(body);
            out.push(note(format!("… {hidden} more lines (Enter expands)"), theme));
        }
        Extent::Expanded(budget) => {
            body.truncate(budget);
            out.extend(body);
            if more {
                out.push(note("… more below: laid out as you scroll (↓, PgDn)".to_owned(), theme));
            }
        }
        Extent::Collapsed => out.extend(body),
    }
    if dim {
        let muted = theme.style(Role::Muted);
        for l in out.iter_mut() {
            for s in &mut l.spans {
                s.style = muted;
            }
        }
    }
}
