//! Row filter (all, rewritten, one rule) and search across both columns.

use super::app::{App, noun_for, plural};
use super::describe::plain_text;
use super::inspection::Inspection;
use super::rows::Row;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Which rows are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// Every row.
    All,
    /// Only rows with a rewrite.
    Rewritten,
    /// Only rows touched by one rule.
    Rule(&'static str),
}

impl Filter {
    /// Whether a row passes.
    pub fn accepts(self, row: &Row, insp: Option<&Inspection>) -> bool {
        match self {
            Self::All => true,
            Self::Rewritten => row.is_rewritten(),
            Self::Rule(id) => insp.is_some_and(|i| row.rewrites.iter().any(|&r| i.rewrites[r].rule == id)),
        }
    }

    /// Status-bar label.
    pub fn label(self) -> String {
        match self {
            Self::All => "all rows".into(),
            Self::Rewritten => "rewritten rows".into(),
            Self::Rule(id) => format!("rule {id}"),
        }
    }
}

/// A finished search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    /// The query as typed.
    pub query: String,
    /// Matching rows (indices into `rows`), in order.
    pub matches: Vec<usize>,
}

/// `line` with every occurrence of `query` (smart case, as [`matches`]) patched with `style`.
/// A match across a wrapped line's end is not marked.
pub fn highlight(line: Line<'static>, query: &str, style: Style) -> Line<'static> {
    if query.is_empty() {
        return line;
    }
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let fold = !query.chars().any(char::is_uppercase);
    let (hay, needle) = if fold {
        (text.to_lowercase(), query.to_lowercase())
    } else {
        (text.clone(), query.to_owned())
    };
    // Lower-casing that changed byte lengths would shift the ranges: leave such a line.
    if hay.len() != text.len() || needle.is_empty() {
        return line;
    }
    let ranges: Vec<(usize, usize)> = hay.match_indices(&needle).map(|(at, m)| (at, at + m.len())).collect();
    if ranges.is_empty() {
        return line;
    }
    let mut spans = Vec::new();
    let mut at = 0;
    for span in line.spans {
        let end = at + span.content.len();
        let mut cuts = vec![at, end];
        for &(a, b) in &ranges {
            for c in [a, b] {
                if c > at && c < end && text.is_char_boundary(c) {
                    cuts.push(c);
                }
            }
        }
        cuts.sort_unstable();
        cuts.dedup();
        for w in cuts.windows(2) {
            let hit = ranges.iter().any(|&(a, b)| w[0] >= a && w[1] <= b);
            let style = if hit { span.style.patch(style) } else { span.style };
            spans.push(Span::styled(text[w[0]..w[1]].to_owned(), style));
        }
        at = end;
    }
    Line { spans, ..line }
}

/// Smart case: case-insensitive unless the query has an upper-case letter.
pub fn matches(haystack: &str, query: &str) -> bool {
    if query.chars().any(char::is_uppercase) {
        haystack.contains(query)
    } else {
        haystack.to_lowercase().contains(&query.to_lowercase())
    }
}

/// Whether a row's messages hold `query` (smart case): the text as shown, the message's whole
/// JSON (full ids, every field) and the stored entry ids.
fn row_holds(insp: &Inspection, row: &Row, query: &str) -> bool {
    let stored = row.stored.iter().filter_map(|&s| {
        let m = insp.transcript.messages.get(s)?;
        Some((s, &*m.message, m.entry_id.as_deref()))
    });
    let replayed = row.replay.and_then(|j| insp.replayed(j).map(|m| (j, m, None)));
    stored.chain(replayed).any(|(index, message, entry)| {
        entry.is_some_and(|e| matches(e, query))
            || matches(&plain_text(message, index), query)
            || serde_json::to_string(message.as_map()).is_ok_and(|json| matches(&json, query))
    })
}

impl App {
    /// Next filter: all → rewritten → each rule with rewrites → all.
    pub fn cycle_filter(&mut self) {
        let rules: Vec<&'static str> = self
            .insp
            .as_ref()
            .map(|i| i.counts_by_rule().into_keys().collect())
            .unwrap_or_default();
        self.filter = match self.filter {
            Filter::All => Filter::Rewritten,
            Filter::Rewritten => rules.first().map_or(Filter::All, |r| Filter::Rule(r)),
            Filter::Rule(id) => {
                let at = rules.iter().position(|r| *r == id);
                at.and_then(|p| rules.get(p + 1))
                    .map_or(Filter::All, |r| Filter::Rule(r))
            }
        };
        self.set_filter(self.filter);
    }

    /// Apply a filter, keeping the selection on the same row when it stays visible.
    pub fn set_filter(&mut self, filter: Filter) {
        let current = self.view.get(self.selected).copied();
        self.filter = filter;
        self.rebuild_view();
        let pos = current.map_or(0, |c| self.view.iter().position(|&r| r >= c).unwrap_or(0));
        self.top = 0;
        self.selected = 0;
        self.detail_scroll = 0;
        self.row_scroll = 0;
        self.select(pos);
        self.status = Some(format!(
            "filter: {} ({})",
            filter.label(),
            plural(self.view.len(), "row")
        ));
    }

    /// Search both columns (text, JSON and entry ids) for `query` and jump to the first match
    /// after the selection.
    pub fn run_search(&mut self, query: String) {
        let Some(insp) = &self.insp else { return };
        if query.is_empty() {
            self.search = None;
            return;
        }
        let found: Vec<usize> = self
            .rows
            .iter()
            .enumerate()
            .filter(|(_, row)| row_holds(insp, row, &query))
            .map(|(i, _)| i)
            .collect();
        let n = found.len();
        self.search = Some(Search { query, matches: found });
        if n == 0 {
            self.status = Some("no match".into());
            return;
        }
        if self.filter != Filter::All && !self.search_in_view() {
            self.set_filter(Filter::All);
        }
        let current = self.view.get(self.selected).copied().unwrap_or(0);
        if !self.goto_match(|r| r >= current, false) {
            self.goto_match(|_| true, false);
        }
        self.status = Some(self.match_position());
    }

    fn search_in_view(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| s.matches.iter().any(|m| self.view.contains(m)))
    }

    /// Next or previous match; past the last (first) it wraps around and says so.
    pub fn search_step(&mut self, forward: bool) {
        let Some(current) = self.view.get(self.selected).copied() else {
            return;
        };
        if self.search.is_none() {
            self.status = Some("no search: press / first".into());
            return;
        }
        let found = if forward {
            self.goto_match(|r| r > current, false)
        } else {
            self.goto_match(|r| r < current, true)
        };
        let wrapped = !found && self.goto_match(|_| true, !forward);
        if !found && !wrapped {
            self.status = Some("no match in the rows shown".into());
            return;
        }
        let position = self.match_position();
        self.status = Some(match (wrapped, forward) {
            (false, _) => position,
            (true, true) => format!("{position} (wrapped to the top)"),
            (true, false) => format!("{position} (wrapped to the bottom)"),
        });
    }

    /// `match k of n` for the selected row.
    fn match_position(&self) -> String {
        let Some(search) = &self.search else {
            return String::new();
        };
        let current = self.view.get(self.selected).copied();
        let n = search.matches.len();
        match current.and_then(|c| search.matches.binary_search(&c).ok()) {
            Some(k) => format!("match {} of {n}", k + 1),
            None => format!("{n} matching {}", noun_for(n, "row")),
        }
    }

    fn goto_match(&mut self, accept: impl Fn(usize) -> bool, last: bool) -> bool {
        let Some(search) = &self.search else { return false };
        let mut candidates = search.matches.iter().copied().filter(|&m| accept(m));
        let target = if last {
            candidates.next_back()
        } else {
            candidates.next()
        };
        let Some(target) = target else { return false };
        match self.view.iter().position(|&r| r == target) {
            Some(pos) => {
                self.select(pos);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlight_marks_each_occurrence_across_spans() {
        let marked = Style::new().add_modifier(ratatui::style::Modifier::REVERSED);
        let line = Line::from(vec![Span::raw("the Invo"), Span::raw("ice and invoices")]);
        let out = highlight(line, "invoice", marked);
        let hits: Vec<&str> = out
            .spans
            .iter()
            .filter(|s| s.style == marked)
            .map(|s| s.content.as_ref())
            .collect();
        assert_eq!(hits, ["Invo", "ice", "invoice"]);
        let text: String = out.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "the Invoice and invoices");
        let case = highlight(Line::from("invoice Invoice"), "Invoice", marked);
        assert_eq!(case.spans.iter().filter(|s| s.style == marked).count(), 1);
    }

    #[test]
    fn smart_case() {
        assert!(matches("Hello World", "world"));
        assert!(!matches("Hello world", "World"));
        assert!(matches("Hello World", "World"));
    }
}
