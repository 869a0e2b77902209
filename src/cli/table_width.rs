//! Text tables that fit the terminal: `COLUMNS` when set, else the terminal's width when
//! standard output is one; piped output without `COLUMNS` is not cut (`--format json` never).

use std::io::IsTerminal;

pub use replaylens::text::cut_middle;

/// The width to fit text tables to, if any.
pub fn limit() -> Option<usize> {
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        && n > 0
    {
        return Some(n);
    }
    if std::io::stdout().is_terminal() {
        return ratatui::crossterm::terminal::size().ok().map(|(w, _)| usize::from(w));
    }
    None
}

/// Shrink `widths` so that the columns and their `gap`s fit `limit`: the `flexible` columns
/// (index, narrowest) give way in that order, each down to its narrowest.
pub fn shrink(widths: &mut [usize], gap: usize, limit: usize, flexible: &[(usize, usize)]) {
    let total = |w: &[usize]| w.iter().sum::<usize>() + gap * w.len().saturating_sub(1);
    for &(col, narrowest) in flexible {
        let over = total(widths).saturating_sub(limit);
        if over == 0 {
            return;
        }
        let w = &mut widths[col];
        *w -= over.min(w.saturating_sub(narrowest));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_in_the_middle_and_shrinks_in_order() {
        assert_eq!(cut_middle("/home/user/sessions/abc.jsonl", 15), "/home/u…c.jsonl");
        assert_eq!(cut_middle("short", 15), "short");
        let mut w = [10, 40, 30];
        shrink(&mut w, 2, 60, &[(1, 20), (2, 10)]);
        assert_eq!(w, [10, 20, 26]);
        assert_eq!(w.iter().sum::<usize>() + 4, 60);
    }
}
