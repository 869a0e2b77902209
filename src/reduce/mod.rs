//! `reduce`: cut a session down to the few entries that still reproduce one thing (a provider
//! lint finding, a rule's rewrite, or a rejected payload) for one target and rule set, so a bug
//! report carries a small, redacted, reproducible case instead of a whole transcript.
//!
//! Delta debugging: whole entries first (ddmin: chunks of halving size, then one by one), then
//! content blocks of the messages left, then long texts shortened and images replaced by a
//! 1×1 PNG; every candidate is written
//! as a session of the input's own format, loaded, replayed and linted exactly as the command
//! line does, and kept only if it still reproduces. The result is 1-minimal in entries: no
//! single entry can be removed. Redaction (on by default) runs last and must keep the case.
//! Then the target and rule set are written into the case itself ([`stamp`]), so that the file
//! alone replays for them; the stamp is kept only when the file alone still reproduces.

pub mod side;
pub mod stamp;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::export::Redaction;
use crate::hygiene::ReplayOptions;
use crate::lint::lint;
use crate::load::{Keep as LoadKeep, LoadOptions, load_path};
use crate::policy::Target;
use crate::replay::replay;
use crate::wire::{WireStage, payload_of};

pub use crate::load::session_text::{SessionText, Shape, ShapeError};

/// What the reduced session must still reproduce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keep {
    /// A provider lint finding on the replay payload, by constraint id.
    Finding(String),
    /// A rewrite by this rule.
    Rule(String),
    /// A rejected replay payload (any finding).
    Verdict,
}

impl Keep {
    /// In words, for the progress line and the side file.
    pub fn describe(&self) -> String {
        match self {
            Self::Finding(c) => format!("lint finding {c}"),
            Self::Rule(r) => format!("a rewrite by {r}"),
            Self::Verdict => "a rejected replay payload".into(),
        }
    }
}

/// How to reduce.
#[derive(Debug, Clone)]
pub struct ReduceOptions {
    /// The replay target.
    pub target: Target,
    /// Replay options (rule set, tools).
    pub replay: ReplayOptions,
    /// What must be kept.
    pub keep: Keep,
    /// Stop after this long with the smallest case found so far.
    pub max_time: Option<Duration>,
    /// Redact secrets in the result (the default).
    pub redact: bool,
    /// Set from outside (Ctrl-C) to stop with the smallest case found so far.
    pub cancel: Arc<AtomicBool>,
}

/// Where a reduction stands, for a progress line.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Units (entries or messages) left.
    pub units: usize,
    /// Units at the start.
    pub of: usize,
    /// Candidates checked.
    pub checks: usize,
    /// The pass running.
    pub pass: &'static str,
}

/// The reduced session.
#[derive(Debug, Clone)]
pub struct Reduced {
    /// The file text (the input's own format).
    pub text: String,
    /// Units left and at the start.
    pub units: (usize, usize),
    /// Messages left.
    pub messages: usize,
    /// Candidates checked.
    pub checks: usize,
    /// Whether the time budget or a cancel cut the search short (the result still reproduces,
    /// but may not be minimal).
    pub stopped_early: bool,
    /// Whether secrets were redacted.
    pub redacted: bool,
    /// Whether the file records its target and rule set ([`stamp`]) and, loaded alone with no
    /// target and the default rule set, reproduces the case for them.
    pub travels: bool,
}

/// Why nothing could be reduced.
#[derive(Debug, thiserror::Error)]
pub enum ReduceError {
    /// The input format.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// The whole session does not reproduce what was asked.
    #[error("the session itself does not reproduce {0} for this target and rule set, so there is nothing to keep")]
    NotReproduced(String),
    /// Redaction changed what reproduces.
    #[error(
        "the reduced case no longer reproduces {0} once its secrets are redacted; use --no-redact to write it unredacted (and check it before sharing)"
    )]
    RedactionBreaks(String),
    /// The scratch folder.
    #[error("cannot write a candidate session to the temporary folder: {0}")]
    Scratch(#[from] std::io::Error),
}

/// Checks candidates: writes each to a scratch file and runs load → replay → lint on it.
struct Checker<'a> {
    options: &'a ReduceOptions,
    file: tempfile::NamedTempFile,
    checks: usize,
    started: Instant,
}

impl Checker<'_> {
    fn out_of_time(&self) -> bool {
        self.options.cancel.load(Ordering::Relaxed)
            || self.options.max_time.is_some_and(|max| self.started.elapsed() >= max)
    }

    /// Whether `text` still reproduces what is kept.
    fn holds(&mut self, text: &str) -> bool {
        self.checks += 1;
        if std::fs::write(self.file.path(), text).is_err() {
            return false;
        }
        reproduces(self.file.path(), self.options)
    }
}

/// Whether the session at `path` reproduces `options.keep`.
pub fn reproduces(path: &Path, options: &ReduceOptions) -> bool {
    replays(path, &options.target, &options.replay, &options.keep).is_some_and(|(_, _, holds)| holds)
}

/// Whether the session at `path`, loaded alone and replayed as `lint PATH` replays it (no
/// target, the rule set the file records, else the default), reproduces `options.keep` for
/// `options.target` and its rule set.
pub fn reproduces_alone(path: &Path, options: &ReduceOptions) -> bool {
    let alone = ReplayOptions {
        rule_set: crate::rule_set::RuleSet::newest(),
        rule_set_from_session: true,
        ..options.replay.clone()
    };
    replays(path, &Target::default(), &alone, &options.keep)
        .is_some_and(|(target, set, holds)| holds && target == options.target && set == options.replay.rule_set.name)
}

/// Replay the session at `path` for `target`: the target and rule set used, and whether
/// `keep` holds; `None` when it does not load.
fn replays(path: &Path, target: &Target, options: &ReplayOptions, keep: &Keep) -> Option<(Target, &'static str, bool)> {
    let load = LoadOptions {
        keep: LoadKeep::Transcript,
        ..LoadOptions::default()
    };
    let session = load_path(path, &load).ok()?;
    let r = replay(&session, target, options);
    let holds = match keep {
        Keep::Rule(id) => r.projection.rewrites.iter().any(|rw| rw.rule == id),
        Keep::Finding(id) => {
            payload_of(&r, WireStage::Replay).is_ok_and(|w| lint(&w).iter().any(|f| f.constraint == id))
        }
        Keep::Verdict => payload_of(&r, WireStage::Replay).is_ok_and(|w| !lint(&w).is_empty()),
    };
    Some((r.resolved.target.clone(), r.options.rule_set.name, holds))
}

/// The leaf of the active branch of the session at `path`.
fn leaf_of(path: &Path) -> Option<String> {
    let load = LoadOptions {
        keep: LoadKeep::Transcript,
        ..LoadOptions::default()
    };
    load_path(path, &load).ok()?.transcript().leaf_id
}

/// `text` with the stamp appended ([`stamp::lines`]) when the case still holds with it and
/// the file alone reproduces it; else `text` as it is.
fn stamped(session: &SessionText, text: String, checker: &mut Checker<'_>) -> (String, bool) {
    if session.shape == Shape::MessageArray || std::fs::write(checker.file.path(), &text).is_err() {
        return (text, false);
    }
    let leaf = leaf_of(checker.file.path());
    let options = checker.options;
    let lines = stamp::lines(
        session.shape,
        &text,
        leaf.as_deref(),
        &stamp::Stamp {
            target: &options.target,
            rule_set: options.replay.rule_set,
            keeps: options.keep.describe(),
        },
    );
    let mut with = text.clone();
    for line in lines {
        with.push_str(&line.to_string());
        with.push('\n');
    }
    // `holds` leaves the stamped file in place for the check alone.
    if checker.holds(&with) && reproduces_alone(checker.file.path(), options) {
        (with, true)
    } else {
        (text, false)
    }
}

/// Reduce `input` (its loader format name: `openclaw-jsonl` or `message-array`).
pub fn reduce(
    text: &str,
    format: &str,
    options: &ReduceOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Reduced, ReduceError> {
    // Every candidate replays with the rule set given, whatever a file records.
    let options = &ReduceOptions {
        replay: ReplayOptions {
            rule_set_from_session: false,
            ..options.replay.clone()
        },
        ..options.clone()
    };
    let mut session = SessionText::parse(text, format)?;
    let suffix = if session.shape == Shape::MessageArray {
        ".json"
    } else {
        ".jsonl"
    };
    let mut checker = Checker {
        options,
        file: tempfile::Builder::new()
            .prefix("replaylens-reduce-")
            .suffix(suffix)
            .tempfile()?,
        checks: 0,
        started: Instant::now(),
    };
    let all: Vec<usize> = (0..session.units.len()).collect();
    if !checker.holds(&session.render(&all)) {
        return Err(ReduceError::NotReproduced(options.keep.describe()));
    }
    let total = all.len();
    let mut keep = ddmin(&session, all, &mut checker, progress);
    blocks(&mut session, &keep, &mut checker, progress);
    texts(&mut session, &keep, &mut checker, progress);
    images(&mut session, &keep, &mut checker, progress);
    // A last pass over single units: the block and text passes may have freed some.
    if !checker.out_of_time() {
        keep = one_by_one(&session, keep, &mut checker, progress, "entries again");
    }
    if options.redact {
        crate::export::session_file::redact_units(&mut session, &keep, Redaction::Secrets);
        if !checker.holds(&session.render(&keep)) {
            return Err(ReduceError::RedactionBreaks(options.keep.describe()));
        }
    }
    let messages = keep.iter().filter(|&&i| session.is_message(i)).count();
    let stopped_early = checker.out_of_time();
    let (text, travels) = stamped(&session, session.render(&keep), &mut checker);
    Ok(Reduced {
        text,
        travels,
        units: (keep.len(), total),
        messages,
        checks: checker.checks,
        stopped_early,
        redacted: options.redact,
    })
}

/// ddmin over units: remove chunks of halving size while the case holds, then single units.
fn ddmin(
    session: &SessionText,
    mut keep: Vec<usize>,
    checker: &mut Checker<'_>,
    progress: &mut dyn FnMut(Progress),
) -> Vec<usize> {
    let total = session.units.len();
    let mut chunks = 2usize;
    while keep.len() >= 2 && chunks <= keep.len() && !checker.out_of_time() {
        let size = keep.len().div_ceil(chunks);
        let mut removed_any = false;
        let mut start = 0;
        while start < keep.len() && !checker.out_of_time() {
            let end = (start + size).min(keep.len());
            let candidate: Vec<usize> = keep[..start].iter().chain(&keep[end..]).copied().collect();
            if !candidate.is_empty() && checker.holds(&session.render(&candidate)) {
                keep = candidate;
                removed_any = true;
            } else {
                start = end;
            }
            progress(Progress {
                units: keep.len(),
                of: total,
                checks: checker.checks,
                pass: "entries",
            });
        }
        if removed_any {
            chunks = chunks.saturating_sub(1).max(2);
        } else {
            chunks *= 2;
        }
    }
    one_by_one(session, keep, checker, progress, "entries")
}

/// Try removing each unit alone, from the last.
fn one_by_one(
    session: &SessionText,
    mut keep: Vec<usize>,
    checker: &mut Checker<'_>,
    progress: &mut dyn FnMut(Progress),
    pass: &'static str,
) -> Vec<usize> {
    let total = session.units.len();
    let mut k = keep.len();
    while k > 0 && keep.len() > 1 && !checker.out_of_time() {
        k -= 1;
        let mut candidate = keep.clone();
        candidate.remove(k);
        if checker.holds(&session.render(&candidate)) {
            keep = candidate;
        }
        progress(Progress {
            units: keep.len(),
            of: total,
            checks: checker.checks,
            pass,
        });
    }
    keep
}

/// Remove content blocks of the messages left, one at a time.
fn blocks(session: &mut SessionText, keep: &[usize], checker: &mut Checker<'_>, progress: &mut dyn FnMut(Progress)) {
    for &i in keep {
        let count = session
            .message_mut(i)
            .and_then(|m| m["content"].as_array().map(Vec::len))
            .unwrap_or(0);
        for b in (0..count).rev() {
            if checker.out_of_time() {
                return;
            }
            let Some(content) = session.message_mut(i).and_then(|m| m["content"].as_array_mut()) else {
                break;
            };
            if content.len() <= 1 {
                break;
            }
            let block = content.remove(b);
            if !checker.holds(&session.render(keep))
                && let Some(content) = session.message_mut(i).and_then(|m| m["content"].as_array_mut())
            {
                content.insert(b, block);
            }
            progress(Progress {
                units: keep.len(),
                of: session.units.len(),
                checks: checker.checks,
                pass: "blocks",
            });
        }
    }
}

/// A 1×1 PNG: what an image is replaced by when the case does not need its pixels.
const TINY_PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/// Replace each image of the messages left by a 1×1 PNG while the case holds (an image the
/// case needs, e.g. for an image rule, stays as it was).
fn images(session: &mut SessionText, keep: &[usize], checker: &mut Checker<'_>, progress: &mut dyn FnMut(Progress)) {
    for &i in keep {
        let count = session
            .message_mut(i)
            .and_then(|m| m["content"].as_array().map(Vec::len))
            .unwrap_or(0);
        for b in 0..count {
            if checker.out_of_time() {
                return;
            }
            let Some(block) = session.message_mut(i).and_then(|m| m["content"].get_mut(b)) else {
                break;
            };
            if block["type"] != "image" || !block["data"].is_string() || block["data"] == TINY_PNG {
                continue;
            }
            let old = block.clone();
            block["data"] = Value::String(TINY_PNG.to_owned());
            if block.get("mimeType").is_some() {
                block["mimeType"] = Value::String("image/png".to_owned());
            }
            if !checker.holds(&session.render(keep))
                && let Some(block) = session.message_mut(i).and_then(|m| m["content"].get_mut(b))
            {
                *block = old;
            }
            progress(Progress {
                units: keep.len(),
                of: session.units.len(),
                checks: checker.checks,
                pass: "images",
            });
        }
    }
}

/// Texts longer than this are shortened.
const SHORT: usize = 24;

/// Shorten long strings of the messages left (text, thinking, tool output), halving while
/// the case holds.
fn texts(session: &mut SessionText, keep: &[usize], checker: &mut Checker<'_>, progress: &mut dyn FnMut(Progress)) {
    for &i in keep {
        let paths = session.message_mut(i).map(|m| long_strings(m)).unwrap_or_default();
        for path in paths {
            loop {
                if checker.out_of_time() {
                    return;
                }
                let Some(slot) = session.message_mut(i).and_then(|m| m.pointer_mut(&path)) else {
                    break;
                };
                let Some(old) = slot.as_str().map(str::to_owned) else {
                    break;
                };
                let n = old.chars().count();
                if n <= SHORT {
                    break;
                }
                *slot = Value::String(old.chars().take(n / 2).collect());
                if !checker.holds(&session.render(keep)) {
                    if let Some(slot) = session.message_mut(i).and_then(|m| m.pointer_mut(&path)) {
                        *slot = Value::String(old);
                    }
                    break;
                }
                progress(Progress {
                    units: keep.len(),
                    of: session.units.len(),
                    checks: checker.checks,
                    pass: "texts",
                });
            }
        }
    }
}

/// JSON pointers to the prose strings of a message worth shortening.
fn long_strings(message: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if message["content"].as_str().is_some_and(|s| s.chars().count() > SHORT) {
        out.push("/content".to_owned());
    }
    for (b, block) in message["content"].as_array().into_iter().flatten().enumerate() {
        for key in ["text", "thinking"] {
            if block[key].as_str().is_some_and(|s| s.chars().count() > SHORT) {
                out.push(format!("/content/{b}/{key}"));
            }
        }
    }
    out
}
