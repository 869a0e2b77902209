//! `R`: reduce the open session to what reproduces the selected row's finding (or, without
//! one, its first rewrite's rule), on its own thread, then open the reduced session. The
//! header shows the reduction's progress meanwhile; the file goes to the current directory as
//! `<session>.reduced.jsonl` (or `.json`), redacted, with the side file `replaylens reduce`
//! writes (`<session>.reduced.jsonl.reduce.json`: what it reproduces, for which target and rule
//! set, and the command that shows it).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, channel};

use replaylens::hygiene::ReplayOptions;
use replaylens::policy::Target;
use replaylens::reduce::side::{record, side_file};
use replaylens::reduce::{Keep, ReduceOptions, reduce};
use replaylens::write::{Protected, Replace};

use super::app::{App, LoadRequest};

/// A reduction to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReduceRequest {
    /// The session file.
    pub source: PathBuf,
    /// Its format, as the load that opened it found (`openclaw-jsonl`, …).
    pub format: String,
    /// The resolved target of the open session.
    pub target: Target,
    /// Its replay options (rule set).
    pub options: ReplayOptions,
    /// What to keep.
    pub keep: Keep,
    /// Where to write.
    pub output: PathBuf,
}

/// What a reduction reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReduceEvent {
    /// Units left of the start, and checks made.
    Progress(usize, usize, usize),
    /// It ended: the file written and its units, or one sentence.
    Done(Result<(PathBuf, usize, usize), String>),
}

/// `<stem>.reduced.jsonl` in the current directory, numbered when it exists.
pub fn output_for(source: &Path, format: &str) -> PathBuf {
    output_in(&std::env::current_dir().unwrap_or_default(), source, format)
}

/// `<stem>.reduced.jsonl` in `dir`, numbered while it or its side file exists; a link there,
/// dangling or not, counts as taken, so `R` never writes through a planted one.
pub fn output_in(dir: &Path, source: &Path, format: &str) -> PathBuf {
    let stem = source
        .file_stem()
        .map_or_else(|| "session".into(), |s| s.to_string_lossy().into_owned());
    let ext = if format == "message-array" { "json" } else { "jsonl" };
    let mut path = dir.join(format!("{stem}.reduced.{ext}"));
    let mut n = 2;
    while std::fs::symlink_metadata(&path).is_ok() || std::fs::symlink_metadata(side_file(&path)).is_ok() {
        path = dir.join(format!("{stem}.reduced-{n}.{ext}"));
        n += 1;
    }
    path
}

fn work(
    request: &ReduceRequest,
    progress: &mut dyn FnMut(usize, usize, usize),
) -> Result<(PathBuf, usize, usize), String> {
    let text = std::fs::read_to_string(&request.source).map_err(|e| format!("reduce failed: {e}"))?;
    let options = ReduceOptions {
        target: request.target.clone(),
        replay: request.options.clone(),
        keep: request.keep.clone(),
        max_time: Some(std::time::Duration::from_secs(120)),
        redact: true,
        cancel: Arc::new(AtomicBool::new(false)),
    };
    let reduced = reduce(&text, &request.format, &options, &mut |p| {
        progress(p.units, p.of, p.checks)
    })
    .map_err(|e| e.to_string())?;
    let side = side_file(&request.output);
    // Neither output may replace the session, a companion of it, or the other output.
    let mut for_output = Protected::session(&request.source);
    for_output.add(&side);
    let mut for_side = Protected::session(&request.source);
    for_side.add(&request.output);
    let record = record(
        &request.source,
        &request.format,
        &request.output,
        &options,
        &request.keep,
        &reduced,
    );
    let record = serde_json::to_string_pretty(&record).map_err(|e| e.to_string())? + "\n";
    replaylens::write::write_file(&request.output, &for_output, Replace::Never, reduced.text.as_bytes())
        .map_err(|e| e.to_string())?;
    replaylens::write::write_file(&side, &for_side, Replace::Never, record.as_bytes()).map_err(|e| e.to_string())?;
    Ok((request.output.clone(), reduced.units.0, reduced.units.1))
}

/// Run `request` on its own thread; its progress and end arrive on the receiver.
pub fn spawn(request: ReduceRequest) -> Receiver<ReduceEvent> {
    let (tx, rx) = channel();
    let worker = move || {
        let result = work(&request, &mut |left, of, checks| {
            let _ = tx.send(ReduceEvent::Progress(left, of, checks));
        });
        let _ = tx.send(ReduceEvent::Done(result));
    };
    if let Err(e) = std::thread::Builder::new()
        .name("replaylens-reduce".into())
        .stack_size(64 << 20)
        .spawn(worker)
    {
        let (tx, rx) = channel();
        let _ = tx.send(ReduceEvent::Done(Err(format!("cannot start the reduction: {e}"))));
        return rx;
    }
    rx
}

impl App {
    /// `R`: what the selected row shows (a finding of the payload in view, else its first
    /// rewrite's rule) becomes a reduction request.
    pub fn request_reduce(&mut self) {
        if self.reducing.is_some() {
            self.status = Some("a reduction is already running".into());
            return;
        }
        let Some(insp) = &self.insp else {
            self.status = Some("no session to reduce".into());
            return;
        };
        let Some(row) = self.selected_row() else { return };
        let finding = insp
            .wire
            .findings_on(replaylens::wire::WireStage::Replay, row.replay, &row.stored)
            .first()
            .map(|f| f.constraint);
        let rule = row.rewrites.iter().find_map(|&k| insp.rewrites.get(k)).map(|r| r.rule);
        let keep = match (finding, rule) {
            (Some(c), _) => Keep::Finding(c.to_owned()),
            (None, Some(r)) => Keep::Rule(r.to_owned()),
            (None, None) => {
                self.status = Some("R reduces to a finding or a rewrite: this row has neither".into());
                return;
            }
        };
        let request = ReduceRequest {
            source: insp.session.path.clone(),
            format: insp.session.format.clone(),
            target: insp.resolved.target.clone(),
            options: insp.options.clone(),
            output: output_for(&insp.session.path, &insp.session.format),
            keep,
        };
        self.status = Some(format!("reducing to {} …", request.keep.describe()));
        self.reducing = Some((0, 0, 0));
        self.effects.push(super::app::Effect::Reduce(request));
    }

    /// A reduction moved on.
    pub fn reduce_progress(&mut self, left: usize, of: usize, checks: usize) {
        if self.reducing.is_some() {
            self.reducing = Some((left, of, checks));
        }
    }

    /// A reduction ended: open the reduced session, or say why not.
    pub fn reduce_done(&mut self, result: Result<(PathBuf, usize, usize), String>) {
        self.reducing = None;
        match result {
            Ok((path, left, of)) => {
                let target = self
                    .insp
                    .as_ref()
                    .map(|i| i.resolved.target.clone())
                    .unwrap_or_default();
                self.status = Some(format!("reduced to {left} of {of} entries: {}", path.display()));
                self.request_load(LoadRequest {
                    path,
                    session: None,
                    target,
                    rule_set: self.rule_set,
                    rule_set_from_session: false,
                    config: None,
                });
            }
            Err(e) => self.status = Some(e),
        }
    }
}
