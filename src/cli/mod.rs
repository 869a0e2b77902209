//! Command implementations of the binary: they call the library and print.

pub mod allocator;
pub mod completions;
pub mod config;
pub mod describe;
pub mod dispatch;
pub mod examples;
pub mod exit;
pub mod explain_text;
pub mod export;
pub mod lint;
pub mod payload;
pub mod policy;
pub mod providers;
pub mod reduce;
pub mod releases;
pub mod repair;
pub mod replay;
pub mod rules;
pub mod scan;
pub mod scan_csv;
pub mod scan_output;
pub mod scan_totals;
pub mod sessions;
pub mod show;
pub mod signals;
pub mod table_width;
pub mod typos;

use std::process::ExitCode;

pub use exit::Exit;
use replaylens::model::Diagnostic;

/// End a command: an error's sentence on stderr, and the exit status its [`Exit`] says (a
/// rejected payload says nothing more; a closed stdout is no failure).
pub fn finish(result: anyhow::Result<()>) -> ExitCode {
    let Err(err) = result else {
        return ExitCode::SUCCESS;
    };
    let exit = exit::of_error(&err);
    if matches!(exit, Exit::Unusable | Exit::Internal | Exit::NothingToKeep) {
        // Every file is named by its error; a bare I/O error is a write to stdout (the
        // commands' output, the inspector's screen), so it is named here.
        let message = match stdout_error(&err) {
            Some(e) => format!("cannot write to standard output: {e}"),
            None => err.to_string(),
        };
        eprintln!(
            "replaylens: {}",
            replaylens::text::escape_controls_single_line(&message)
        );
    }
    exit.into()
}

/// An output file (`export -o FILE`) that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {}", .path.display(), self.reason())]
pub struct OutputFileError {
    /// The file.
    pub path: std::path::PathBuf,
    /// The OS error.
    pub source: std::io::Error,
}

impl OutputFileError {
    /// Wrap a write error of `path`.
    pub fn new(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> Self {
        move |source| Self {
            path: path.to_owned(),
            source,
        }
    }

    fn reason(&self) -> String {
        if self.source.kind() == std::io::ErrorKind::IsADirectory || self.path.is_dir() {
            "it is a folder; give -o a file name".to_owned()
        } else {
            self.source.to_string()
        }
    }

    /// Exit status 2 when the path itself is the problem (a folder, a missing or read-only
    /// place); 1 when writing failed for another reason (a full disk, an I/O error).
    fn is_unusable_argument(&self) -> bool {
        use std::io::ErrorKind as K;
        matches!(
            self.source.kind(),
            K::IsADirectory
                | K::NotADirectory
                | K::NotFound
                | K::PermissionDenied
                | K::ReadOnlyFilesystem
                | K::InvalidFilename
                | K::InvalidInput
        ) || self.path.is_dir()
    }
}

/// The I/O error of a failed write to stdout: a bare `io::Error`, or one inside the
/// serde_json or csv error of a serializer writing there.
fn stdout_error(err: &anyhow::Error) -> Option<&dyn std::fmt::Display> {
    if let Some(e) = err.downcast_ref::<std::io::Error>() {
        // A Parquet file's error travels as an I/O error through the row writer; it names
        // its file and is not about standard output.
        if e.get_ref()
            .is_some_and(|inner| inner.is::<replaylens::scan::parquet::WriteError>())
        {
            return None;
        }
        return Some(e);
    }
    if let Some(e) = err.downcast_ref::<serde_json::Error>().filter(|e| e.is_io()) {
        return Some(e);
    }
    match err.downcast_ref::<csv::Error>().map(csv::Error::kind) {
        Some(csv::ErrorKind::Io(e)) => Some(e),
        _ => None,
    }
}

/// Stream a value as pretty JSON to stdout, with every character a terminal could act on
/// written as a `\uXXXX` escape (the same JSON value); nothing is built in memory first.
pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    use std::io::Write;
    let safe = replaylens::text::TerminalSafeWriter::new(std::io::stdout().lock());
    let mut out = std::io::BufWriter::with_capacity(1 << 16, safe);
    serde_json::to_writer_pretty(&mut out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// Print load diagnostics to stderr, one per line.
pub fn report(diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        eprintln!("{}", replaylens::text::escape_controls_single_line(&d.to_string()));
    }
}

/// Say on stderr what is doubtful about the requested target (near misses of known provider
/// and API ids) and, with `provenance` and when some parts were given while others were
/// inherited from the session or defaulted, where each part came from:
/// `target: mistral (given) / mistral-conversations (mistral's default API) / …`.
pub fn report_target(
    requested: &replaylens::policy::Target,
    session: &replaylens::model::ModelRef,
    provenance: bool,
) -> replaylens::policy::EffectiveTarget {
    let effective = replaylens::policy::effective(requested, session);
    if provenance && effective.is_mixed() {
        eprintln!(
            "target: {}",
            replaylens::text::escape_controls_single_line(&effective.describe())
        );
    }
    for w in &effective.warnings {
        eprintln!("warning: {}", replaylens::text::escape_controls_single_line(w));
    }
    effective
}

/// Load a session keeping only what its stored transcript is built from
/// ([`replaylens::load::Keep::Transcript`]), for the commands that read nothing else.
pub fn load_transcript_only(
    path: &std::path::Path,
    load: replaylens::load::LoadOptions,
) -> Result<replaylens::model::Session, replaylens::load::LoadError> {
    let load = replaylens::load::LoadOptions {
        keep: replaylens::load::Keep::Transcript,
        ..load
    };
    replaylens::load::load_path(path, &load)
}

/// The text of a session file in its loader format, for the commands that rewrite the file
/// itself (`reduce`, `export --format session`, `--with-session`): a plain file as stored; a
/// `.zst` file decompressed and a database's session as OpenClaw JSONL lines (its entries, as
/// stored), both through the loader and its limits, never read as UTF-8 raw bytes.
pub fn session_text(
    path: &std::path::Path,
    load: replaylens::load::LoadOptions,
) -> anyhow::Result<(String, &'static str)> {
    use std::io::Read;
    let mut head = [0u8; 16];
    let n = replaylens::load::limits::check_regular(path).and_then(|()| {
        std::fs::File::open(path)
            .and_then(|mut f| f.read(&mut head))
            .map_err(|e| replaylens::load::LoadError::io(path, e))
    })?;
    let packed = head[..n].starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) || replaylens::load::is_database(path);
    let load = replaylens::load::LoadOptions {
        keep: replaylens::load::Keep::Everything,
        ..load
    };
    if packed {
        let session = replaylens::load::load_path(path, &load)?;
        let mut text = String::new();
        for value in session.stored_values() {
            text.push_str(&serde_json::to_string(value)?);
            text.push('\n');
        }
        let format = match session.format {
            // A database's entries are OpenClaw session entries: written as its JSONL file.
            replaylens::model::SessionFormat::OpenClawSqlite => "openclaw-jsonl",
            other => other.as_str(),
        };
        return Ok((text, format));
    }
    let session = load_transcript_only(path, load)?;
    let format = session.format.as_str();
    drop(session);
    let text = std::fs::read_to_string(path).map_err(|e| replaylens::load::LoadError::io(path, e))?;
    Ok((text, format))
}

/// Load a session for a command that compares both sides of its replay (`lint --explain`)
/// and replay it for a target, reporting as [`load_prepared`] does.
pub fn load_and_replay(
    path: &std::path::Path,
    load: replaylens::load::LoadOptions,
    target: &replaylens::policy::Target,
    options: &replaylens::hygiene::ReplayOptions,
    text: bool,
) -> anyhow::Result<(replaylens::model::Session, replaylens::replay::Replay<'static>)> {
    let (prepared, _) = load_prepared(path, load, target, options, text)?;
    Ok(prepared.into_replay())
}

/// Load a session ([`load_transcript_only`]) and prepare its replay for a target (its
/// entries are released before the rules run, [`replaylens::replay::PreparedReplay`]);
/// report on stderr what the load and the branch walk found and, in text output, where each
/// part of the target came from.
pub fn load_prepared(
    path: &std::path::Path,
    load: replaylens::load::LoadOptions,
    target: &replaylens::policy::Target,
    options: &replaylens::hygiene::ReplayOptions,
    text: bool,
) -> anyhow::Result<(replaylens::replay::PreparedReplay, replaylens::policy::EffectiveTarget)> {
    prepare_loaded(load_transcript_only(path, load)?, target, options, text)
}

/// [`load_prepared`] for a session already loaded.
pub fn prepare_loaded(
    session: replaylens::model::Session,
    target: &replaylens::policy::Target,
    options: &replaylens::hygiene::ReplayOptions,
    text: bool,
) -> anyhow::Result<(replaylens::replay::PreparedReplay, replaylens::policy::EffectiveTarget)> {
    let prepared = replaylens::replay::PreparedReplay::new(session, target, options);
    report(&prepared.session.diagnostics);
    report(&prepared.transcript.diagnostics);
    if text
        && options.rule_set_from_session
        && let Some(version) = &prepared.session.openclaw_version
    {
        let (_, line) = replaylens::rule_set::RuleSet::for_recorded(version);
        eprintln!("note: {}", replaylens::text::escape_controls_single_line(&line));
    }
    let effective = report_target(target, &prepared.transcript.model, text);
    Ok((prepared, effective))
}

/// A target part for a text line: `?` when it is unknown (empty).
pub fn or_unknown(part: &str) -> &str {
    if part.is_empty() { "?" } else { part }
}

/// A closed stdout (e.g. piped into `head`) is not a failure. The `EPIPE` may sit anywhere in
/// the chain, and inside errors whose `source()` does not lead to it: an `io::Error` wrapping
/// another error (its `source()` skips the wrapped error itself), a serde_json or csv error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(caused_by_broken_pipe)
}

fn caused_by_broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    use std::io::ErrorKind::BrokenPipe;
    if let Some(io) = e.downcast_ref::<std::io::Error>() {
        return io.kind() == BrokenPipe
            || io
                .get_ref()
                .is_some_and(|inner| caused_by_broken_pipe(inner as &(dyn std::error::Error + 'static)));
    }
    if let Some(json) = e.downcast_ref::<serde_json::Error>() {
        return json.io_error_kind() == Some(BrokenPipe);
    }
    if let Some(csv) = e.downcast_ref::<csv::Error>() {
        return matches!(csv.kind(), csv::ErrorKind::Io(io) if io.kind() == BrokenPipe);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pipe() -> std::io::Error {
        std::io::Error::from(std::io::ErrorKind::BrokenPipe)
    }

    #[test]
    fn a_broken_pipe_is_seen_through_every_wrapper() {
        let json = || serde_json::Error::io(pipe());
        let wrapped: Vec<anyhow::Error> = vec![
            anyhow::Error::from(pipe()),
            anyhow::Error::from(pipe()).context("writing"),
            anyhow::Error::from(json()),
            // `io::Error::other(e).source()` is `e.source()`, not `e`: the chain skips it.
            anyhow::Error::from(std::io::Error::other(json())),
            anyhow::Error::from(std::io::Error::new(std::io::ErrorKind::InvalidData, pipe())),
            anyhow::Error::from(csv::Error::from(pipe())),
            anyhow::Error::from(std::io::Error::from(csv::Error::from(pipe()))),
        ];
        for err in &wrapped {
            assert!(is_broken_pipe(err), "{err:?}");
        }
        let other = anyhow::Error::from(std::io::Error::from(std::io::ErrorKind::StorageFull));
        assert!(!is_broken_pipe(&other));
        assert_eq!(
            finish(Err(anyhow::Error::from(std::io::Error::other(json())))),
            ExitCode::SUCCESS
        );
    }

    #[test]
    fn settings_and_terminal_errors_are_unusable_input() {
        let settings =
            crate::tui::theme::SettingsFileError::unreadable("theme", std::path::Path::new("/x/t.toml"), "nope".into());
        assert_eq!(finish(Err(settings.into())), ExitCode::from(2));
        assert_eq!(
            finish(Err(crate::tui::terminal::NoTerminal("standard output").into())),
            ExitCode::from(2)
        );
    }
}
