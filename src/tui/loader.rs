//! Loading a session on a background thread, reporting its stage, so the screen stays live
//! (and shows progress) while a large session is read and replayed.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;

use replaylens::hygiene::ReplayOptions;
use replaylens::load::{LoadOptions, load_path};
use replaylens::model::SessionFormat;
use replaylens::replay::replay;

use super::app::LoadRequest;
use super::inspection::{Inspection, SessionInfo};

/// A message from the loader thread.
#[derive(Debug)]
pub enum LoadEvent {
    /// Now doing this.
    Stage(String),
    /// Finished (or failed with one sentence).
    Done(Box<Result<Inspection, String>>),
}

/// Load and replay synchronously.
pub fn load(request: &LoadRequest, stage: &dyn Fn(&str)) -> Result<Inspection, String> {
    stage("reading");
    let options = LoadOptions {
        session: request.session.clone(),
        ..LoadOptions::default()
    };
    let session = load_path(&request.path, &options).map_err(|e| e.to_string())?;
    stage("replaying");
    let info = SessionInfo {
        path: session.path.clone(),
        id: session.id.clone(),
        format: session.format.as_str().to_owned(),
        db_session: (session.format == SessionFormat::OpenClawSqlite).then(|| session.id.clone()),
    };
    let options = ReplayOptions {
        rule_set: request.rule_set,
        ..ReplayOptions::default()
    };
    let computed = replay(&session, &request.target, &options);
    let mut insp = Inspection::from_replay(info, request.target.clone(), computed);
    let file_problems = session.diagnostics.iter().map(ToString::to_string);
    insp.load_problems.splice(0..0, file_problems);
    Ok(insp)
}

/// The loader thread's stack: 64 MiB (address space, committed only as used).
const LOADER_STACK: usize = 64 << 20;

/// Start a load; events arrive on the returned receiver.
pub fn spawn(request: LoadRequest) -> Receiver<LoadEvent> {
    let (tx, rx) = channel();
    let worker = move || {
        let stage_tx: Sender<LoadEvent> = tx.clone();
        let stage = move |s: &str| {
            let _ = stage_tx.send(LoadEvent::Stage(s.to_owned()));
        };
        let result = load(&request, &stage);
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
