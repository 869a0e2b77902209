//! Moving around the main view (rewrite jumps, clicks, Esc), retargeting, and the count
//! wording shared by the inspector's messages.

use replaylens::policy::Target;
use replaylens::rule_set::RULE_SETS;

use super::{App, Pane};
use crate::tui::inspection::Inspection;
use crate::tui::rows::Row;
use crate::tui::search::Filter;

/// `1 row`, `2 rows`, `0 rows`.
pub fn plural(n: usize, noun: &str) -> String {
    format!("{n} {}", noun_for(n, noun))
}

/// The noun for a count: `row` for one, else `rows`.
pub fn noun_for(n: usize, noun: &str) -> String {
    if n == 1 { noun.to_owned() } else { format!("{noun}s") }
}

impl App {
    /// Focus the rows pane; the detail pane, left, scrolls back to its top.
    pub fn focus_rows(&mut self) {
        if self.focus != Pane::Rows {
            self.detail_scroll = 0;
        }
        self.focus = Pane::Rows;
    }

    /// Esc in the main view: leave the detail pane, else clear the search and the filter,
    /// else say how to quit. It never quits, so a second Esc after closing a picker is safe.
    pub fn back(&mut self) {
        if self.focus == Pane::Detail {
            self.focus_rows();
        } else if self.search.is_some() || self.filter != Filter::All {
            self.search = None;
            if self.filter == Filter::All {
                self.status = Some("search cleared".into());
            } else {
                self.set_filter(Filter::All);
                self.status = Some(format!(
                    "search and filter cleared ({})",
                    plural(self.view.len(), "row")
                ));
            }
        } else {
            self.status = Some("press q to quit".into());
        }
    }

    pub(super) fn jump_rewrite(&mut self, forward: bool) {
        let found = self.find_row(forward, |_, row| row.is_rewritten());
        match found {
            Some(p) => self.select(p),
            None => {
                self.status = Some(
                    if forward {
                        "no later rewrite"
                    } else {
                        "no earlier rewrite"
                    }
                    .into(),
                )
            }
        }
    }

    /// The next (or previous) position in the view whose row satisfies `hit`.
    pub(in crate::tui) fn find_row(&self, forward: bool, hit: impl Fn(&Inspection, &Row) -> bool) -> Option<usize> {
        let insp = self.insp.as_ref()?;
        let matches = |p: &usize| hit(insp, &self.rows[self.view[*p]]);
        if forward {
            (self.selected + 1..self.view.len()).find(matches)
        } else {
            (0..self.selected).rev().find(matches)
        }
    }

    /// Select the next (previous) row holding a user message on either side.
    pub(in crate::tui) fn jump_turn(&mut self, forward: bool) {
        let user = |insp: &Inspection, row: &Row| {
            let stored = row.stored.iter().filter_map(|&s| insp.stored(s));
            let replay = row.replay.and_then(|j| insp.replayed(j));
            stored.chain(replay).any(|m| m.role() == replaylens::model::Role::User)
        };
        match self.find_row(forward, user) {
            Some(p) => self.select(p),
            None => {
                self.status = Some(
                    if forward {
                        "no later user turn"
                    } else {
                        "no earlier user turn"
                    }
                    .into(),
                );
            }
        }
    }

    /// Select the row at screen line `y` of the rows area (mouse click).
    pub fn click(&mut self, y: u16) {
        let area = self.areas().rows;
        if y < area.y || y >= area.y + area.height {
            return;
        }
        let mut line = area.y;
        let mut pos = self.top;
        while pos < self.view.len() {
            let h = u16::try_from(self.row_height(self.view[pos])).unwrap_or(u16::MAX);
            if y < line.saturating_add(h) {
                self.focus_rows();
                self.select(pos);
                return;
            }
            line = line.saturating_add(h);
            pos += 1;
        }
    }

    /// Re-project for a new target (in the background; the selection stays on the same
    /// stored message when the result arrives).
    pub fn retarget(&mut self, target: Target) {
        let Some(options) = self.insp.as_ref().map(|i| i.options.clone()) else {
            return;
        };
        self.start_reproject(target, options);
    }

    /// Replay with the next OpenClaw rule set (newest → 2026.9.6 → …), keeping the target.
    pub fn cycle_rule_set(&mut self) {
        let at = RULE_SETS
            .iter()
            .position(|s| std::ptr::eq(*s, self.rule_set))
            .unwrap_or(0);
        self.rule_set = RULE_SETS[(at + 1) % RULE_SETS.len()];
        self.rule_set_chosen = true;
        let Some(insp) = &self.insp else { return };
        let mut options = insp.options.clone();
        options.rule_set = self.rule_set;
        let requested = insp.requested.clone();
        self.start_reproject(requested, options);
    }
}
