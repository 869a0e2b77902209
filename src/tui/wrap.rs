//! Wrapping styled document lines to a column width, breaking at spaces where possible.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

use super::describe::{DocLine, Seg};
use super::theme::{Role, Theme};

/// The styled characters of a line: segment roles patched with diff emphasis.
fn styled_chars(line: &DocLine, theme: &Theme) -> Vec<(char, Style)> {
    let mut out = Vec::new();
    let mut at = 0usize;
    let whole = line.whole.map(|r| theme.style(r));
    for seg in &line.segs {
        let base = theme.style(seg.role);
        for c in seg.text.chars() {
            let mut style = base;
            if let Some(w) = whole
                && seg.role != Role::RuleTag
            {
                style = style.patch(w);
            }
            if let Some((_, role)) = line.emph.iter().find(|(r, _)| r.contains(&at)) {
                style = style.patch(theme.style(*role));
            }
            out.push((c, style));
            at += c.len_utf8();
        }
    }
    out
}

/// Wrap one document line to `width` columns (at least one visual line, even when empty).
pub fn wrap_line(line: &DocLine, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let chars = styled_chars(line, theme);
    wrap_chars(&chars, width.max(1))
}

/// Wrap segments (a header) to `width` columns.
pub fn wrap_segs(segs: &[Seg], width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let line = DocLine {
        segs: segs.to_vec(),
        ..DocLine::default()
    };
    wrap_line(&line, width, theme)
}

fn wrap_chars(chars: &[(char, Style)], width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let mut cols = 0;
        let mut end = start;
        let mut last_space = None;
        while end < chars.len() {
            let w = chars[end].0.width().unwrap_or(0);
            if cols + w > width {
                break;
            }
            if chars[end].0 == ' ' {
                last_space = Some(end);
            }
            cols += w;
            end += 1;
        }
        if end == start {
            end = start + 1;
        } else if end < chars.len()
            && let Some(space) = last_space
            && space > start
            && space - start >= width / 2
        {
            end = space + 1;
        }
        lines.push(to_line(&chars[start..end]));
        start = end;
    }
    if lines.is_empty() {
        lines.push(Line::default());
    }
    lines
}

fn to_line(chars: &[(char, Style)]) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut text = String::new();
    let mut style = None;
    for &(c, s) in chars {
        if style != Some(s) {
            if let Some(prev) = style
                && !text.is_empty()
            {
                spans.push(Span::styled(std::mem::take(&mut text), prev));
            }
            style = Some(s);
        }
        text.push(c);
    }
    if let Some(s) = style
        && !text.is_empty()
    {
        spans.push(Span::styled(text, s));
    }
    Line::from(spans)
}

/// A single placeholder line (`… 12 more lines`).
pub fn note(text: impl Into<String>, theme: &Theme) -> Line<'static> {
    Line::from(Span::styled(text.into(), theme.style(Role::Placeholder)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn wraps_at_spaces_and_hard_breaks_long_words() {
        let theme = Theme::plain();
        let line = DocLine::plain("the quick brown fox jumps", Role::Text);
        assert_eq!(
            texts(&wrap_line(&line, 10, &theme)),
            ["the quick ", "brown fox ", "jumps"]
        );
        let long = DocLine::plain("abcdefghijkl", Role::Text);
        assert_eq!(texts(&wrap_line(&long, 5, &theme)), ["abcde", "fghij", "kl"]);
        assert_eq!(wrap_line(&DocLine::default(), 5, &theme).len(), 1);
    }
}
