//! What the overlays draw with: a centred popup that scrolls to a focus line and marks every
//! cut (`…` below, `↑ N more above` on its bottom border), list entries, a picker's filter
//! line.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use replaylens::text::escape_controls_single_line;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::{Input, one_line};
use crate::tui::action::OverlayAction;
use crate::tui::app::noun_for;
use crate::tui::theme::{Role, Theme};

/// Widest a popup gets; the session picker, with its counts column, may be wider.
pub const POPUP_MAX_W: u16 = 110;
/// Widest the session picker gets.
pub const SESSIONS_MAX_W: u16 = 140;

/// A picker's first line: what is typed (with a cursor while typing goes into it; before `/`,
/// how to start), then how many entries match.
pub fn filter_line(theme: &Theme, filter: &str, typing: bool, count: String) -> Line<'static> {
    let typed = escape_controls_single_line(filter);
    let (text, role) = match (typing, filter.is_empty()) {
        (true, _) => (format!("{typed}▏"), Role::Text),
        (false, true) => (
            "/ to filter · j/k move · Enter opens · q closes".to_owned(),
            Role::Muted,
        ),
        (false, false) => (format!("{typed}  (/ edits)"), Role::Text),
    };
    Line::from(vec![
        Span::styled("filter: ", theme.style(Role::Title)),
        Span::styled(text, theme.style(role)),
        Span::styled(count, theme.style(Role::Muted)),
    ])
}

/// What a picker's filter made of an input ([`filter_input`]).
pub enum FilterStep {
    /// The filter text changed: match the entries again.
    Edited,
    /// Taken, nothing more to do.
    Taken,
    /// Close the picker.
    Close,
    /// Move the selection by this many entries.
    Move(isize),
    /// Not a filter key: the picker's own to handle.
    Other(Input),
}

/// The filter keys every picker shares. Characters filter only after `/`; before it `q`
/// closes, `j`/`k` move and any other character does nothing. Backspace, clear and pastes
/// edit the filter either way.
pub fn filter_input(filter: &mut String, typing: &mut bool, input: Input) -> FilterStep {
    match input {
        Input::Action(OverlayAction::DeleteBack) => {
            filter.pop();
            FilterStep::Edited
        }
        Input::Action(OverlayAction::ClearText) => {
            filter.clear();
            FilterStep::Edited
        }
        Input::Char(c) if !*typing => match c {
            '/' => {
                *typing = true;
                FilterStep::Taken
            }
            'q' => FilterStep::Close,
            'j' => FilterStep::Move(1),
            'k' => FilterStep::Move(-1),
            _ => FilterStep::Taken,
        },
        Input::Char(c) => {
            filter.push(c);
            FilterStep::Edited
        }
        Input::Paste(text) => {
            filter.push_str(&one_line(&text));
            FilterStep::Edited
        }
        other => FilterStep::Other(other),
    }
}

/// A list entry, marked and highlighted when selected.
pub fn item_line(theme: &Theme, selected: bool, label: &str) -> Line<'static> {
    let text = format!(
        "{} {}",
        if selected { "▶" } else { " " },
        escape_controls_single_line(label)
    );
    let style = if selected {
        theme.style(Role::Text).patch(theme.style(Role::Selection))
    } else {
        theme.style(Role::Text)
    };
    Line::from(Span::styled(text, style))
}

/// A popup of the usual width, scrolled so that `focus_line` is in view.
pub fn popup(
    theme: &Theme,
    frame: &mut Frame<'_>,
    screen: Rect,
    title: &str,
    lines: Vec<Line<'static>>,
    focus_line: usize,
) {
    let area = centred(screen, POPUP_MAX_W, lines.len());
    popup_at(theme, frame, area, title, lines, focus_line);
}

/// A popup's height on a screen for `lines` lines of content.
pub fn popup_height(screen: Rect, lines: usize) -> u16 {
    let want = u16::try_from(lines + 2).unwrap_or(u16::MAX);
    want.min(screen.height.saturating_sub(4)).max(3.min(screen.height))
}

/// A popup's width on a screen.
pub fn popup_width(screen: Rect, max_w: u16) -> u16 {
    screen.width.saturating_sub(8).clamp(20.min(screen.width), max_w)
}

/// The area of a popup at most `max_w` wide for `lines` lines, centred on the screen.
pub fn centred(screen: Rect, max_w: u16, lines: usize) -> Rect {
    let w = popup_width(screen, max_w);
    let h = popup_height(screen, lines);
    Rect::new(
        screen.x + (screen.width - w) / 2,
        screen.y + (screen.height - h) / 2,
        w,
        h,
    )
}

/// A popup in `area`, scrolled so that `focus_line` is in view.
pub fn popup_at(
    theme: &Theme,
    frame: &mut Frame<'_>,
    area: Rect,
    title: &str,
    lines: Vec<Line<'static>>,
    focus_line: usize,
) {
    let inner_h = usize::from(area.height.saturating_sub(2));
    let inner_w = usize::from(area.width.saturating_sub(2));
    frame.render_widget(Clear, area);
    // Every cut is marked: lines and the title end in `…` where they meet the border, and
    // when lines are left below, the last line says how many.
    let total = lines.len();
    let (scroll, room) = if total <= inner_h {
        (0, inner_h)
    } else {
        let room = inner_h.saturating_sub(1);
        let scroll = focus_line.saturating_sub(room.saturating_sub(1));
        if scroll + room >= total {
            (total - inner_h, inner_h)
        } else {
            (scroll, room)
        }
    };
    let below = total.saturating_sub(scroll + room);
    let mut shown: Vec<Line<'static>> = lines
        .into_iter()
        .skip(scroll)
        .take(room)
        .map(|l| Line {
            spans: fit_spans(l.spans, inner_w),
            ..l
        })
        .collect();
    if below > 0 {
        let more = format!("… {below} more {}", noun_for(below, "line"));
        shown.push(Line::from(fit_spans(
            vec![Span::styled(more, theme.style(Role::Placeholder))],
            inner_w,
        )));
    }
    let title = fit_spans(vec![Span::styled(title.to_owned(), theme.style(Role::Title))], inner_w);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style(Role::BorderFocus))
        .title(Line::from(title))
        .style(theme.style(Role::Text));
    // Scrolled down: the bottom border says how much is above (a picker's filter line too).
    if scroll > 0 {
        let above = format!(" ↑ {scroll} more above ");
        block = block.title_bottom(Line::from(Span::styled(above, theme.style(Role::Placeholder))).right_aligned());
    }
    frame.render_widget(Paragraph::new(shown).block(block), area);
}

/// Cut spans to `width` columns at a grapheme-cluster boundary, marking the cut with `…`
/// (spans that fit are returned as they are).
pub fn fit_spans(spans: Vec<Span<'static>>, width: usize) -> Vec<Span<'static>> {
    if spans.iter().map(|s| s.content.width()).sum::<usize>() <= width {
        return spans;
    }
    let mut out = Vec::with_capacity(spans.len());
    let mut used = 0;
    for span in spans {
        let w = span.content.width();
        if used + w < width {
            used += w;
            out.push(span);
            continue;
        }
        let mut text = String::new();
        for g in span.content.graphemes(true) {
            let gw = g.width();
            if used + gw + 1 > width {
                break;
            }
            text.push_str(g);
            used += gw;
        }
        text.push('…');
        out.push(Span::styled(text, span.style));
        break;
    }
    out
}

/// Columns inside the popup's border.
pub fn inner_width(screen: Rect) -> usize {
    usize::from(popup_width(screen, POPUP_MAX_W).saturating_sub(2))
}

/// Text broken between words into lines of at most `width` columns (a longer word is cut).
pub fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    let mut line = String::new();
    let mut used = 0;
    for word in text.split(' ') {
        let w: usize = word.chars().map(|c| c.width().unwrap_or(0)).sum();
        if used > 0 && used + 1 + w > width {
            out.push(std::mem::take(&mut line));
            used = 0;
        } else if used > 0 {
            line.push(' ');
            used += 1;
        }
        for c in word.chars() {
            let cw = c.width().unwrap_or(0);
            if used + cw > width {
                out.push(std::mem::take(&mut line));
                used = 0;
            }
            line.push(c);
            used += cw;
        }
    }
    out.push(line);
    out
}

#[cfg(test)]
mod wrap_tests {
    use super::wrap_words;

    #[test]
    fn words_wrap_between_words_and_long_ones_are_cut() {
        assert_eq!(wrap_words("ab cd ef", 5), ["ab cd", "ef"]);
        assert_eq!(wrap_words("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(wrap_words("", 3), [""]);
    }
}
