//! Renderings of a replay for bug reports: the JSON contract (`docs/internals.md`), Markdown for
//! GitHub issues and a self-contained HTML page, with optional redaction and a focus on some
//! rules or messages. Markdown and HTML open with a verdict and the command that reproduces
//! the report.

pub mod command;
pub mod focus;
pub mod html;
pub mod json;
pub mod lint_section;
pub mod markdown;
pub mod output_path;
pub mod redact;
pub mod session_file;
pub mod stored_file;
pub mod verdict;
pub mod view;
#[cfg(test)]
mod wide_turn_tests;

pub use focus::{Focus, check_rules, parse_message_range, parse_rule_id, rule_ids};
pub use lint_section::{LintFindings, LintView};
pub use output_path::overwrites_session;
pub use redact::{Redaction, Redactor};
pub use view::View;

use crate::json;

use crate::model::Session;
use crate::replay::Replay;

/// Export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// GitHub-flavoured Markdown.
    Markdown,
    /// One self-contained HTML file.
    Html,
    /// The replay JSON contract plus export metadata.
    Json,
}

impl ExportFormat {
    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Markdown => "md",
            Self::Html => "html",
            Self::Json => "json",
        }
    }

    /// The format a file name's extension names (`.md`/`.markdown`, `.html`/`.htm`, `.json`,
    /// any case), if any.
    pub fn from_path(path: &std::path::Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "md" | "markdown" => Some(Self::Markdown),
            "html" | "htm" => Some(Self::Html),
            "json" => Some(Self::Json),
            _ => None,
        }
    }
}

/// The default Markdown budget: GitHub's limit for an issue or comment body.
pub const DEFAULT_MAX_CHARS: usize = 65_536;

/// The default HTML budget, in characters: about 5 MB, which a browser opens at once. A
/// larger report keeps what fits (one example per rule first, then the changes in message
/// order, then unchanged messages) and says what it left out; `--max-chars 0` lifts it.
pub const DEFAULT_HTML_MAX_CHARS: usize = 5_000_000;

/// Export options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportOptions {
    /// Output format.
    pub format: ExportFormat,
    /// Redaction level.
    pub redaction: Redaction,
    /// HTML: show only changed rows (plus context). Markdown always does.
    pub only_changed: bool,
    /// Unchanged rows shown around each change.
    pub context: usize,
    /// Markdown and HTML: the longest report in characters (0: unlimited; `None`: the
    /// format's default, [`DEFAULT_MAX_CHARS`] or [`DEFAULT_HTML_MAX_CHARS`]); changes that do
    /// not fit are left out, and the report says which and how to get them.
    pub max_chars: Option<usize>,
    /// Only the rows these rules touched (rule ids; empty: every rule). JSON keeps only their
    /// rewrites.
    pub only_rules: Vec<String>,
    /// Only stored messages `A..=B`.
    pub messages: Option<(usize, usize)>,
    /// The verdict per OpenClaw release range ("rejected up to 2026.9.1, accepted since
    /// 2026.9.2", [`crate::scan::releases::Matrix::summary`]), when the caller computed it.
    pub releases: Option<String>,
    /// The shareable copy of the session written beside the report (`--with-session FILE`,
    /// as given): the reproduce command names it instead of the session's own path.
    pub shared_session: Option<String>,
}

impl Default for ExportOptions {
    fn default() -> Self {
        Self {
            format: ExportFormat::Markdown,
            redaction: Redaction::None,
            only_changed: false,
            context: 0,
            max_chars: None,
            only_rules: Vec::new(),
            messages: None,
            releases: None,
            shared_session: None,
        }
    }
}

impl ExportOptions {
    /// The longest report in characters for this format (0: no limit; JSON has none).
    pub fn budget(&self) -> usize {
        match (self.format, self.max_chars) {
            (ExportFormat::Json, _) => 0,
            (_, Some(n)) => n,
            (format, None) => default_budget(format),
        }
    }
}

/// The default budget of a format, in characters (0: none).
pub fn default_budget(format: ExportFormat) -> usize {
    match format {
        ExportFormat::Markdown => DEFAULT_MAX_CHARS,
        ExportFormat::Html => DEFAULT_HTML_MAX_CHARS,
        ExportFormat::Json => 0,
    }
}

/// Render one replay in the chosen format. Deterministic: same input, same bytes.
///
/// The document holds no character a terminal could act on (C0 but newline and tab, DEL, C1,
/// bidi controls), so it is safe to print: Markdown and HTML show them escaped (`\e`,
/// `\u{202e}`), JSON writes them as `\uXXXX` escapes of the same value.
///
/// Unknown rule ids in `options.only_rules` match no row; check them first with
/// [`check_rules`] (the command line does, when it parses `--only-rule`).
pub fn export(session: &Session, replay: &Replay<'_>, options: &ExportOptions) -> String {
    let mut bytes = Vec::new();
    export_to(session, replay, options, &mut bytes).expect("writing to memory cannot fail");
    String::from_utf8(bytes).expect("every format is written as UTF-8")
}

/// [`export`] written to `out`, the same bytes. JSON and HTML are written while they are
/// rendered, so a large session's document (both sides of every message) is never held
/// whole; Markdown, cut to its budget, is rendered first. HTML over its budget is measured
/// first, then written cut.
pub fn export_to(
    session: &Session,
    replay: &Replay<'_>,
    options: &ExportOptions,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    render(&View::build(session, replay, options), options, out)
}

/// [`export_to`] for a replay whose stored messages are read back from the session file
/// ([`crate::replay::PreparedReplay::into_replay_reading_back`], [`stored_file::ReadBack`]),
/// with the lint findings computed before the replay ([`LintFindings::of_prepared`]): the
/// same bytes as [`export_to`] for the same session, without the stored transcript held
/// beside the projection. Fails when a stored message cannot be read back (the file changed).
pub fn export_reading_back(
    session: &Session,
    replay: &Replay<'_>,
    options: &ExportOptions,
    lint: Option<LintFindings>,
    read_back: &stored_file::ReadBack,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    let view = View::build_reading_back(session, replay, options, lint, read_back).map_err(std::io::Error::other)?;
    render(&view, options, out)?;
    match view.read_back_failure() {
        Some(failure) => Err(std::io::Error::other(failure)),
        None => Ok(()),
    }
}

/// Write a view in the chosen format.
fn render(view: &View<'_>, options: &ExportOptions, out: &mut impl std::io::Write) -> std::io::Result<()> {
    match options.format {
        ExportFormat::Json => write_json(view, out),
        ExportFormat::Html => html::render_to(view, !options.only_changed, options.context, options.budget(), out),
        ExportFormat::Markdown => {
            let text = markdown::render(view, options.context, options.budget());
            out.write_all(crate::text::escape_controls(&text).as_bytes())
        }
    }
}

/// The JSON document of a view, pretty-printed through a terminal-safe writer.
fn write_json(view: &View, out: &mut impl std::io::Write) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut export = json!({
        "replaylens": view.version,
        "redaction": view.redaction,
        "redacted": view.redacted,
        "command": command::command_line(&view.command),
    });
    if view.focus.is_active() {
        export["filter"] = view.focus.to_json();
    }
    let mut safe = crate::text::TerminalSafeWriter::new(out);
    serde_json::to_writer_pretty(&mut safe, &json::view_document(view, export))?;
    safe.write_all(b"\n")?;
    safe.flush()
}

/// A default file name for an export: session id and target, filesystem-safe.
pub fn default_file_name(session_id: &str, target: &crate::policy::Target, format: ExportFormat) -> String {
    let parts = [Some(session_id), target.provider.as_deref(), target.model.as_deref()];
    let stem: String = parts
        .iter()
        .flatten()
        .map(|p| {
            p.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("-");
    format!("replaylens-{stem}.{}", format.extension())
}
