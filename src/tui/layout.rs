//! Screen areas, computed the same way for drawing, scrolling and mouse hit-testing.

use ratatui::layout::Rect;

/// Columns of the row gutter: selection marker, rewrite marker, space.
pub const GUTTER: u16 = 3;
/// Columns of the separator between the two sides.
pub const SEPARATOR: u16 = 3;

/// The areas of the main screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Areas {
    /// Header (session, target, counts).
    pub header: Rect,
    /// Column titles.
    pub titles: Rect,
    /// The aligned rows.
    pub rows: Rect,
    /// The detail pane (zero height when hidden).
    pub detail: Rect,
    /// Status bar.
    pub status: Rect,
}

impl Areas {
    /// Split the screen.
    pub fn new(screen: Rect, show_detail: bool) -> Self {
        let header_h = 2.min(screen.height);
        let status_h = u16::from(screen.height > header_h);
        let middle = screen.height.saturating_sub(header_h + status_h);
        let titles_h = 1.min(middle);
        let body = middle - titles_h;
        let detail_h = if show_detail && body >= 12 { body * 2 / 5 } else { 0 };
        let rows_h = body - detail_h;
        let at = |y: u16, h: u16| Rect::new(screen.x, screen.y + y, screen.width, h);
        Self {
            header: at(0, header_h),
            titles: at(header_h, titles_h),
            rows: at(header_h + titles_h, rows_h),
            detail: at(header_h + titles_h + rows_h, detail_h),
            status: at(header_h + middle, status_h),
        }
    }

    /// Width of each side's text column.
    pub fn side_width(&self) -> usize {
        usize::from(self.rows.width.saturating_sub(GUTTER + SEPARATOR) / 2).max(4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas_fill_the_screen() {
        let a = Areas::new(Rect::new(0, 0, 120, 40), true);
        assert_eq!(
            a.header.height + a.titles.height + a.rows.height + a.detail.height + a.status.height,
            40
        );
        assert_eq!(a.side_width(), 57);
        let small = Areas::new(Rect::new(0, 0, 40, 3), true);
        assert_eq!(small.detail.height, 0);
    }
}
