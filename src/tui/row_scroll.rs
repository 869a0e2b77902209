//! Reading an expanded message longer than the screen: the selected row scrolls line by
//! line before the selection moves on, and only the part scrolled into view (plus a page)
//! is laid out, so a 50 MB message opens at once.

use super::app::App;
use super::describe::Extent;
use super::row_view;

impl App {
    /// How much of a row (index into `rows`) is laid out: collapsed, or expanded with a
    /// budget of lines covering two screens past what the selected row has scrolled by.
    pub fn extent(&self, row: usize) -> Extent {
        if !self.expanded.contains(&row) {
            return Extent::Collapsed;
        }
        let scrolled = if self.view.get(self.selected) == Some(&row) {
            self.row_scroll
        } else {
            0
        };
        Extent::Expanded(scrolled + 2 * self.page() + 1)
    }

    /// Rows area height in lines.
    pub fn page(&self) -> usize {
        usize::from(self.areas().rows.height).max(1)
    }

    /// Scroll inside the selected expanded row by up to `lines`; false when the row has
    /// nothing more that way (the selection moves instead).
    pub(super) fn scroll_within(&mut self, down: bool, lines: usize) -> bool {
        let Some(&row) = self.view.get(self.selected) else {
            return false;
        };
        if !self.expanded.contains(&row) {
            return false;
        }
        if !down {
            if self.row_scroll == 0 {
                return false;
            }
            self.row_scroll = self.row_scroll.saturating_sub(lines);
            return true;
        }
        let Some(insp) = &self.insp else { return false };
        let width = self.areas().side_width();
        let height = row_view::layout(insp, &self.rows[row], width, self.extent(row), &self.theme).height();
        let room = height.saturating_sub(self.row_scroll + self.page());
        if room == 0 {
            return false;
        }
        self.row_scroll += lines.min(room);
        self.top = self.selected;
        true
    }
}
