//! The JSON comparison of one aligned row, as every view shows it: which values are compared,
//! under which heading, and the structural diff lines. The inspector's detail pane, the
//! Markdown and the HTML reports all render these sections; only the wording and the markup
//! of each heading are theirs.

use crate::alignment::RowKind;
use crate::model::json::Value;

use super::{Line, Options, Sign, diff, listing, listing_except};

/// What a section shows, for the renderer to word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heading {
    /// Nothing to say: the lines speak for themselves.
    Plain,
    /// A stored message the replay does not send (its fields, all removed).
    NotSent {
        /// Its stored index.
        stored: usize,
    },
    /// A replay message with no stored source (its fields, all added).
    Synthesized,
    /// A message stored later and sent here; the lines compare it with its stored form.
    MovedHere {
        /// Its stored index.
        from: usize,
        /// Its replay index.
        to: usize,
    },
    /// Where a moved message was stored; its diff is shown where it is sent.
    MovedAway {
        /// Its stored index.
        stored: usize,
        /// The replay index it was sent as.
        to: Option<usize>,
    },
    /// Several stored messages merged into one: the lines compare the first with the result.
    Merged {
        /// The stored indices merged.
        stored: Vec<usize>,
        /// The replay index.
        replay: usize,
    },
    /// A later member of a merge: its fields that differ from the first member.
    MergedIn {
        /// Its stored index.
        stored: usize,
        /// The first member's stored index.
        first: usize,
    },
}

/// One part of a row's comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Section<'v> {
    /// What the section shows.
    pub heading: Heading,
    /// The diff lines (possibly empty, e.g. for a moved-away marker).
    pub lines: Vec<Line>,
    /// The stored value the lines were cut from (to show an elided value whole).
    pub old: Option<&'v Value>,
    /// The replay value the lines were cut from.
    pub new: Option<&'v Value>,
    /// The stored and replay indices when the lines compare two sides (then a renderer may
    /// show them side by side).
    pub sides: Option<(usize, usize)>,
}

impl Section<'_> {
    /// The section as plain text: the heading (if any) as `@@ … @@`, then one line each.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if let Some(h) = heading_text(&self.heading) {
            out.push_str("@@ ");
            out.push_str(&h);
            out.push_str(" @@\n");
        }
        for l in &self.lines {
            out.push_str(&l.to_text());
            out.push('\n');
        }
        out
    }
}

/// The plain wording of a heading (`None` for [`Heading::Plain`]).
pub fn heading_text(h: &Heading) -> Option<String> {
    Some(match h {
        Heading::Plain => return None,
        Heading::NotSent { stored } => format!("s{stored} is not sent"),
        Heading::Synthesized => "synthesized: no stored message".to_owned(),
        Heading::MovedHere { from, .. } => format!("s{from} was stored later; sent here"),
        Heading::MovedAway { stored, to } => match to {
            Some(r) => format!("s{stored} is sent later, as r{r}: its diff is shown there"),
            None => format!("s{stored} is sent later: its diff is shown there"),
        },
        Heading::Merged { stored, replay } => format!(
            "{} → r{replay}: compared with s{}",
            crate::text::index_list(stored, "s"),
            stored.first().copied().unwrap_or_default()
        ),
        Heading::MergedIn { stored, first } => {
            format!("s{stored} merged in: its fields that differ from s{first}")
        }
    })
}

/// The values of one row: its stored messages (with their indices) and its replay message.
#[derive(Debug, Clone, Copy)]
pub struct RowValues<'v> {
    /// What happened to the row.
    pub kind: RowKind,
    /// The stored indices and messages (several for a merge).
    pub stored: &'v [(usize, &'v Value)],
    /// The replay index and message.
    pub replay: Option<(usize, &'v Value)>,
    /// For a moved-away marker: where the message was sent.
    pub moved_to: Option<usize>,
}

/// The sections of a row's comparison.
///
/// - dropped: each stored message, all fields removed;
/// - inserted: the replay message, all fields added;
/// - unchanged: the message, all fields as context;
/// - modified: the changed paths (the whole message as context when only the provenance
///   changed);
/// - moved: a heading naming where it was stored, then as modified;
/// - merged: the first member compared with the result, then each later member's fields
///   that differ from the first;
/// - moved away: a heading only.
pub fn sections<'v>(row: RowValues<'v>, options: &Options) -> Vec<Section<'v>> {
    let first = row.stored.first().copied();
    let one = |heading, lines, old, new, sides| Section {
        heading,
        lines,
        old,
        new,
        sides,
    };
    match (row.kind, row.replay, first) {
        (RowKind::MovedFrom, _, _) => vec![one(
            Heading::MovedAway {
                stored: first.map(|(s, _)| s).unwrap_or_default(),
                to: row.moved_to,
            },
            Vec::new(),
            first.map(|(_, v)| v),
            None,
            None,
        )],
        (RowKind::Dropped, _, _) | (_, None, _) => row
            .stored
            .iter()
            .map(|&(s, v)| {
                one(
                    Heading::NotSent { stored: s },
                    listing(v, Sign::Removed, options),
                    Some(v),
                    None,
                    None,
                )
            })
            .collect(),
        (_, Some((_, new)), None) | (RowKind::Inserted, Some((_, new)), _) => vec![one(
            Heading::Synthesized,
            listing(new, Sign::Added, options),
            None,
            Some(new),
            None,
        )],
        (RowKind::Same, Some((_, new)), Some((_, old))) => vec![one(
            Heading::Plain,
            listing(new, Sign::Context, options),
            Some(old),
            Some(new),
            None,
        )],
        (RowKind::Modified | RowKind::Moved, Some((r, new)), Some((s, old))) => {
            let heading = if row.kind == RowKind::Moved {
                Heading::MovedHere { from: s, to: r }
            } else {
                Heading::Plain
            };
            let lines = diff(old, new, options);
            let (lines, sides) = if lines.is_empty() {
                (listing(new, Sign::Context, options), None)
            } else {
                (lines, Some((s, r)))
            };
            vec![one(heading, lines, Some(old), Some(new), sides)]
        }
        (RowKind::Merged, Some((r, new)), Some((s, old))) => {
            let mut out = vec![one(
                Heading::Merged {
                    stored: row.stored.iter().map(|&(i, _)| i).collect(),
                    replay: r,
                },
                diff(old, new, options),
                Some(old),
                Some(new),
                Some((s, r)),
            )];
            for &(k, v) in &row.stored[1..] {
                out.push(one(
                    Heading::MergedIn { stored: k, first: s },
                    listing_except(v, Some(old), Sign::Context, options),
                    Some(v),
                    Some(v),
                    None,
                ));
            }
            out
        }
    }
}

#[cfg(test)]
mod tests;
