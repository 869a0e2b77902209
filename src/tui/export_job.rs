//! An export from the dialog, run off the UI thread: the session is re-loaded, replayed and
//! the report written as it is rendered, while the inspector keeps answering keys and shows
//! the stage and the bytes written so far.

use std::sync::mpsc::{Receiver, Sender, channel};

use super::app::App;
use super::export_write::{ExportRequest, write};

/// Where an export is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportStage {
    /// Reading the session again.
    Loading,
    /// Running the rules.
    Replaying,
    /// Writing the report; the bytes written so far.
    Writing(usize),
}

impl ExportStage {
    /// The stage in a few words: `reading the session`, `writing: 12.3 MB`.
    pub fn describe(self) -> String {
        match self {
            Self::Loading => "reading the session".into(),
            Self::Replaying => "replaying".into(),
            Self::Writing(bytes) => format!("writing: {}", replaylens::model::image::human_bytes(bytes)),
        }
    }
}

/// What an export job reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportEvent {
    /// It moved on.
    Progress(ExportStage),
    /// It ended: the bytes written, or one sentence.
    Done(Result<usize, String>),
}

/// Run `request` on its own thread; its progress and end arrive on the receiver.
pub fn spawn(request: ExportRequest) -> Receiver<ExportEvent> {
    let (tx, rx) = channel();
    let worker = move || {
        let result = write(&request, &mut |stage| {
            let _ = tx.send(ExportEvent::Progress(stage));
        });
        let _ = tx.send(ExportEvent::Done(result));
    };
    // The rules walk values recursively: the loader's stack size.
    let spawned = std::thread::Builder::new()
        .name("replaylens-export".into())
        .stack_size(64 << 20)
        .spawn(worker);
    if let Err(e) = spawned {
        let (tx, rx): (Sender<ExportEvent>, _) = channel();
        let _ = tx.send(ExportEvent::Done(Err(format!("cannot start the export: {e}"))));
        return rx;
    }
    rx
}

impl App {
    /// An export job was started: the header shows it until it ends.
    pub fn export_started(&mut self) {
        self.exporting = Some(ExportStage::Loading);
    }

    /// An export job moved on.
    pub fn export_progress(&mut self, stage: ExportStage) {
        if self.exporting.is_some() {
            self.exporting = Some(stage);
        }
    }

    /// An export ended: say where it went, or why not.
    pub fn export_done(&mut self, result: Result<usize, String>, request: &ExportRequest) {
        self.exporting = None;
        self.status = Some(match result {
            Ok(n) => format!("wrote {} ({})", request.output.display(), super::app::plural(n, "byte")),
            Err(e) => e,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_read_as_words() {
        assert_eq!(ExportStage::Loading.describe(), "reading the session");
        assert!(ExportStage::Writing(3 << 20).describe().starts_with("writing: 3"));
    }
}
