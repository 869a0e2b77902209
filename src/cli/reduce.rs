//! `replaylens reduce SESSION [TARGET] --keep WHAT -o SMALL`: the smallest session that still
//! reproduces a finding, a rule's rewrite or a pasted provider error, redacted by default, with
//! a side file saying what it reproduces and how.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::bail;
use indicatif::{ProgressBar, ProgressStyle};
use replaylens::hygiene::ReplayOptions;
use replaylens::lint::explain::explain;
use replaylens::lint::{lint, registry};
use replaylens::load::LoadOptions;
use replaylens::policy::Target;
use replaylens::reduce::side::{record, reproduce_command, side_file, target_line};
use replaylens::reduce::{Keep, Progress, ReduceError, ReduceOptions, reduce};
use replaylens::replay::replay;
use replaylens::text::escape_controls_single_line as esc;
use replaylens::wire::{WireStage, payload_of};
use replaylens::write::{Protected, Replace};

/// The time limit of a reduction when `--max-seconds` is not given: a reduction checks the
/// case again after every cut, and a large session could otherwise run for hours.
pub const DEFAULT_MAX_SECONDS: u64 = 300;

/// What the user asked to keep.
pub enum What {
    /// `--keep`: a constraint id, a rule id or `verdict`.
    Named(String),
    /// `--keep-error`: a pasted provider error.
    Error(String),
}

/// One `reduce` invocation.
pub struct Request<'a> {
    /// The session file.
    pub session: &'a Path,
    /// Load options.
    pub load: LoadOptions,
    /// The requested target (missing parts come from the session).
    pub target: &'a Target,
    /// Replay options.
    pub options: &'a ReplayOptions,
    /// What to keep.
    pub what: What,
    /// The output file.
    pub output: &'a PathBuf,
    /// The time budget.
    pub max_seconds: Option<u64>,
    /// Redact secrets.
    pub redact: bool,
}

/// Reduce and write.
pub fn run(request: Request<'_>) -> anyhow::Result<()> {
    if replaylens::export::overwrites_session(request.session, request.output) {
        bail!(
            "{} is the session being reduced; choose another -o",
            esc(&request.output.display().to_string())
        );
    }
    let side = side_file(request.output);
    // Neither output may replace the session, a companion of it, or the other output.
    let mut for_output = Protected::session(request.session);
    for_output.add(&side);
    let mut for_side = Protected::session(request.session);
    for_side.add(request.output);
    replaylens::write::check(request.output, &for_output, Replace::Allowed)?;
    replaylens::write::check(&side, &for_side, Replace::Allowed)?;
    let max_seconds = request.max_seconds.unwrap_or(DEFAULT_MAX_SECONDS);
    eprintln!(
        "reducing for at most {max_seconds} s{} (--max-seconds N changes it); the smallest case found by then is written",
        if request.max_seconds.is_none() {
            ", the default"
        } else {
            ""
        }
    );
    let session = super::load_transcript_only(request.session, request.load.clone())?;
    super::report(&session.diagnostics);
    let format = session.format.as_str();
    // The target is fixed once from the whole session: a reduced case may no longer name the
    // model its target came from.
    let r = replay(&session, request.target, request.options);
    let target = r.resolved.target.clone();
    // The rule set the replay used (the release a database records, when no --openclaw).
    let replay_options = ReplayOptions {
        rule_set_from_session: false,
        ..r.options.clone()
    };
    let keep = match &request.what {
        What::Named(name) => named(name)?,
        What::Error(text) => {
            let stored = payload_of(&r, WireStage::Stored)?;
            let replayed = payload_of(&r, WireStage::Replay)?;
            let e = explain(text, &r, &stored, &lint(&stored), &lint(&replayed));
            match e.constraint {
                Some(c) => {
                    eprintln!("the error is {c}");
                    Keep::Finding(c.to_owned())
                }
                None => bail!(
                    "the pasted error matches no provider constraint replaylens knows; name a finding or rule with --keep"
                ),
            }
        }
    };
    drop(r);
    drop(session);
    let (text, text_format) = super::session_text(request.session, request.load.clone())?;
    let cancel = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // A second signal ends the process at once.
        let _ = signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(&cancel));
        let _ = signal_hook::flag::register(signal, Arc::clone(&cancel));
    }
    let options = ReduceOptions {
        target: target.clone(),
        replay: replay_options,
        keep: keep.clone(),
        max_time: Some(Duration::from_secs(max_seconds)),
        redact: request.redact,
        cancel,
    };
    let bar = progress_bar();
    let started = Instant::now();
    let reduced = reduce(&text, text_format, &options, &mut |p: Progress| {
        bar.set_position(p.checks as u64);
        bar.set_message(format!("{}: {} of {} left", p.pass, p.units, p.of));
    });
    bar.finish_and_clear();
    let reduced = match reduced {
        Err(ReduceError::NotReproduced(_)) => {
            return Err(NothingToKeep(format!(
                "nothing to keep: the session does not reproduce {} for {} (rule set {}), so no reduced case was written",
                keep.describe(),
                target_line(&target),
                options.replay.rule_set.name
            ))
            .into());
        }
        other => other?,
    };
    replaylens::write::write_file(request.output, &for_output, Replace::Allowed, reduced.text.as_bytes())?;
    let command = reproduce_command(request.output, &options, reduced.travels);
    let record = record(request.session, format, request.output, &options, &keep, &reduced);
    let record = serde_json::to_string_pretty(&record)? + "\n";
    replaylens::write::write_file(&side, &for_side, Replace::Allowed, record.as_bytes())?;
    eprintln!(
        "kept {} of {} entries ({} messages) in {} checks, {:.1} s{}: reproduces {} ({}, rule set {})",
        reduced.units.0,
        reduced.units.1,
        reduced.messages,
        reduced.checks,
        started.elapsed().as_secs_f64(),
        if reduced.stopped_early {
            ", stopped early (not minimal)"
        } else {
            ""
        },
        keep.describe(),
        esc(&target_line(&target)),
        options.replay.rule_set.name
    );
    if !reduced.travels {
        eprintln!(
            "note: the reduced file does not record its target and rule set{}; the command below names them",
            if text_format == "message-array" {
                " (a message array has no place for them)"
            } else {
                ""
            }
        );
    }
    eprintln!(
        "wrote {}{} and {}\nreproduce: {}",
        esc(&request.output.display().to_string()),
        if reduced.redacted {
            " (secrets redacted)"
        } else {
            " (not redacted)"
        },
        esc(&side.display().to_string()),
        esc(&command)
    );
    Ok(())
}

/// `--keep WHAT`: `verdict`, a rule id, or a lint constraint id.
fn named(name: &str) -> anyhow::Result<Keep> {
    if name == "verdict" {
        return Ok(Keep::Verdict);
    }
    if replaylens::hygiene::registry::by_id(name).is_some() {
        return Ok(Keep::Rule(name.to_owned()));
    }
    if registry::all().any(|c| c.id == name) {
        return Ok(Keep::Finding(name.to_owned()));
    }
    let names = std::iter::once("verdict")
        .chain(replaylens::hygiene::registry::pipeline().iter().map(|r| r.info().id))
        .chain(registry::all().map(|c| c.id));
    let hint = super::typos::nearest(name, names)
        .map(|n| format!("; did you mean `{n}`?"))
        .unwrap_or_default();
    Err(UnknownKeep(format!(
        "`{}` is neither `verdict`, a rule id (`replaylens rules`) nor a lint finding id (`replaylens lint` prints them){hint}",
        esc(name)
    ))
    .into())
}

/// `--keep` names nothing replaylens knows (exit 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UnknownKeep(String);

/// The session does not reproduce what `--keep` asks for: nothing to reduce (exit 3,
/// [`super::Exit::NothingToKeep`]).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NothingToKeep(String);

fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} reducing · {pos} checks · {msg} · {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}
