//! Wrapping styled document lines to a column width, breaking at spaces where possible.
//! Text is handled as grapheme clusters, so an emoji sequence or a VS16 presentation selector
//! stays whole and is counted at the width a terminal draws it. A skin-tone modifier is the
//! exception: terminals disagree on its width (tmux 3.3 draws `👍🏽` in four columns, most
//! terminals in two), and drawn as one two-column cell it was lost where the next cell was
//! written, so it gets its own cell after its base and is always seen.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use super::describe::{DocLine, Seg};
use super::theme::{Role, Theme};

/// A grapheme cluster, its style, and whether a line may start at it: [`BREAK`] without
/// breaking a word (after a space) or a rule tag (at the tag's start), [`SOFT`] inside a path or
/// id (after `/`, `-`, `_` or `.`), used when a word is longer than the line.
type Styled<'l> = (&'l str, Style, u8);

/// A line may start here without breaking a word.
const BREAK: u8 = 2;
/// A line may start here inside a word, after a separator of a path or id.
const SOFT: u8 = 1;

/// The styled grapheme clusters of a line: segment roles patched with diff emphasis.
fn styled_graphemes<'l>(line: &'l DocLine, theme: &Theme) -> Vec<Styled<'l>> {
    let mut out: Vec<Styled<'l>> = Vec::new();
    let mut at = 0usize;
    let whole = line.whole.map(|r| theme.style(r));
    for seg in &line.segs {
        let base = theme.style(seg.role);
        let tag = seg.role == Role::RuleTag;
        for (i, g) in seg.text.grapheme_indices(true) {
            let prev = out.last().map(|(prev, _, _)| *prev);
            let after_space = prev == Some(" ");
            let breaks = if after_space || (tag && i == 0 && !g.starts_with(' ')) {
                BREAK
            } else if prev.is_some_and(|p| matches!(p, "/" | "-" | "_" | "." | "\\")) && g != " " {
                SOFT
            } else {
                0
            };
            let mut style = base;
            if let Some(w) = whole
                && seg.role != Role::RuleTag
            {
                style = style.patch(w);
            }
            if let Some((_, role)) = line.emph.iter().find(|(r, _)| r.contains(&(at + i))) {
                style = style.patch(theme.style(*role));
            }
            match g.char_indices().find(|&(at, c)| at > 0 && is_skin_tone(c)) {
                Some((at, _)) => {
                    out.push((&g[..at], style, breaks));
                    out.push((&g[at..], style, 0));
                }
                None => out.push((g, style, breaks)),
            }
        }
        at += seg.text.len();
    }
    out
}

/// The Fitzpatrick skin-tone modifiers U+1F3FB–U+1F3FF.
fn is_skin_tone(c: char) -> bool {
    ('\u{1f3fb}'..='\u{1f3ff}').contains(&c)
}

/// Wrap one document line to `width` columns (at least one visual line, even when empty).
pub fn wrap_line(line: &DocLine, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let graphemes = styled_graphemes(line, theme);
    wrap_graphemes(&graphemes, width.max(1))
}

/// Wrap segments (a header) to `width` columns.
pub fn wrap_segs(segs: &[Seg], width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let line = DocLine {
        segs: segs.to_vec(),
        ..DocLine::default()
    };
    wrap_line(&line, width, theme)
}

fn wrap_graphemes(graphemes: &[Styled<'_>], width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut start = 0;
    while start < graphemes.len() {
        let mut cols = 0;
        let mut end = start;
        // The last place after `start` where a line may begin without breaking a word or a tag,
        // and the last inside a path or id.
        let (mut last_break, mut last_soft) = (None, None);
        while end < graphemes.len() {
            if end > start && graphemes[end].2 == BREAK {
                last_break = Some(end);
            }
            if end > start && graphemes[end].2 == SOFT {
                last_soft = Some(end);
            }
            let w = graphemes[end].0.width();
            if cols + w > width {
                break;
            }
            cols += w;
            end += 1;
        }
        if end == start {
            end = start + 1;
        } else if end < graphemes.len()
            && graphemes[end].2 != BREAK
            && let Some(at) = last_break.or(last_soft)
        {
            // Break before the word or tag that does not fit; one longer than a line breaks
            // after its last separator that fits (`/`, `-`, `_`, `.`), else is cut.
            end = at;
        }
        lines.push(to_line(&graphemes[start..end]));
        start = end;
    }
    if lines.is_empty() {
        lines.push(Line::default());
    }
    lines
}

fn to_line(graphemes: &[Styled<'_>]) -> Line<'static> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut text = String::new();
    let mut style = None;
    for &(g, s, _) in graphemes {
        // A skin tone starts a span of its own, so it is drawn as a cell of its own.
        let own_cell = g.starts_with(is_skin_tone);
        if style != Some(s) || own_cell {
            if let Some(prev) = style
                && !text.is_empty()
            {
                spans.push(Span::styled(std::mem::take(&mut text), prev));
            }
            style = Some(s);
        }
        text.push_str(g);
    }
    if let Some(s) = style
        && !text.is_empty()
    {
        spans.push(Span::styled(text, s));
    }
    Line::from(spans)
}

/// `line` with every skin-tone modifier in a span of its own (see the module doc), for lines
/// not laid out by [`wrap_line`] (the highlighted JSON of the detail pane).
pub fn separate_skin_tones(line: Line<'static>) -> Line<'static> {
    if !line.spans.iter().any(|s| s.content.chars().skip(1).any(is_skin_tone)) {
        return line;
    }
    let mut spans = Vec::with_capacity(line.spans.len() + 2);
    for span in line.spans {
        let mut rest: &str = &span.content;
        while let Some((at, _)) = rest.char_indices().find(|&(at, c)| at > 0 && is_skin_tone(c)) {
            spans.push(Span::styled(rest[..at].to_owned(), span.style));
            rest = &rest[at..];
            let len = rest.chars().next().map_or(0, char::len_utf8);
            spans.push(Span::styled(rest[..len].to_owned(), span.style));
            rest = &rest[len..];
        }
        if !rest.is_empty() {
            spans.push(Span::styled(rest.to_owned(), span.style));
        }
    }
    Line { spans, ..line }
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

    #[test]
    fn a_rule_tag_or_a_word_is_never_broken_when_it_fits_on_a_line() {
        let theme = Theme::plain();
        let segs = vec![
            Seg::new("#3 [tool] id=call_1", Role::Text),
            Seg::new(" ", Role::Text),
            Seg::new("‹tool-result-details›", Role::RuleTag),
        ];
        let lines = texts(&wrap_segs(&segs, 30, &theme));
        assert_eq!(lines, ["#3 [tool] id=call_1 ", "‹tool-result-details›"]);
        let glued = vec![
            Seg::new("#3 [tool]", Role::Text),
            Seg::new("‹tool-result-details›", Role::RuleTag),
        ];
        assert_eq!(
            texts(&wrap_segs(&glued, 25, &theme)),
            ["#3 [tool]", "‹tool-result-details›"]
        );
        let words = DocLine::plain("alpha beta gamma_delta_epsilon", Role::Text);
        assert_eq!(
            texts(&wrap_line(&words, 20, &theme)),
            ["alpha beta ", "gamma_delta_epsilon"]
        );
    }

    #[test]
    fn a_path_or_id_longer_than_a_line_breaks_after_a_separator() {
        let theme = Theme::plain();
        let path = DocLine::plain("open /work/app/src/components/InvoiceTable.tsx now", Role::Text);
        assert_eq!(
            texts(&wrap_line(&path, 20, &theme)),
            ["open ", "/work/app/src/", "components/", "InvoiceTable.tsx now"]
        );
        let id = DocLine::plain("call_01HZX9-abcdefghij_klmnop", Role::Text);
        assert_eq!(
            texts(&wrap_line(&id, 14, &theme)),
            ["call_01HZX9-", "abcdefghij_", "klmnop"]
        );
    }

    #[test]
    fn emoji_sequences_stay_whole_and_count_as_drawn() {
        let theme = Theme::plain();
        // A ZWJ family and a VS16 heart: 2 columns each, never split; a skin tone is a cell of
        // its own after its base (2 + 2 columns).
        let text = "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}\u{1f44b}\u{1f3fd}\u{2764}\u{fe0f}ab";
        let lines = texts(&wrap_line(&DocLine::plain(text, Role::Text), 4, &theme));
        assert_eq!(lines.concat(), text, "no code point lost");
        assert_eq!(
            lines,
            [
                "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}\u{1f44b}",
                "\u{1f3fd}\u{2764}\u{fe0f}",
                "ab"
            ]
        );
        for l in &lines {
            assert!(l.width() <= 4, "{l:?} is {} columns", l.width());
        }
    }

    #[test]
    fn a_skin_tone_is_drawn_in_a_cell_of_its_own() {
        use ratatui::buffer::Buffer;
        use ratatui::layout::Rect;
        use ratatui::widgets::{Paragraph, Widget};
        let theme = Theme::plain();
        let line = &wrap_line(&DocLine::plain("ok \u{1f44d}\u{1f3fd}!", Role::Text), 20, &theme)[0];
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 1));
        Paragraph::new(line.clone()).render(buf.area, &mut buf);
        let cells: Vec<&str> = (0..8).map(|x| buf[(x, 0)].symbol()).collect();
        // The terminal gets the base, a cursor move, then the modifier: a terminal that draws
        // the pair wider than two columns can no longer overwrite the modifier.
        assert_eq!(cells, ["o", "k", " ", "\u{1f44d}", " ", "\u{1f3fd}", " ", "!"]);
        let json = separate_skin_tones(Line::from("\"\u{1f44d}\u{1f3fd}\u{1f3fd}x\""));
        let texts: Vec<&str> = json.spans.iter().map(|s| &*s.content).collect();
        assert_eq!(texts, ["\"\u{1f44d}", "\u{1f3fd}", "\u{1f3fd}x\""]);
    }
}
