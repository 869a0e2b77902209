//! Loading a session on a background thread, reporting its stage, so the screen stays live
//! (and shows progress) while a large session is read and replayed.

use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::thread;

use replaylens::hygiene::ReplayOptions;
use replaylens::load::preview::Preview;
use replaylens::load::progress::Progress;
use replaylens::load::tail::TailReader;
use replaylens::load::{LoadOptions, load_path};
use replaylens::model::{Agent, Session, SessionFormat};

use super::app::LoadRequest;
use super::inspection::{Inspection, SessionInfo};

/// A message from the loader thread.
#[derive(Debug)]
pub enum LoadEvent {
    /// Now doing this.
    Stage(String),
    /// Bytes of the file read so far, of `total`.
    Progress {
        /// Bytes read.
        read: u64,
        /// The file's size.
        total: u64,
    },
    /// The first messages of a large file, read so far (file order, provisional): shown
    /// while the rest is read.
    Preview(Box<Inspection>),
    /// The stored side is ready; the projection follows.
    Stored(Box<Inspection>),
    /// Finished (or failed with one sentence).
    Done(Box<Result<Inspection, String>>),
}

/// Where the loader sends its events.
pub type Report = Arc<dyn Fn(LoadEvent) + Send + Sync>;

/// Load and replay synchronously, reporting stages, read progress and the stored side
/// (before the projection) through `report`.
pub fn load(request: &LoadRequest, report: &Report) -> Result<Inspection, String> {
    report(LoadEvent::Stage("reading".into()));
    let total = std::fs::metadata(&request.path).map_or(0, |m| m.len());
    let progress = {
        let report = Arc::clone(report);
        Progress::new(move |read| report(LoadEvent::Progress { read, total }))
    };
    let options = LoadOptions {
        session: request.session.clone(),
        progress: Some(progress),
        preview: (total >= PREVIEW_FROM_BYTES).then(|| preview(request, report)),
        ..LoadOptions::default()
    };
    let session = load_path(&request.path, &options).map_err(|e| e.to_string())?;
    inspect(request, report, session)
}

/// Read what an agent appended to a followed session (only the new lines of a JSONL file,
/// the whole file otherwise; all of it when `from_start`) and replay it, reporting as [`load`]
/// does.
pub fn load_followed(
    request: &LoadRequest,
    tail: &Mutex<TailReader>,
    from_start: bool,
    report: &Report,
) -> Result<Inspection, String> {
    report(LoadEvent::Stage("reading".into()));
    let mut tail = tail.lock().map_err(|_| "the live reader failed before".to_owned())?;
    if from_start {
        tail.forget();
    }
    let (session, _) = tail.read().map_err(|e| e.to_string())?;
    drop(tail);
    inspect(request, report, session)
}

/// Replay a loaded session, reporting the stored side before the projection.
fn inspect(request: &LoadRequest, report: &Report, session: Session) -> Result<Inspection, String> {
    report(LoadEvent::Stage("replaying".into()));
    let info = session_info(&session);
    let options = replaylens::replay::options_for_session(
        &session,
        &ReplayOptions {
            rule_set: request.rule_set,
            rule_set_from_session: request.rule_set_from_session,
            image_max_px: request
                .config
                .as_deref()
                .and_then(replaylens::policy::config::image_max_dimension_px)
                .unwrap_or(ReplayOptions::default().image_max_px),
            config: request.config.clone(),
            ..ReplayOptions::default()
        },
    );
    let file_problems: Vec<String> = session
        .diagnostics
        .iter()
        .map(|d| super::inspection::problem_line(d, &session.path))
        .collect();
    // The inspection shares the session's messages: nothing is copied.
    let mut insp = Inspection::stored_only(info, request.target.clone(), session.transcript().into_owned(), options);
    insp.load_problems.splice(0..0, file_problems);
    insp.load_notes += session
        .diagnostics
        .iter()
        .filter(|d| d.severity == replaylens::model::Severity::Note)
        .count();
    // The stored side shares its transcript with the copy the projection is computed on.
    report(LoadEvent::Stored(Box::new(insp.clone())));
    // What is left of the session is freed only once the stored side is on its way.
    drop(session);
    Ok(insp.complete())
}

/// Files from this size on get a preview of their first messages while they are read;
/// smaller ones are read before a frame could show it.
pub const PREVIEW_FROM_BYTES: u64 = 4 << 20;

/// The callback that turns the session read so far into a provisional stored side.
fn preview(request: &LoadRequest, report: &Report) -> Preview {
    let report = Arc::clone(report);
    let target = request.target.clone();
    let rule_set = request.rule_set;
    let config = request.config.clone();
    Preview::new(move |partial: Session| {
        let options = ReplayOptions {
            rule_set,
            config: config.clone(),
            ..ReplayOptions::default()
        };
        let info = session_info(&partial);
        let mut insp = Inspection::stored_only(info, target.clone(), partial.transcript().into_owned(), options);
        insp.preview = true;
        report(LoadEvent::Preview(Box::new(insp)));
    })
}

/// What the header names: the file, the session id and the format.
fn session_info(session: &Session) -> SessionInfo {
    SessionInfo {
        path: session.path.clone(),
        id: session.id.clone(),
        format: match session.format.agent() {
            Agent::ClaudeCode | Agent::Codex => {
                format!("{} · {}", session.format.agent().name(), session.format.as_str())
            }
            _ => session.format.as_str().to_owned(),
        },
        db_session: (session.format == SessionFormat::OpenClawSqlite).then(|| session.id.clone()),
    }
}

/// The loader thread's stack: 64 MiB (address space, committed only as used).
const LOADER_STACK: usize = 64 << 20;

/// Start a load; events arrive on the returned receiver.
pub fn spawn(request: LoadRequest) -> Receiver<LoadEvent> {
    spawn_with(move |report| load(&request, report))
}

/// Start reading what was appended to a followed session; events arrive on the returned
/// receiver, as for [`spawn`].
pub fn spawn_followed(read: super::live::LiveRead) -> Receiver<LoadEvent> {
    spawn_with(move |report| load_followed(&read.request, &read.tail, read.from_start, report))
}

/// Run `work` on the loader thread, sending its events and result.
fn spawn_with(work: impl FnOnce(&Report) -> Result<Inspection, String> + Send + 'static) -> Receiver<LoadEvent> {
    let (tx, rx) = channel();
    let worker = move || {
        let events = tx.clone();
        let report: Report = Arc::new(move |event| {
            let _ = events.send(event);
        });
        let result = work(&report);
        let _ = tx.send(LoadEvent::Done(Box::new(result)));
    };
    // Rules and views walk values recursively; a stack as deep as the main thread's keeps
    // values nested up to `MAX_NESTING` levels safe here too.
    let spawned = thread::Builder::new()
        .name("replaylens-load".into())
        .stack_size(LOADER_STACK)
        .spawn(worker);
    if let Err(e) = spawned {
        let (tx, failed) = channel();
        let _ = tx.send(LoadEvent::Done(Box::new(Err(format!("cannot start the loader: {e}")))));
        return failed;
    }
    rx
}
