//! The session picker's per-session counts. When the picker opens, a background scan
//! ([`replaylens::scan::scan_source`]) replays and lints every file it lists for the session's
//! own target; each file's rows fill the picker's rows as they arrive, so the counts appear
//! while the user types, the list can be sorted by them, and `Enter` opens a session at its
//! first replay-payload finding.
//!
//! The picker owns a [`PickerScan`]: one [`Cell`] per listing and, until the event loop takes
//! it, the [`ScanJob`]. The event loop's [`Scanner`] runs the job on its own thread and hands
//! each file's [`ScanResult`] to [`App::scan_ready`]. Every picker gets a new generation: a
//! result for a picker that has closed (or been replaced) is dropped, and so is the receiver,
//! which makes the worker stop before its next file.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};

use rayon::prelude::*;
use replaylens::hygiene::ReplayOptions;
use replaylens::load::discover::Listing;
use replaylens::load::is_database;
use replaylens::rule_set::RuleSet;
use replaylens::scan::{ScanOptions, SessionScan, Verdict, scan_source};

use super::app::{App, Mode};
use super::overlay::SessionPicker;

/// What the scan found for one session, as a picker row shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Rewrites the replay made.
    pub rewrites: usize,
    /// Lint findings on the stored payload (what a client without hygiene would send).
    pub stored_findings: usize,
    /// Lint findings on the replay payload.
    pub replay_findings: usize,
    /// Whether the provider would reject the replay payload.
    pub rejected: bool,
    /// The stored message of the first replay-payload finding.
    pub first_finding_stored: Option<usize>,
}

impl Counts {
    /// The counts of a scanned session (over its targets: here, its own one).
    pub fn of(row: &SessionScan) -> Self {
        Self {
            rewrites: row.rewrites(),
            stored_findings: row.targets.iter().map(|t| t.stored_findings).sum(),
            replay_findings: row.replay_findings(),
            rejected: row.targets.iter().any(|t| {
                matches!(
                    t.verdict,
                    Verdict::WouldBeRejected | Verdict::Refused | Verdict::NoRoute
                )
            }),
            first_finding_stored: row.targets.iter().find_map(|t| t.first_finding_stored),
        }
    }
}

/// A listing's counts in the picker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Not scanned yet.
    Pending,
    /// Scanned.
    Known(Counts),
    /// Nothing to show: the listing is unreadable, or the scan found no row for it.
    Unavailable,
}

/// Width of the counts column of the session picker (the rejected marker follows it).
pub const COUNTS_WIDTH: usize = 20;

impl Cell {
    /// The counts column, `  27 rw     5→0 lint` (rewrites, stored → replay findings), `…`
    /// while pending, blank when unavailable; and whether the rejected marker follows.
    pub fn text(self) -> (String, bool) {
        match self {
            Self::Pending => (format!("{:>4}", "…"), false),
            Self::Known(c) => (
                format!(
                    "{:>4} rw {:>7} lint",
                    c.rewrites,
                    format!("{}→{}", c.stored_findings, c.replay_findings)
                ),
                c.rejected,
            ),
            Self::Unavailable => (String::new(), false),
        }
    }

    fn rank(self) -> u8 {
        match self {
            Self::Known(_) => 0,
            Self::Pending => 1,
            Self::Unavailable => 2,
        }
    }
}

/// The order of the session picker; `Tab` / `Shift-Tab` cycle it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortOrder {
    /// Grouped by agent, newest first (the default).
    #[default]
    Newest,
    /// Most replay-payload findings first, then most stored-payload findings, then most
    /// rewrites.
    Findings,
    /// Most rewrites first, then most replay-payload findings.
    Rewrites,
}

impl SortOrder {
    /// Every order, in cycling order.
    pub const ALL: [Self; 3] = [Self::Newest, Self::Findings, Self::Rewrites];

    /// The next order (`forward`) or the previous one.
    pub fn cycle(self, forward: bool) -> Self {
        let at = Self::ALL.iter().position(|o| *o == self).unwrap_or(0);
        let n = Self::ALL.len();
        Self::ALL[if forward { (at + 1) % n } else { (at + n - 1) % n }]
    }

    /// What the order is, for the title and the heading of a sorted list.
    pub fn label(self) -> &'static str {
        match self {
            Self::Newest => "newest first",
            Self::Findings => "most replay findings first",
            Self::Rewrites => "most rewrites first",
        }
    }

    /// What switching to this order does, for the title's key hint.
    pub fn verb(self) -> &'static str {
        match self {
            Self::Newest => "sort by date",
            Self::Findings => "sort by findings",
            Self::Rewrites => "sort by rewrites",
        }
    }

    /// Compare two listings' counts for this order: known counts first (more first), then
    /// pending ones, then those without counts. Equal for [`SortOrder::Newest`].
    pub fn compare(self, a: Cell, b: Cell) -> Ordering {
        let key = |c: Counts| match self {
            Self::Newest => (0, 0, 0),
            Self::Findings => (c.replay_findings, c.stored_findings, c.rewrites),
            Self::Rewrites => (c.rewrites, c.replay_findings, c.stored_findings),
        };
        match (self, a, b) {
            (Self::Newest, ..) => Ordering::Equal,
            (_, Cell::Known(x), Cell::Known(y)) => key(y).cmp(&key(x)),
            _ => a.rank().cmp(&b.rank()),
        }
    }
}

/// The files one picker asks to scan, and with which rule set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanJob {
    /// The picker it is for.
    pub generation: u64,
    /// Each file once (a database once for all its windows), in the picker's order.
    pub paths: Vec<PathBuf>,
    /// The OpenClaw rule set the inspector replays with.
    pub rule_set: &'static RuleSet,
}

impl ScanJob {
    /// Scan options: each session's own target, the app's rule set, default load limits.
    pub fn options(&self) -> ScanOptions {
        ScanOptions {
            targets: Vec::new(),
            replay: ReplayOptions {
                rule_set: self.rule_set,
                ..ReplayOptions::default()
            },
            load: replaylens::load::LoadOptions::default(),
            memory_budget: None,
        }
    }
}

/// One file's rows, from the scan.
#[derive(Debug)]
pub struct ScanResult {
    /// The picker it is for.
    pub generation: u64,
    /// The file.
    pub path: PathBuf,
    /// Its sessions (one per database window; one with its error when it could not be read).
    pub rows: Vec<SessionScan>,
}

/// The scan state of one session picker.
#[derive(Debug, Clone, Default)]
pub struct PickerScan {
    /// Which picker this is; results for another one are dropped.
    pub generation: u64,
    /// The scan to start, until the event loop takes it.
    pub job: Option<ScanJob>,
    /// One cell per listing, by index.
    pub cells: Vec<Cell>,
}

/// Picker generations: each picker's scan gets a new one.
static GENERATION: AtomicU64 = AtomicU64::new(1);

impl PickerScan {
    /// Nothing scanned yet: unreadable listings have nothing to show, the others are pending.
    pub fn new(listings: &[Listing]) -> Self {
        Self {
            generation: 0,
            job: None,
            cells: listings
                .iter()
                .map(|l| {
                    if l.error.is_some() {
                        Cell::Unavailable
                    } else {
                        Cell::Pending
                    }
                })
                .collect(),
        }
    }

    /// Sessions whose counts are still coming.
    pub fn pending(&self) -> usize {
        self.cells.iter().filter(|c| **c == Cell::Pending).count()
    }
}

impl SessionPicker {
    /// Ask for the scan of every file with a pending listing, in the order shown.
    pub fn start_scan(&mut self, rule_set: &'static RuleSet) {
        let generation = GENERATION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut seen = HashSet::new();
        let order = self.matches.iter().copied().chain(0..self.listings.len());
        let paths: Vec<PathBuf> = order
            .filter(|&i| self.cell(i) == Cell::Pending)
            .map(|i| &self.listings[i].path)
            .filter(|p| seen.insert(p.as_path()))
            .cloned()
            .collect();
        self.scan.generation = generation;
        let any = !paths.is_empty();
        self.scan.job = any.then_some(ScanJob {
            generation,
            paths,
            rule_set,
        });
    }

    /// One file's rows: fill the cells of its listings (a database's windows matched by
    /// session id and key, in order). Sorted by a count, the caller sorts again.
    pub fn apply_scan(&mut self, path: &Path, rows: &[SessionScan]) {
        let database = is_database(path);
        let mut used = vec![false; rows.len()];
        for (i, l) in self.listings.iter().enumerate() {
            if l.path != path || self.scan.cells.get(i) != Some(&Cell::Pending) {
                continue;
            }
            let found = rows
                .iter()
                .enumerate()
                .position(|(r, row)| !used[r] && (!database || (row.id == l.id && row.session_key == l.session_key)));
            let cell = match found {
                Some(r) => {
                    used[r] = true;
                    match rows[r].error {
                        Some(_) => Cell::Unavailable,
                        None => Cell::Known(Counts::of(&rows[r])),
                    }
                }
                None => Cell::Unavailable,
            };
            self.scan.cells[i] = cell;
        }
    }

    /// The scan ended: listings still pending have nothing to show.
    pub fn finish_scan(&mut self) {
        for c in &mut self.scan.cells {
            if *c == Cell::Pending {
                *c = Cell::Unavailable;
            }
        }
        if self.order != SortOrder::Newest {
            self.resort();
        }
    }

    /// Sort again (the order changed or counts arrived), the same session staying selected.
    pub fn resort(&mut self) {
        let current = self.matches.get(self.selected).copied();
        self.rebuild();
        self.selected = current
            .and_then(|i| self.matches.iter().position(|&m| m == i))
            .unwrap_or(0);
    }

    /// The counts of a listing.
    pub fn cell(&self, index: usize) -> Cell {
        self.scan.cells.get(index).copied().unwrap_or(Cell::Unavailable)
    }

    /// Switch to the next (or previous) order, the first session selected (the one with
    /// the most findings or rewrites, or the newest).
    pub fn cycle_order(&mut self, forward: bool) {
        self.order = self.order.cycle(forward);
        self.rebuild();
        self.selected = 0;
    }

    /// The stored message of the selected session's first replay-payload finding, once known.
    pub fn first_finding(&self) -> Option<usize> {
        match self.cell(*self.matches.get(self.selected)?) {
            Cell::Known(c) => c.first_finding_stored,
            Cell::Pending | Cell::Unavailable => None,
        }
    }
}

/// Scan on a thread (files in parallel on a pool of its own, with the loader's deep stacks);
/// each file's result arrives on the returned receiver as soon as it is done. Dropping the
/// receiver stops the scan before its next file.
pub fn spawn(job: ScanJob) -> Receiver<ScanResult> {
    let (tx, rx) = channel();
    let worker = move || run(&job, &tx);
    // A failed spawn drops the sender: the receiver reports the scan as ended at once.
    let _ = std::thread::Builder::new()
        .name("replaylens-scan".into())
        .stack_size(SCAN_STACK)
        .spawn(worker);
    rx
}

/// Stack of the scan threads: as the loader's (rules and converters recurse into values).
const SCAN_STACK: usize = 64 << 20;

fn run(job: &ScanJob, tx: &Sender<ScanResult>) {
    let options = job.options();
    let stopped = AtomicBool::new(false);
    let one = |path: &PathBuf| {
        if stopped.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        let rows = scan_source(path, &options);
        let result = ScanResult {
            generation: job.generation,
            path: path.clone(),
            rows,
        };
        if tx.send(result).is_err() {
            stopped.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(SCAN_STACK)
        .thread_name(|i| format!("replaylens-scan-{i}"))
        .build();
    match pool {
        Ok(pool) => pool.install(|| job.paths.par_iter().for_each(one)),
        Err(_) => job.paths.iter().for_each(one),
    }
}

/// The event loop's side of the scan: starts a picker's job, drains its results into the app,
/// and drops the receiver (stopping the worker) once that picker has closed.
#[derive(Debug, Default)]
pub struct Scanner {
    running: Option<(u64, Receiver<ScanResult>)>,
}

impl Scanner {
    /// Start a new picker's scan, apply what arrived; true when the picker changed.
    pub fn pump(&mut self, app: &mut App) -> bool {
        if let Some(job) = app.take_scan_job() {
            self.running = Some((job.generation, spawn(job)));
        }
        let Some((generation, rx)) = &self.running else {
            return false;
        };
        let generation = *generation;
        if !app.wants_scan(generation) {
            self.running = None;
            return false;
        }
        let mut batch = Vec::new();
        let ended = loop {
            match rx.try_recv() {
                Ok(result) => batch.push(result),
                Err(TryRecvError::Empty) => break false,
                Err(TryRecvError::Disconnected) => break true,
            }
        };
        let changed = ended || !batch.is_empty();
        app.scan_ready(batch);
        if ended {
            app.scan_done(generation);
            self.running = None;
        }
        changed
    }

    /// True while a scan is running (the event loop then wakes often to show its results).
    pub fn busy(&self) -> bool {
        self.running.is_some()
    }
}

impl App {
    /// The scan a session picker that has just opened asks for (the event loop runs it).
    pub fn take_scan_job(&mut self) -> Option<ScanJob> {
        match &mut self.mode {
            Mode::Sessions(p) => p.scan.job.take(),
            _ => None,
        }
    }

    /// True while the picker that asked for scan `generation` is open.
    pub fn wants_scan(&self, generation: u64) -> bool {
        matches!(&self.mode, Mode::Sessions(p) if p.scan.generation == generation)
    }

    /// Files' rows arrived: fill the picker's rows, sorting once (results for a picker that
    /// has closed are dropped).
    pub fn scan_ready(&mut self, results: Vec<ScanResult>) {
        let Mode::Sessions(p) = &mut self.mode else { return };
        let mut applied = false;
        let generation = p.scan.generation;
        for result in results.iter().filter(|r| r.generation == generation) {
            p.apply_scan(&result.path, &result.rows);
            applied = true;
        }
        if applied && p.order != SortOrder::Newest {
            p.resort();
        }
    }

    /// Scan `generation` ended: its picker's rows still pending show nothing.
    pub fn scan_done(&mut self, generation: u64) {
        if let Mode::Sessions(p) = &mut self.mode
            && p.scan.generation == generation
        {
            p.finish_scan();
        }
    }

    /// A session was opened at its first finding: select that stored message's row (call
    /// when the new inspection is first shown; the selection then stays on it as the
    /// projection lands).
    pub(super) fn select_open_at(&mut self) {
        let Some(stored) = self.open_at.take() else { return };
        if self.select_stored(stored) {
            self.status = Some(format!("at the first replay lint finding (stored #{stored}; x: next)"));
        }
    }

    /// Run the picker's scan here and now (tests run no event loop).
    #[cfg(test)]
    pub fn compute_scan_now(&mut self) {
        let Some(job) = self.take_scan_job() else { return };
        let options = job.options();
        for path in &job.paths {
            let rows = scan_source(path, &options);
            self.scan_ready(vec![ScanResult {
                generation: job.generation,
                path: path.clone(),
                rows,
            }]);
        }
        self.scan_done(job.generation);
    }
}
