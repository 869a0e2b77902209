//! The export dialog (`e`): format, redaction and a path, then the comparison is written
//! through the library's exporter. The dialog is plain state with its own keys; the write
//! itself is an [`Effect`] the event loop carries out (render never touches the disk).

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use replaylens::export::{ExportFormat, ExportOptions, Redaction, default_file_name, export_to, overwrites_session};
use replaylens::hygiene::ReplayOptions;
use replaylens::load::{Keep, LoadOptions, load_path};
use replaylens::policy::Target;
use replaylens::replay::PreparedReplay;

use super::app::{App, Effect, Mode};
use super::keymap::Key;

/// The formats, in the order Tab walks them.
pub const FORMATS: [ExportFormat; 3] = [ExportFormat::Markdown, ExportFormat::Html, ExportFormat::Json];

/// The redaction levels, in the order ↑/↓ walk them.
pub const REDACTIONS: [Redaction; 3] = [Redaction::None, Redaction::Secrets, Redaction::AllText];

/// Path keys of the dialog, shown at its foot (format and redaction keys sit on their rows).
pub const DIALOG_KEYS: &[(&str, &str)] = &[
    ("type Backspace", "edit the path"),
    ("Ctrl-u", "clear it"),
    ("Enter", "write"),
    ("Esc", "cancel"),
];

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

/// What to write: everything needed to recompute the replay away from the app state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportRequest {
    /// The session file to re-load.
    pub source: PathBuf,
    /// For a database: the session id.
    pub db_session: Option<String>,
    /// The requested target.
    pub target: Target,
    /// The replay options of the inspection.
    pub replay_options: ReplayOptions,
    /// Format and redaction.
    pub options: ExportOptions,
    /// The absolute output path.
    pub output: PathBuf,
    /// Replace an existing file (the user confirmed).
    pub overwrite: bool,
}

/// `path` made absolute against the current directory (no symlinks resolved).
pub fn absolute(path: &str) -> Result<PathBuf, String> {
    std::path::absolute(Path::new(path)).map_err(|e| format!("cannot resolve {path}: {e}"))
}

/// Load, replay, export and write, as `replaylens export -o` does (only the transcript is
/// loaded and the report is written as it is rendered); the number of bytes written, or one
/// sentence.
pub fn write(request: &ExportRequest) -> Result<usize, String> {
    let options = LoadOptions {
        session: request.db_session.clone(),
        keep: Keep::Transcript,
        ..LoadOptions::default()
    };
    let session = load_path(&request.source, &options).map_err(|e| format!("export failed: {e}"))?;
    let (session, computed) = PreparedReplay::new(session, &request.target, &request.replay_options).into_replay();
    let out = request.output.display();
    if overwrites_session(&request.source, &request.output) {
        return Err(format!("{out} is the session being exported; nothing written"));
    }
    let mut open = OpenOptions::new();
    open.write(true);
    if request.overwrite {
        open.create(true).truncate(true);
    } else {
        open.create_new(true);
    }
    let file = open.open(&request.output).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => format!("{out} already exists; nothing written"),
        _ => format!("cannot write {out}: {e}"),
    })?;
    let mut written = Counted {
        inner: std::io::BufWriter::new(file),
        bytes: 0,
    };
    export_to(&session, &computed, &request.options, &mut written)
        .and_then(|()| written.flush())
        .map_err(|e| format!("cannot write {out}: {e}"))?;
    Ok(written.bytes)
}

/// A writer that counts the bytes it passes on.
struct Counted<W> {
    inner: W,
    bytes: usize,
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Handle a key in the dialog; the mode to continue in.
pub fn handle_key(app: &mut App, mut d: ExportDialog, key: Key) -> Mode {
    let ctrl = key.mods.contains(KeyModifiers::CONTROL);
    let before = (d.format, d.redaction, d.path.clone());
    match key.code {
        KeyCode::Esc => return Mode::Normal,
        KeyCode::Enter => return enter(app, d),
        KeyCode::Tab | KeyCode::Right => d.set_format(1),
        KeyCode::BackTab | KeyCode::Left => d.set_format(-1),
        KeyCode::Down => d.set_redaction(1),
        KeyCode::Up => d.set_redaction(-1),
        KeyCode::Backspace => {
            d.path.pop();
            d.path_edited();
        }
        KeyCode::Char('u') if ctrl => {
            d.path.clear();
            d.path_edited();
        }
        KeyCode::Char(c) if !ctrl && !key.mods.contains(KeyModifiers::ALT) => {
            d.path.push(c);
            d.path_edited();
        }
        _ => {}
    }
    if before != (d.format, d.redaction, d.path.clone()) {
        d.confirm = None;
        d.notice = None;
    }
    Mode::Export(d)
}

fn enter(app: &mut App, mut d: ExportDialog) -> Mode {
    let Some(insp) = &app.insp else {
        return Mode::Normal;
    };
    if d.path.trim().is_empty() {
        d.notice = Some("type a file name".into());
        return Mode::Export(d);
    }
    let output = match absolute(&d.path) {
        Ok(p) => p,
        Err(e) => {
            d.notice = Some(e);
            return Mode::Export(d);
        }
    };
    if output.is_dir() {
        d.notice = Some(format!("{} is a directory", output.display()));
        d.confirm = None;
        return Mode::Export(d);
    }
    if overwrites_session(&insp.session.path, &output) {
        d.notice = Some(format!(
            "{} is the session being inspected; choose another file",
            output.display()
        ));
        d.confirm = None;
        return Mode::Export(d);
    }
    let exists = output.exists();
    if exists && d.confirm.as_ref() != Some(&output) {
        d.notice = Some(format!("{} exists — Enter again to overwrite", output.display()));
        d.confirm = Some(output);
        return Mode::Export(d);
    }
    app.effects.push(Effect::Export(ExportRequest {
        source: insp.session.path.clone(),
        db_session: insp.session.db_session.clone(),
        target: insp.requested.clone(),
        replay_options: insp.options.clone(),
        options: d.export_options(),
        output,
        overwrite: exists,
    }));
    app.status = Some("exporting …".into());
    Mode::Normal
}

impl App {
    /// Open the export dialog for the current session and resolved target.
    pub fn open_export(&mut self) {
        let Some(insp) = &self.insp else {
            self.status = Some("no session to export".into());
            return;
        };
        self.mode = Mode::Export(ExportDialog::new(&insp.session.id, &insp.resolved.target));
    }

    /// Carry out an export request and report it in the status bar.
    pub fn perform_export(&mut self, request: &ExportRequest) {
        self.status = Some(match write(request) {
            Ok(n) => format!("wrote {} ({})", request.output.display(), super::app::plural(n, "byte")),
            Err(e) => e,
        });
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

    #[test]
    fn relative_paths_are_under_the_current_directory() {
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(absolute("out/x.md").unwrap(), cwd.join("out/x.md"));
        assert_eq!(absolute("/tmp/x.md").unwrap(), PathBuf::from("/tmp/x.md"));
    }
}
