//! Writing an export the export dialog asked for ([`super::overlay::export`]): the comparison
//! is re-loaded, replayed and written through the library's exporter, reporting its stage. The
//! event loop runs it on its own thread ([`super::export_job`]); render never touches the disk.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use replaylens::export::{ExportOptions, export_to, overwrites_session};
use replaylens::hygiene::ReplayOptions;
use replaylens::load::{Keep, LoadOptions, load_path};
use replaylens::policy::Target;
use replaylens::replay::PreparedReplay;
use replaylens::write::{Protected, Replace};

use super::app::App;
use super::export_job::ExportStage;
use super::overlay::{ExportDialog, Mode};

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
/// loaded, the verdict carries the line per OpenClaw release range, and the report is written
/// as it is rendered), reporting each stage; the number of bytes written, or one sentence.
pub fn write(request: &ExportRequest, progress: &mut dyn FnMut(ExportStage)) -> Result<usize, String> {
    let options = LoadOptions {
        session: request.db_session.clone(),
        keep: Keep::Transcript,
        ..LoadOptions::default()
    };
    progress(ExportStage::Loading);
    let session = load_path(&request.source, &options).map_err(|e| format!("export failed: {e}"))?;
    progress(ExportStage::Replaying);
    let releases = replaylens::scan::releases::matrix(&session, &request.target, &request.replay_options).summary;
    let (session, computed) = PreparedReplay::new(session, &request.target, &request.replay_options).into_replay();
    let options = ExportOptions {
        releases: Some(releases),
        ..request.options.clone()
    };
    let out = request.output.display();
    if overwrites_session(&request.source, &request.output) {
        return Err(format!("{out} is the session being exported; nothing written"));
    }
    let replace = if request.overwrite {
        Replace::Allowed
    } else {
        Replace::Never
    };
    let file = replaylens::write::create(&request.output, &Protected::session(&request.source), replace)
        .map_err(|e| e.to_string())?;
    progress(ExportStage::Writing(0));
    let mut written = Counted {
        inner: file,
        bytes: 0,
        reported: 0,
        at: Instant::now(),
        progress,
    };
    export_to(&session, &computed, &options, &mut written)
        .and_then(|()| written.flush())
        .map_err(|e| format!("cannot write {out}: {e}; nothing was left under that name"))?;
    let bytes = written.bytes;
    written.inner.commit().map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// Bytes written between two progress reports (and at most one report per this interval).
const REPORT_BYTES: usize = 256 * 1024;
const REPORT_EVERY: Duration = Duration::from_millis(100);

/// A writer that counts the bytes it passes on and reports them now and then.
struct Counted<'p, W> {
    inner: W,
    bytes: usize,
    reported: usize,
    at: Instant,
    progress: &'p mut dyn FnMut(ExportStage),
}

impl<W: Write> Write for Counted<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n;
        if self.bytes - self.reported >= REPORT_BYTES && self.at.elapsed() >= REPORT_EVERY {
            (self.progress)(ExportStage::Writing(self.bytes));
            self.reported = self.bytes;
            self.at = Instant::now();
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
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

    #[cfg(test)]
    /// Carry out an export request on this thread and report it in the status bar (the
    /// event loop runs it on its own thread instead: [`super::export_job`]).
    pub fn perform_export(&mut self, request: &ExportRequest) {
        self.export_done(write(request, &mut |_| {}), request);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_under_the_current_directory() {
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(absolute("out/x.md").unwrap(), cwd.join("out/x.md"));
        assert_eq!(absolute("/tmp/x.md").unwrap(), PathBuf::from("/tmp/x.md"));
    }
}
