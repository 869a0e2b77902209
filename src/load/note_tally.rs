//! Aggregated diagnostics for another agent's session: one note or warning per kind, not
//! one per line ("`event_msg` line ×12 (line 2, line 5, … and 4 more): …"). Counts are of
//! lines or items (a Codex `compacted` line can hold many items); each line is listed once.

use std::collections::HashMap;
use std::path::Path;

use crate::model::{Diagnostic, Location, Severity};

/// How many lines (and sub-kinds) a diagnostic lists before it says "and N more".
const LISTED: usize = 8;

#[derive(Debug)]
struct Kind {
    severity: Severity,
    name: String,
    what: String,
    count: usize,
    locations: Vec<Location>,
    details: Vec<(String, usize)>,
}

/// Diagnostics collected per kind, in first-seen order.
#[derive(Debug, Default)]
pub(crate) struct NoteTally {
    kinds: Vec<Kind>,
    index: HashMap<String, usize>,
}

impl NoteTally {
    /// Count one line or item under a note kind; `what` ends the sentence.
    pub(crate) fn note(&mut self, kind: &str, what: &str, at: Location) {
        self.add(Severity::Note, kind, what, at, None);
    }

    /// As [`NoteTally::note`], also counting a sub-kind (e.g. the `event_msg` payload type).
    pub(crate) fn note_detail(&mut self, kind: &str, what: &str, at: Location, detail: &str) {
        self.add(Severity::Note, kind, what, at, Some(detail));
    }

    /// Count one line or item under a warning kind (an odd shape the mapping had to guess).
    pub(crate) fn warn(&mut self, kind: &str, what: &str, at: Location) {
        self.add(Severity::Warning, kind, what, at, None);
    }

    fn add(&mut self, severity: Severity, kind: &str, what: &str, at: Location, detail: Option<&str>) {
        let i = match self.index.get(kind) {
            Some(&i) => i,
            None => {
                self.index.insert(kind.to_owned(), self.kinds.len());
                self.kinds.push(Kind {
                    severity,
                    name: kind.to_owned(),
                    what: what.to_owned(),
                    count: 0,
                    locations: Vec::new(),
                    details: Vec::new(),
                });
                self.kinds.len() - 1
            }
        };
        let Some(k) = self.kinds.get_mut(i) else { return };
        k.count += 1;
        if k.locations.last() != Some(&at) {
            k.locations.push(at);
        }
        if let Some(d) = detail {
            match k.details.iter_mut().find(|(name, _)| name == d) {
                Some((_, n)) => *n += 1,
                None => k.details.push((d.to_owned(), 1)),
            }
        }
    }

    /// One diagnostic per kind, in the order the kinds were first seen.
    pub(crate) fn into_diagnostics(self, path: &Path) -> Vec<Diagnostic> {
        self.kinds
            .into_iter()
            .map(|k| {
                let listed: Vec<String> = k.locations.iter().take(LISTED).map(ToString::to_string).collect();
                let rest = more(k.locations.len());
                let mut message = if k.count == 1 {
                    format!("{}: {}", k.name, k.what)
                } else {
                    format!("{} ×{} ({}{rest}): {}", k.name, k.count, listed.join(", "), k.what)
                };
                if !k.details.is_empty() {
                    let shown: Vec<String> = k
                        .details
                        .iter()
                        .take(LISTED)
                        .map(|(name, n)| format!("{name} ×{n}"))
                        .collect();
                    message.push_str(&format!("; by type: {}{}", shown.join(", "), more(k.details.len())));
                }
                Diagnostic {
                    file: path.to_owned(),
                    location: k.locations.first().copied(),
                    severity: k.severity,
                    message,
                }
            })
            .collect()
    }
}

fn more(n: usize) -> String {
    if n > LISTED {
        format!(" and {} more", n - LISTED)
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_diagnostic_per_kind_with_capped_lists_and_details() {
        let mut t = NoteTally::default();
        for n in 1..=10 {
            t.note_detail(
                "`event_msg` line",
                "UI events",
                Location::Line(n),
                if n % 2 == 0 { "a" } else { "b" },
            );
        }
        t.warn("odd", "guessed", Location::Line(4));
        t.note("`ghost_snapshot` item", "snapshots", Location::Line(7));
        t.note("`ghost_snapshot` item", "snapshots", Location::Line(7));
        let d = t.into_diagnostics(Path::new("r.jsonl"));
        assert_eq!(d.len(), 3);
        assert_eq!(
            d[0].message,
            "`event_msg` line ×10 (line 1, line 2, line 3, line 4, line 5, line 6, line 7, line 8 and 2 more): \
             UI events; by type: b ×5, a ×5"
        );
        assert_eq!(d[0].severity, Severity::Note);
        assert_eq!(d[1].severity, Severity::Warning);
        assert_eq!(d[1].location, Some(Location::Line(4)));
        assert_eq!(d[2].message, "`ghost_snapshot` item ×2 (line 7): snapshots");
        let mut one = NoteTally::default();
        one.note("`summary` line", "a title", Location::Line(20));
        let d = one.into_diagnostics(Path::new("s.jsonl"));
        assert_eq!(d[0].message, "`summary` line: a title");
        assert_eq!(d[0].location, Some(Location::Line(20)));
    }
}
