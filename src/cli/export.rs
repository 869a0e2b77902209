//! `replaylens export SESSION [TARGET] [--format md|html|json] [-o FILE] [--redact[=LEVEL]]`;
//! the format defaults to the one the `-o` file's extension names.

use std::io::Write;
use std::path::{Path, PathBuf};

use replaylens::export::stored_file::{ReadBack, StoredFile};
use replaylens::export::{ExportFormat, ExportOptions, LintFindings, export_reading_back, export_to};
use replaylens::hygiene::ReplayOptions;
use replaylens::load::LoadOptions;
use replaylens::model::Session;
use replaylens::policy::Target;
use replaylens::replay::{PreparedReplay, Replay};
use replaylens::write::{Protected, Replace};

/// What an export of `session` may not write over: the session, its companions, their aliases.
fn protected(session: &Path) -> Protected {
    Protected::session(session)
}

/// Refuse an output that is the session (by any name) before any work: the session's own
/// name as [`OverwritesInput`], a companion, folder or special file as the writer says.
fn check_output(session: &Path, output: &Path) -> anyhow::Result<()> {
    if replaylens::export::overwrites_session(session, output)
        && std::fs::metadata(output).is_ok_and(|m| {
            use std::os::unix::fs::MetadataExt;
            std::fs::metadata(session).is_ok_and(|s| s.dev() == m.dev() && s.ino() == m.ino())
        })
    {
        return Err(OverwritesInput(output.to_path_buf()).into());
    }
    replaylens::write::check(output, &protected(session), Replace::Allowed)?;
    Ok(())
}

/// Export one replay to a file or stdout; with `releases`, the report carries the verdict per
/// OpenClaw release range (the session replayed and linted under every rule set).
pub fn run(
    path: &Path,
    load: LoadOptions,
    target: &Target,
    replay_options: &ReplayOptions,
    options: &ExportOptions,
    releases: bool,
    output: Option<&PathBuf>,
) -> anyhow::Result<()> {
    if let Some(file) = output {
        check_output(path, file)?;
    }
    let text_format = options.format != replaylens::export::ExportFormat::Json;
    let (exportable, releases) = prepare(path, load, target, replay_options, text_format, releases)?;
    let options = &ExportOptions {
        releases,
        ..options.clone()
    };
    match output {
        Some(file) => {
            let mut out = replaylens::write::create(file, &protected(path), Replace::Allowed)?;
            exportable
                .write(options, &mut out)
                .map_err(super::OutputFileError::new(file))?;
            out.commit()?;
            eprintln!(
                "wrote {}",
                replaylens::text::escape_controls_single_line(&file.display().to_string()).into_owned()
            );
        }
        None => {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            exportable.write(options, &mut out)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// The replay an export renders.
enum Exportable {
    /// Both sides held (every session format).
    Held(Session, Replay<'static>),
    /// An OpenClaw JSONL session: its stored messages, and the replay messages left as stored,
    /// are read back from the file as they are rendered, and the lint section was computed
    /// from a first load, as `replaylens lint` computes it, so neither the stored transcript
    /// nor a payload is held beside the projection.
    ReadBack {
        session: Session,
        replay: Replay<'static>,
        lint: Option<LintFindings>,
        read_back: ReadBack,
    },
}

impl Exportable {
    fn write(self, options: &ExportOptions, out: &mut impl Write) -> std::io::Result<()> {
        match self {
            Self::Held(session, replay) => export_to(&session, &replay, options, out),
            Self::ReadBack {
                session,
                replay,
                lint,
                read_back,
            } => export_reading_back(&session, &replay, options, lint, &read_back, out),
        }
    }
}

/// Load and replay a session for an export, reading its stored messages back from the file
/// when it is an OpenClaw JSONL file. The file is opened before it is loaded, so the file read
/// back is the file loaded (one renamed over it meanwhile is not read).
fn prepare(
    path: &Path,
    load: LoadOptions,
    target: &Target,
    replay_options: &ReplayOptions,
    text: bool,
    releases: bool,
) -> anyhow::Result<(Exportable, Option<String>)> {
    let file = StoredFile::open(path).ok().flatten();
    let first = super::load_transcript_only(path, load.clone())?;
    let releases = releases.then(|| replaylens::scan::releases::matrix(&first, target, replay_options).summary);
    let Some(file) = file.filter(|f| f.is_file_of(&first)) else {
        let (prepared, _) = super::prepare_loaded(first, target, replay_options, text)?;
        let (session, replay) = prepared.into_replay();
        return Ok((Exportable::Held(session, replay), releases));
    };
    let lint = LintFindings::of_prepared(PreparedReplay::new(first, target, replay_options));
    let (prepared, _) = super::load_prepared(path, load, target, replay_options, text)?;
    if !file.is_file_of(&prepared.session) {
        let (session, replay) = prepared.into_replay();
        return Ok((Exportable::Held(session, replay), releases));
    }
    let (session, replay, read_back) = ReadBack::replay(file, prepared)?;
    Ok((
        Exportable::ReadBack {
            session,
            replay,
            lint,
            read_back,
        },
        releases,
    ))
}

/// The export format: `--format` when given, else the one the `-o` file's extension names; a
/// `--format` the extension contradicts, or an extension naming none, is an unusable argument.
pub fn resolve_format(flag: Option<ExportFormat>, output: Option<&Path>) -> Result<ExportFormat, FormatError> {
    let named = output.and_then(ExportFormat::from_path);
    match (flag, named, output) {
        (Some(flag), Some(named), Some(file)) if flag != named => Err(FormatError(format!(
            "--format {} contradicts -o {}, whose extension names {}; drop --format or change the file name",
            flag.extension(),
            shown(file),
            label(named)
        ))),
        (Some(flag), _, _) => Ok(flag),
        (None, Some(named), _) => Ok(named),
        (None, None, Some(file)) => Err(FormatError(format!(
            "cannot tell the export format from -o {}; name it .md, .html or .json, or pass --format md|html|json",
            shown(file)
        ))),
        (None, None, None) => Err(FormatError(
            "the export format is required: pass --format md|html|json or an -o file ending in .md, .html or .json"
                .into(),
        )),
    }
}

fn shown(file: &Path) -> String {
    replaylens::text::escape_controls_single_line(&file.display().to_string()).into_owned()
}

fn label(format: ExportFormat) -> &'static str {
    match format {
        ExportFormat::Markdown => "Markdown",
        ExportFormat::Html => "HTML",
        ExportFormat::Json => "JSON",
    }
}

/// The export format cannot be settled from `--format` and `-o` (exit status 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct FormatError(String);

/// `-o` names the session being exported (unusable argument: exit status 2).
#[derive(Debug, thiserror::Error)]
#[error("{}: refusing to write the export over the session it comes from; choose another -o file", replaylens::text::escape_controls_single_line(&.0.display().to_string()))]
pub struct OverwritesInput(pub PathBuf);

/// Whether `-o` names a session file (`.jsonl`): `export` then writes the session itself.
pub fn names_a_session(output: &Path) -> bool {
    output.extension().is_some_and(|e| e.eq_ignore_ascii_case("jsonl"))
}

/// `export … --with-session FILE`: the session itself beside the report, redacted at the
/// report's level, or at `secrets` when the report is not redacted (the copy is for sharing).
/// Refused when FILE is the report's own `-o` file or the session.
pub fn write_shared_session(
    session: &Path,
    shared: &Path,
    report: Option<&Path>,
    redaction: replaylens::export::Redaction,
) -> anyhow::Result<()> {
    if let Some(report) = report {
        let same = |a: &Path, b: &Path| std::path::absolute(a).ok() == std::path::absolute(b).ok();
        if same(shared, report) || replaylens::export::overwrites_session(shared, report) {
            let why = "--with-session and -o name the same file; give the session copy a name of its own";
            return Err(FormatError(why.into()).into());
        }
    }
    let redaction = match redaction {
        replaylens::export::Redaction::None => replaylens::export::Redaction::Secrets,
        level => level,
    };
    run_session(session, redaction, Some(&shared.to_path_buf()), None)
}

/// `export --format session`: the session file itself, redacted at `redaction`, to `output`
/// or stdout; what was redacted is counted on stderr.
pub fn run_session(
    path: &Path,
    redaction: replaylens::export::Redaction,
    output: Option<&PathBuf>,
    with_session: Option<&Path>,
) -> anyhow::Result<()> {
    if with_session.is_some() {
        let why =
            "--with-session goes with a report (--format md, html or json); --format session writes the session alone";
        return Err(FormatError(why.into()).into());
    }
    if let Some(file) = output {
        check_output(path, file)?;
    }
    let (text, format) = super::session_text(path, LoadOptions::default())?;
    let (redacted, counts) = replaylens::export::session_file::redacted_session(&text, format, redaction)?;
    match output {
        Some(file) => {
            replaylens::write::write_file(file, &protected(path), Replace::Allowed, redacted.as_bytes())?;
            eprintln!(
                "wrote {}",
                replaylens::text::escape_controls_single_line(&file.display().to_string()).into_owned()
            );
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(redacted.as_bytes())?;
            out.flush()?;
        }
    }
    if redaction == replaylens::export::Redaction::None {
        eprintln!("note: not redacted (add --redact to replace secrets before sharing)");
    } else {
        let what: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
        eprintln!(
            "redacted: {}",
            if what.is_empty() {
                "nothing found".to_owned()
            } else {
                what.join(", ")
            }
        );
    }
    Ok(())
}
