//! Overlays: key help (generated from the keymap), rewrites per rule, the profile and
//! session pickers (with each session's counts), and the loading indicator.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use replaylens::text::escape_controls_single_line;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

use crate::tui::app::{App, Mode, noun_for, plural};
use crate::tui::export_dialog::{DIALOG_KEYS, ExportDialog, FORMATS, REDACTIONS, format_label, redaction_label};
use crate::tui::input::OVERLAY_KEYS;
use crate::tui::pickers::{PickerLine, ProfilePicker, SessionPicker};
use crate::tui::scan_state::{COUNTS_WIDTH, Cell};
use crate::tui::theme::Role;

/// Draw whatever overlay the mode asks for, and the loading box.
pub fn draw(app: &App, frame: &mut Frame<'_>, screen: Rect) {
    match &app.mode {
        Mode::Normal | Mode::SearchInput(_) => {}
        Mode::Help(top) => help(app, frame, screen, *top),
        Mode::Summary(sel) => summary(app, frame, screen, *sel),
        Mode::LoadProblems(top) => load_problems(app, frame, screen, *top),
        Mode::Export(d) => export(app, frame, screen, d),
        Mode::Profiles(p) => profiles(app, frame, screen, p),
        Mode::Sessions(p) => sessions(app, frame, screen, p),
    }
    if let Some(loading) = &app.loading {
        // Once the stored side is on screen, the status bar carries the progress instead.
        if app.insp.as_ref().is_some_and(|i| i.pending) {
            return;
        }
        let secs = loading.started.elapsed().as_secs_f32();
        let mut lines = vec![Line::from(vec![
            Span::styled(format!("{} ", spinner(secs)), app.theme.style(Role::Title)),
            Span::styled(
                format!(
                    "{} {} … {secs:.1}s",
                    loading.stage,
                    escape_controls_single_line(&loading.label)
                ),
                app.theme.style(Role::Text),
            ),
        ])];
        let w = screen.width.min(100);
        if loading.total > 0 {
            lines.push(progress_bar(
                loading.read,
                loading.total,
                usize::from(w.saturating_sub(2)),
                &app.theme,
            ));
        }
        let lines: Vec<Line<'static>> = lines
            .into_iter()
            .map(|l| Line::from(fit_spans(l.spans, usize::from(w.saturating_sub(2)))))
            .collect();
        let h = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX).min(screen.height);
        let area = Rect::new(screen.x + (screen.width - w) / 2, screen.y + screen.height / 2, w, h);
        frame.render_widget(Clear, area);
        frame.render_widget(
            Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" loading ")),
            area,
        );
    }
}

/// A picker's first line: what is typed, with a cursor, then how many entries match.
fn filter_line(app: &App, filter: &str, count: String) -> Line<'static> {
    let t = &app.theme;
    Line::from(vec![
        Span::styled("filter: ", t.style(Role::Title)),
        Span::styled(format!("{}▏", escape_controls_single_line(filter)), t.style(Role::Text)),
        Span::styled(count, t.style(Role::Muted)),
    ])
}

/// The profile picker: the filter line, then the matching entries (free entry last), then
/// the `provider api model` prompt when free entry is being typed.
fn profiles(app: &App, frame: &mut Frame<'_>, screen: Rect, p: &ProfilePicker) {
    let t = &app.theme;
    let count = format!(
        "   {} of {}",
        p.matches.len().saturating_sub(1),
        p.items.len().saturating_sub(1)
    );
    let mut lines = vec![filter_line(app, &p.filter, count), Line::default()];
    lines.extend(
        p.matches
            .iter()
            .enumerate()
            .map(|(pos, &i)| item_line(app, pos == p.selected, &p.items[i].label)),
    );
    if let Some(input) = &p.input {
        lines.push(Line::default());
        lines.push(Line::from(vec![
            Span::styled("provider api model: ", t.style(Role::Title)),
            Span::styled(format!("{}▏", escape_controls_single_line(input)), t.style(Role::Text)),
        ]));
    }
    let focus = if p.input.is_some() {
        lines.len() - 1
    } else {
        p.selected + 2
    };
    popup(
        app,
        frame,
        screen,
        " profile: replay target (type to filter · Enter applies) ",
        lines,
        focus,
    );
}

/// The spinner frame for a time since the start.
pub fn spinner(secs: f32) -> &'static str {
    const FRAMES: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let frame_no = (secs * 10.0) as usize % FRAMES.len();
    FRAMES[frame_no]
}

/// `███████░░░░░  45.2 MB of 101.1 MB (44%)` in `width` columns.
fn progress_bar(read: u64, total: u64, width: usize, theme: &crate::tui::theme::Theme) -> Line<'static> {
    let read = read.min(total);
    let label = format!(
        " {} of {} ({}%)",
        replaylens::hygiene::rules::image_ops::human_bytes(usize::try_from(read).unwrap_or(usize::MAX)),
        replaylens::hygiene::rules::image_ops::human_bytes(usize::try_from(total).unwrap_or(usize::MAX)),
        read * 100 / total.max(1)
    );
    let bar_w = width.saturating_sub(label.chars().count()).max(1);
    #[allow(clippy::cast_possible_truncation)]
    let filled = ((u128::from(read) * bar_w as u128) / u128::from(total.max(1))) as usize;
    Line::from(vec![
        Span::styled("█".repeat(filled), theme.style(Role::Title)),
        Span::styled("░".repeat(bar_w - filled), theme.style(Role::Muted)),
        Span::styled(label, theme.style(Role::Text)),
    ])
}

fn item_line(app: &App, selected: bool, label: &str) -> Line<'static> {
    let t = &app.theme;
    let text = format!(
        "{} {}",
        if selected { "▶" } else { " " },
        escape_controls_single_line(label)
    );
    let style = if selected {
        t.style(Role::Text).patch(t.style(Role::Selection))
    } else {
        t.style(Role::Text)
    };
    Line::from(Span::styled(text, style))
}

fn popup(app: &App, frame: &mut Frame<'_>, screen: Rect, title: &str, lines: Vec<Line<'static>>, focus_line: usize) {
    popup_sized(app, frame, screen, POPUP_MAX_W, title, lines, focus_line);
}

/// Widest a popup gets; the session picker, with its counts column, may be wider.
const POPUP_MAX_W: u16 = 110;
/// Widest the session picker gets.
const SESSIONS_MAX_W: u16 = 140;

/// A popup's height on a screen for `lines` lines of content.
fn popup_height(screen: Rect, lines: usize) -> u16 {
    let want = u16::try_from(lines + 2).unwrap_or(u16::MAX);
    want.min(screen.height.saturating_sub(4)).max(3.min(screen.height))
}

/// A popup's width on a screen.
fn popup_width(screen: Rect, max_w: u16) -> u16 {
    screen.width.saturating_sub(8).clamp(20.min(screen.width), max_w)
}

fn popup_sized(
    app: &App,
    frame: &mut Frame<'_>,
    screen: Rect,
    max_w: u16,
    title: &str,
    lines: Vec<Line<'static>>,
    focus_line: usize,
) {
    let w = popup_width(screen, max_w);
    let h = popup_height(screen, lines.len());
    let area = Rect::new(
        screen.x + (screen.width - w) / 2,
        screen.y + (screen.height - h) / 2,
        w,
        h,
    );
    let inner_h = usize::from(h.saturating_sub(2));
    let inner_w = usize::from(w.saturating_sub(2));
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
            vec![Span::styled(more, app.theme.style(Role::Placeholder))],
            inner_w,
        )));
    }
    let title = fit_spans(
        vec![Span::styled(title.to_owned(), app.theme.style(Role::Title))],
        inner_w,
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(app.theme.style(Role::BorderFocus))
        .title(Line::from(title))
        .style(app.theme.style(Role::Text));
    frame.render_widget(Paragraph::new(shown).block(block), area);
}

/// The lines of the key help.
pub fn help_text(app: &App) -> Vec<Line<'static>> {
    let t = &app.theme;
    let mut lines = Vec::new();
    let row = |k: &str, d: &str| {
        Line::from(vec![
            Span::styled(format!("{k:>22}  "), t.style(Role::HintKey)),
            Span::styled(d.to_owned(), t.style(Role::Text)),
        ])
    };
    for (keys, desc) in app.keymap.help() {
        lines.push(row(&keys, desc));
    }
    // No blank lines: at 40 rows the whole help fits (a smaller screen scrolls it).
    lines.push(Line::from(Span::styled(
        format!("{:>22}", "in pickers and prompts"),
        t.style(Role::Title),
    )));
    for (k, d) in OVERLAY_KEYS {
        lines.push(row(k, d));
    }
    lines.push(Line::from(Span::styled(
        "markers: ~ modified  - dropped  + inserted  = merged  > moved here  < moved away",
        t.style(Role::Muted),
    )));
    lines
}

/// The key help, scrolled to `top`, its position in the title.
fn help(app: &App, frame: &mut Frame<'_>, screen: Rect, top: usize) {
    let lines = help_text(app);
    let total = lines.len();
    let inner_h = usize::from(popup_height(screen, total).saturating_sub(2));
    let title = if total > inner_h {
        // Scrolled to the end, the last line is a line of help; else it says how many follow.
        let room = inner_h.saturating_sub(1);
        let (first, last) = if top + room >= total {
            (total - inner_h, total)
        } else {
            (top, top + room)
        };
        format!(" keys {}–{last} of {total} (j/k scroll, Esc closes) ", first + 1)
    } else {
        " keys (Esc closes) ".to_owned()
    };
    // The popup keeps a focus line in view: the last line of the window starting at `top`.
    let room = if total > inner_h {
        inner_h.saturating_sub(1)
    } else {
        inner_h
    };
    popup(app, frame, screen, &title, lines, top + room.saturating_sub(1));
}

fn load_problems(app: &App, frame: &mut Frame<'_>, screen: Rect, top: usize) {
    let Some(insp) = &app.insp else { return };
    let mut lines: Vec<Line<'static>> = insp
        .load_problems
        .iter()
        .map(|p| {
            Line::from(Span::styled(
                escape_controls_single_line(p).into_owned(),
                app.theme.style(Role::Text),
            ))
        })
        .collect();
    if lines.is_empty() {
        lines.push(Line::from(Span::styled(
            "the load skipped nothing",
            app.theme.style(Role::Muted),
        )));
    }
    let title = if insp.load_notes > 0 {
        format!(
            " load problems: {}, notes: {} (Esc closes) ",
            insp.load_problems.len() - insp.load_notes.min(insp.load_problems.len()),
            insp.load_notes
        )
    } else {
        format!(" load problems: {} (Esc closes) ", insp.load_problems.len())
    };
    popup(app, frame, screen, &title, lines, top);
}

fn summary(app: &App, frame: &mut Frame<'_>, screen: Rect, sel: usize) {
    let Some(insp) = &app.insp else { return };
    let mut lines = Vec::new();
    let counts = insp.counts_by_rule();
    // The rule column is as wide as the longest id, so no id runs into its count.
    let w = counts.keys().map(|r| r.width()).max().unwrap_or(0).max(20);
    for (i, (rule, n)) in counts.into_iter().enumerate() {
        let summary = (app.rules)(rule).map_or("", |info| info.summary);
        lines.push(item_line(app, i == sel, &format!("{rule:<w$} {n:>4}  {summary}")));
    }
    if lines.is_empty() {
        lines.push(Line::from(Span::styled(
            "no rewrites for this target",
            app.theme.style(Role::Placeholder),
        )));
    }
    let title = format!(
        " rewrites per rule ({} ran; Enter jumps) ",
        plural(insp.rules_run.len(), "rule")
    );
    popup(app, frame, screen, &title, lines, sel);
}

fn export(app: &App, frame: &mut Frame<'_>, screen: Rect, d: &ExportDialog) {
    let t = &app.theme;
    let choices = |name: &str, labels: Vec<(&'static str, bool)>, keys: &str| {
        let mut spans = vec![Span::styled(format!("{name:<11}"), t.style(Role::Title))];
        for (label, on) in labels {
            if on {
                spans.push(Span::styled(
                    format!("[{label}]"),
                    t.style(Role::Text).patch(t.style(Role::Selection)),
                ));
            } else {
                spans.push(Span::styled(format!(" {label} "), t.style(Role::Text)));
            }
            spans.push(Span::raw(" "));
        }
        spans.push(Span::styled(format!("  {keys}"), t.style(Role::Muted)));
        Line::from(spans)
    };
    let mut lines = vec![
        choices(
            "format",
            FORMATS.iter().map(|f| (format_label(*f), *f == d.format)).collect(),
            "Tab ← →",
        ),
        choices(
            "redaction",
            REDACTIONS
                .iter()
                .map(|r| (redaction_label(*r), *r == d.redaction))
                .collect(),
            "↑ ↓",
        ),
        Line::from(vec![
            Span::styled(format!("{:<11}", "path"), t.style(Role::Title)),
            Span::styled(
                format!("{}▏", escape_controls_single_line(&d.path)),
                t.style(Role::Text),
            ),
        ]),
        Line::default(),
    ];
    if let Some(notice) = &d.notice {
        lines.push(Line::from(Span::styled(
            escape_controls_single_line(notice).into_owned(),
            t.style(Role::Modified),
        )));
    }
    let keys: Vec<String> = DIALOG_KEYS.iter().map(|(k, v)| format!("{k} {v}")).collect();
    lines.push(Line::from(Span::styled(keys.join(" · "), t.style(Role::Muted))));
    popup(app, frame, screen, " export the comparison ", lines, 0);
}

fn sessions(app: &App, frame: &mut Frame<'_>, screen: Rect, p: &SessionPicker) {
    let t = &app.theme;
    let pending = p.scan.pending();
    let scanning = if pending > 0 {
        format!(" · counting ({pending} to go)")
    } else {
        String::new()
    };
    let count = format!(
        "   {} of {} · {}{scanning}",
        p.matches.len(),
        p.listings.len(),
        escape_controls_single_line(&p.origin)
    );
    let mut lines = vec![filter_line(app, &p.filter, count), Line::default()];
    let width = usize::from(popup_width(screen, SESSIONS_MAX_W).saturating_sub(2));
    for line in p.lines() {
        lines.push(match line {
            PickerLine::Heading { title, count } => {
                Line::from(Span::styled(format!("{title} ({count})"), t.style(Role::Title)))
            }
            PickerLine::Session { pos, index } => session_line(app, p, pos == p.selected, index, width),
        });
    }
    let title = format!(
        " open session · {} (type to filter · Tab: {}) ",
        p.order.label(),
        p.order.cycle(true).verb()
    );
    popup_sized(app, frame, screen, SESSIONS_MAX_W, &title, lines, p.selected_line() + 2);
}

/// A session row: name; the counts (`…` while the scan is on it) and a `✗` when the
/// provider would reject the replay payload; last update, message count, working directory
/// and model. Cut to `width` columns.
fn session_line(app: &App, p: &SessionPicker, selected: bool, index: usize, width: usize) -> Line<'static> {
    let t = &app.theme;
    let base = if selected {
        t.style(Role::Text).patch(t.style(Role::Selection))
    } else {
        t.style(Role::Text)
    };
    let (head, tail) = SessionPicker::label_parts(&p.listings[index]);
    let cell = p.cell(index);
    let (counts, rejected) = cell.text();
    let counts_style = if cell == Cell::Pending {
        base.patch(t.style(Role::Muted))
    } else {
        base
    };
    let mut spans = vec![
        Span::styled(format!("{} {head} ", if selected { "▶" } else { " " }), base),
        Span::styled(format!("{counts:<COUNTS_WIDTH$}"), counts_style),
        if rejected {
            Span::styled(" ✗", base.patch(t.style(Role::Error)))
        } else {
            Span::styled("  ", base)
        },
        Span::styled(format!("  {tail}"), base),
    ];
    while spans.last().is_some_and(|s| s.content.trim().is_empty()) {
        spans.pop();
    }
    if let Some(last) = spans.last_mut() {
        last.content = last.content.trim_end().to_owned().into();
    }
    Line::from(fit_spans(spans, width))
}

/// Cut spans to `width` columns at a grapheme-cluster boundary, marking the cut with `…`
/// (spans that fit are returned as they are).
pub(super) fn fit_spans(spans: Vec<Span<'static>>, width: usize) -> Vec<Span<'static>> {
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
