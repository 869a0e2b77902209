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

/// `text` broken into lines of at most `width` columns after a `/` (inside a part longer than
/// the width, anywhere), the lines after the first indented by `indent` more.
pub fn wrap_path(text: &str, width: usize, indent: usize) -> Vec<String> {
    let mut lines: Vec<String> = vec![String::new()];
    let room = |n: usize| {
        if n == 0 {
            width
        } else {
            width.saturating_sub(indent).max(8)
        }
    };
    let mut pieces: Vec<String> = Vec::new();
    for part in text.split_inclusive('/') {
        pieces.push(part.to_owned());
    }
    for piece in pieces {
        let n = lines.len() - 1;
        if replaylens::text::display_width(&lines[n]) + replaylens::text::display_width(&piece) <= room(n) {
            lines[n].push_str(&piece);
            continue;
        }
        if !lines[n].is_empty() {
            lines.push(String::new());
        }
        for ch in piece.chars() {
            let n = lines.len() - 1;
            if replaylens::text::display_width(&lines[n]) + replaylens::text::display_width(ch.encode_utf8(&mut [0; 4]))
                > room(n)
            {
                lines.push(String::new());
            }
            let n = lines.len() - 1;
            lines[n].push(ch);
        }
    }
    lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                l
            } else {
                format!("{}{l}", " ".repeat(indent))
            }
        })
        .collect()
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

    #[test]
    fn paths_break_after_a_slash_and_keep_every_character() {
        let path = "/work/shared/samples/codex/sessions/2026/01/02/rollout-2026-01-02T03-04-05.jsonl";
        let lines = wrap_path(path, 40, 2);
        assert_eq!(
            lines,
            [
                "/work/shared/samples/codex/sessions/",
                "  2026/01/02/",
                "  rollout-2026-01-02T03-04-05.jsonl"
            ]
        );
        assert!(lines.iter().all(|l| l.chars().count() <= 40));
        let long = "x".repeat(50);
        assert_eq!(wrap_path(&long, 20, 2).concat().replace(' ', ""), long);
    }
}
