//! The export dialog (`e`): format, redaction and a path; Enter asks the app to write the
//! comparison through the library's exporter ([`crate::tui::export_write`]).

use std::path::{Path, PathBuf};

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use replaylens::export::{ExportFormat, ExportOptions, Redaction, default_file_name, overwrites_session};
use replaylens::policy::Target;
use replaylens::text::escape_controls_single_line;

use super::popup::{POPUP_MAX_W, popup, popup_width};
use super::{Ctx, Input, Overlay, OverlayEffect, Request, one_line};
use crate::tui::action::OverlayAction;
use crate::tui::describe::DocLine;
use crate::tui::export_write::{ExportRequest, absolute};
use crate::tui::keymap::OverlayContext;
use crate::tui::theme::Role;
use crate::tui::wrap::wrap_line;

/// The formats, in the order the format keys walk them.
pub const FORMATS: [ExportFormat; 3] = [ExportFormat::Markdown, ExportFormat::Html, ExportFormat::Json];

/// The redaction levels, in the order the redaction keys walk them.
pub const REDACTIONS: [Redaction; 3] = [Redaction::None, Redaction::Secrets, Redaction::AllText];

/// A format's name in the dialog.
pub fn format_label(f: ExportFormat) -> &'static str {
    match f {
        ExportFormat::Markdown => "Markdown",
        ExportFormat::Html => "HTML",
        ExportFormat::Json => "JSON",
    }
}

/// A redaction level's name in the dialog.
pub fn redaction_label(r: Redaction) -> &'static str {
    match r {
        Redaction::None => "none",
        Redaction::Secrets => "secrets",
        Redaction::AllText => "all text",
    }
}

/// The dialog's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportDialog {
    /// Chosen format.
    pub format: ExportFormat,
    /// Chosen redaction.
    pub redaction: Redaction,
    /// The path as typed (relative = to the current directory).
    pub path: String,
    /// Whether the user changed the path (else it follows the format).
    pub edited: bool,
    /// The file the user was warned exists; a second Enter on it overwrites.
    pub confirm: Option<PathBuf>,
    /// A one-line notice inside the dialog (existing file, empty path, …).
    pub notice: Option<String>,
    session_id: String,
    target: Target,
}

impl ExportDialog {
    /// A dialog for a session id and the resolved target, Markdown, no redaction.
    pub fn new(session_id: &str, target: &Target) -> Self {
        let format = ExportFormat::Markdown;
        Self {
            format,
            redaction: Redaction::None,
            path: default_file_name(session_id, target, format),
            edited: false,
            confirm: None,
            notice: None,
            session_id: session_id.to_owned(),
            target: target.clone(),
        }
    }

    /// Walk the formats; the path follows: the default name while it is not edited, else its
    /// extension when that names a format (`x.md` becomes `x.html`), so the two never disagree.
    fn set_format(&mut self, delta: isize) {
        self.format = FORMATS[cycle(FORMATS.iter().position(|f| *f == self.format), delta, FORMATS.len())];
        if !self.edited {
            self.path = default_file_name(&self.session_id, &self.target, self.format);
        } else if ExportFormat::from_path(Path::new(&self.path)).is_some() {
            let renamed = Path::new(&self.path).with_extension(self.format.extension());
            self.path = renamed.to_string_lossy().into_owned();
        }
    }

    /// The path was edited: a typed extension naming a format (`.md`, `.html`, `.json`) selects
    /// it, so `typed.html` is written as HTML.
    fn path_edited(&mut self) {
        self.edited = true;
        if let Some(format) = ExportFormat::from_path(Path::new(&self.path)) {
            self.format = format;
        }
    }

    fn set_redaction(&mut self, delta: isize) {
        let at = REDACTIONS.iter().position(|r| *r == self.redaction);
        self.redaction = REDACTIONS[cycle(at, delta, REDACTIONS.len())];
    }

    fn export_options(&self) -> ExportOptions {
        ExportOptions {
            format: self.format,
            redaction: self.redaction,
            only_changed: false,
            context: 0,
            ..ExportOptions::default()
        }
    }
}

fn cycle(at: Option<usize>, delta: isize, len: usize) -> usize {
    let at = isize::try_from(at.unwrap_or(0)).unwrap_or(0);
    let len = isize::try_from(len).unwrap_or(1);
    usize::try_from((at + delta).rem_euclid(len)).unwrap_or(0)
}

impl ExportDialog {
    /// Enter: check the path and ask for the write, or say in the dialog why not (an empty
    /// path, a directory, the session itself, an existing file not yet confirmed).
    fn enter(&mut self, ctx: &Ctx<'_>) -> OverlayEffect {
        let Some(insp) = ctx.insp else {
            return OverlayEffect::Close;
        };
        if self.path.trim().is_empty() {
            self.notice = Some("type a file name".into());
            return OverlayEffect::None;
        }
        let output = match absolute(&self.path) {
            Ok(p) => p,
            Err(e) => {
                self.notice = Some(e);
                return OverlayEffect::None;
            }
        };
        if output.is_dir() {
            self.notice = Some(format!("{} is a directory", output.display()));
            self.confirm = None;
            return OverlayEffect::None;
        }
        if overwrites_session(&insp.session.path, &output) {
            self.notice = Some(format!(
                "{} is the session being inspected; choose another file",
                output.display()
            ));
            self.confirm = None;
            return OverlayEffect::None;
        }
        let exists = output.exists();
        if exists && self.confirm.as_ref() != Some(&output) {
            // The question is drawn from `confirm` (see `draw`); keys answer it, none is typed.
            self.notice = None;
            self.confirm = Some(output);
            return OverlayEffect::None;
        }
        OverlayEffect::CloseWith(Request::Export(ExportRequest {
            source: insp.session.path.clone(),
            db_session: insp.session.db_session.clone(),
            target: insp.requested.clone(),
            replay_options: insp.options.clone(),
            options: self.export_options(),
            output,
            overwrite: exists,
        }))
    }
}

impl Overlay for ExportDialog {
    fn context(&self) -> OverlayContext {
        OverlayContext::Export
    }

    fn handle(&mut self, input: Input, ctx: &Ctx<'_>) -> OverlayEffect {
        // While asking whether to overwrite, `y` (or Enter) overwrites and any other key keeps
        // the file: nothing typed then goes into the path.
        if self.confirm.is_some() {
            return match input {
                Input::Action(OverlayAction::Confirm) | Input::Char('y' | 'Y') => self.enter(ctx),
                Input::Action(OverlayAction::Close) | Input::Char(_) | Input::Paste(_) | Input::Action(_) => {
                    self.confirm = None;
                    self.notice = Some("kept the existing file: edit the path or the format".into());
                    OverlayEffect::None
                }
            };
        }
        let before = (self.format, self.redaction, self.path.clone());
        match input {
            Input::Action(OverlayAction::Close) => return OverlayEffect::Close,
            Input::Action(OverlayAction::Confirm) => return self.enter(ctx),
            Input::Action(OverlayAction::NextFormat) => self.set_format(1),
            Input::Action(OverlayAction::PrevFormat) => self.set_format(-1),
            Input::Action(OverlayAction::NextRedaction) => self.set_redaction(1),
            Input::Action(OverlayAction::PrevRedaction) => self.set_redaction(-1),
            Input::Action(OverlayAction::DeleteBack) => {
                self.path.pop();
                self.path_edited();
            }
            Input::Action(OverlayAction::ClearText) => {
                self.path.clear();
                self.path_edited();
            }
            Input::Action(_) => {}
            Input::Char(c) => {
                self.path.push(c);
                self.path_edited();
            }
            Input::Paste(text) => {
                self.path.push_str(&one_line(&text));
                self.path_edited();
            }
        }
        if before != (self.format, self.redaction, self.path.clone()) {
            self.confirm = None;
            self.notice = None;
        }
        OverlayEffect::None
    }

    fn draw(&self, frame: &mut Frame<'_>, screen: Rect, ctx: &Ctx<'_>) {
        let t = ctx.theme;
        let keys = |a| ctx.keymap.overlay_keys_text(OverlayContext::Export, a);
        let choices = |name: &str, labels: Vec<(&'static str, bool)>, hint: String| {
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
            spans.push(Span::styled(format!("  {hint}"), t.style(Role::Muted)));
            Line::from(spans)
        };
        let mut lines = vec![
            choices(
                "format",
                FORMATS.iter().map(|f| (format_label(*f), *f == self.format)).collect(),
                format!(
                    "{} / {}",
                    keys(OverlayAction::NextFormat),
                    keys(OverlayAction::PrevFormat)
                ),
            ),
            choices(
                "redaction",
                REDACTIONS
                    .iter()
                    .map(|r| (redaction_label(*r), *r == self.redaction))
                    .collect(),
                format!(
                    "{} / {}",
                    keys(OverlayAction::NextRedaction),
                    keys(OverlayAction::PrevRedaction)
                ),
            ),
            Line::from(vec![
                Span::styled(format!("{:<11}", "path"), t.style(Role::Title)),
                Span::styled(
                    format!("{}▏", escape_controls_single_line(&self.path)),
                    t.style(Role::Text),
                ),
            ]),
            Line::default(),
        ];
        // Notices wrap inside the popup (a path after its separators), never cut.
        let width = usize::from(popup_width(screen, POPUP_MAX_W).saturating_sub(2));
        let wrapped = |text: &str| {
            wrap_line(
                &DocLine::plain(escape_controls_single_line(text), Role::Modified),
                width,
                t,
            )
        };
        if let Some(output) = &self.confirm {
            let key = ctx
                .keymap
                .overlay_first_key(OverlayContext::Export, OverlayAction::Confirm);
            lines.extend(wrapped(&format!("{} exists.", output.display())));
            lines.push(Line::from(Span::styled(
                format!("overwrite it? y (or {key}) overwrites · any other key keeps it"),
                t.style(Role::Modified),
            )));
            popup(t, frame, screen, " export the comparison ", lines, 0);
            return;
        }
        if let Some(notice) = &self.notice {
            lines.extend(wrapped(notice));
        }
        let foot = [
            (format!("type {}", keys(OverlayAction::DeleteBack)), "edit the path"),
            (keys(OverlayAction::ClearText), "clear it"),
            (keys(OverlayAction::Confirm), "write"),
            (keys(OverlayAction::Close), "cancel"),
        ];
        let foot: Vec<String> = foot.iter().map(|(k, v)| format!("{k} {v}")).collect();
        lines.push(Line::from(Span::styled(foot.join(" · "), t.style(Role::Muted))));
        popup(t, frame, screen, " export the comparison ", lines, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_cycles_both_ways_and_follows_the_default_name() {
        let mut d = ExportDialog::new("s1", &Target::default());
        assert_eq!(d.path, "replaylens-s1.md");
        d.set_format(-1);
        assert_eq!((d.format, d.path.as_str()), (ExportFormat::Json, "replaylens-s1.json"));
        d.set_format(1);
        d.set_format(1);
        assert_eq!((d.format, d.path.as_str()), (ExportFormat::Html, "replaylens-s1.html"));
        d.edited = true;
        d.set_format(1);
        assert_eq!((d.format, d.path.as_str()), (ExportFormat::Json, "replaylens-s1.json"));
        d.path = "notes.txt".into();
        d.set_format(1);
        assert_eq!((d.format, d.path.as_str()), (ExportFormat::Markdown, "notes.txt"));
    }
}
