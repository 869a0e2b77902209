//! The `replaylens` binary: parses arguments and dispatches to the commands in `cli`.

mod args;
mod cli;
mod tui;

use std::process::ExitCode;

use args::{Cli, Command, ExportFormatArg, Format, session_args, session_flag_misuse, target_args};
use clap::{CommandFactory, Parser};
use replaylens::hygiene::ReplayOptions;
use replaylens::policy::Target;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let command = Cli::command();
    let names: Vec<&str> = command.get_subcommands().map(clap::Command::get_name).collect();
    if let Some(message) = cli::typos::mistyped_command(&args, &names) {
        eprintln!("replaylens: {message}");
        return ExitCode::from(2);
    }
    let cli = Cli::parse_from(args);
    // `reduce` stops on Ctrl-C itself, writing the smallest case found so far.
    if !matches!(cli.command, Some(Command::Reduce { .. })) {
        cli::signals::install();
    }
    if let Some(message) = session_args(&cli).and_then(|(path, id)| session_flag_misuse(path, id)) {
        eprintln!("replaylens: {message}");
        return ExitCode::from(2);
    }
    if let Some(target) = target_args(&cli) {
        let checked = match cli::config::target_for_check(target) {
            Ok(t) => t,
            Err(message) => {
                eprintln!(
                    "replaylens: {}",
                    replaylens::text::escape_controls_single_line(&message)
                );
                return ExitCode::from(2);
            }
        };
        match replaylens::policy::unknown::check_provider(&checked) {
            Ok(None) => {}
            Ok(Some(note)) => eprintln!("note: {}", replaylens::text::escape_controls_single_line(&note)),
            Err(message) => {
                eprintln!(
                    "replaylens: {}",
                    replaylens::text::escape_controls_single_line(&message)
                );
                return ExitCode::from(2);
            }
        }
    }
    let Some(command) = cli.command else {
        let open = cli.open;
        let config = match cli::config::for_replay(open.target.config.as_deref()) {
            Ok(config) => config,
            Err(e) => return cli::finish(Err(e)),
        };
        let options = tui::Options {
            config,
            session: open.session,
            session_id: open.session_id,
            target: open.target.target(),
            rule_set: open.openclaw.rule_set(),
            rule_set_from_session: open.openclaw.rule_set.is_none(),
            theme: open.theme,
        };
        return cli::finish(tui::run(&options));
    };
    let result = match command {
        Command::Sessions { path, format } => cli::sessions::run(path.as_deref(), format == Format::Json),
        Command::Show {
            session,
            session_id,
            limits,
            config,
            format,
        } => match cli::config::for_replay(config.as_deref()) {
            Ok(config) => cli::show::run(
                &session,
                limits.load_options(session_id),
                config.as_deref(),
                format == Format::Json,
            ),
            Err(e) => Err(e),
        },
        Command::Replay {
            replay,
            image_max_px,
            follow,
            format,
        } => {
            let (session, load, target, options) = match replay.split(image_max_px) {
                Ok(split) => split,
                Err(e) => return cli::finish(Err(e)),
            };
            let json = format == Format::Json;
            if follow {
                cli::replay::run_and_follow(&session, load, &target, &options, json)
            } else {
                cli::replay::run(&session, load, &target, &options, json).map(|_| ())
            }
        }
        Command::Payload { replay, stage, format } => {
            let (session, load, target, options) = match replay.split(None) {
                Ok(split) => split,
                Err(e) => return cli::finish(Err(e)),
            };
            cli::payload::run(&session, load, &target, &options, stage.into(), format == Format::Json)
        }
        Command::Lint {
            replay,
            stage,
            explain,
            format,
        } => {
            let (session, load, target, options) = match replay.split(None) {
                Ok(split) => split,
                Err(e) => return cli::finish(Err(e)),
            };
            cli::lint::run(
                &session,
                load,
                &target,
                &options,
                stage,
                explain.as_deref(),
                format == Format::Json,
            )
        }
        Command::Export {
            replay,
            format,
            output,
            redact,
            only_changed,
            context,
            image_max_px,
            max_chars,
            only_rule,
            no_releases,
            messages,
            with_session,
        } => {
            let session_format = format == Some(ExportFormatArg::Session)
                || (format.is_none() && output.as_deref().is_some_and(cli::export::names_a_session));
            if session_format {
                return cli::finish(cli::export::run_session(
                    &replay.session,
                    redact.map_or(replaylens::export::Redaction::None, Into::into),
                    output.as_ref(),
                    with_session.as_deref(),
                ));
            }
            let format = match cli::export::resolve_format(format.and_then(ExportFormatArg::report), output.as_deref())
            {
                Ok(format) => format,
                Err(e) => return cli::finish(Err(e.into())),
            };
            let options = replaylens::export::ExportOptions {
                format,
                redaction: redact.map_or(replaylens::export::Redaction::None, Into::into),
                only_changed,
                context,
                max_chars,
                only_rules: only_rule,
                messages,
                releases: None,
                shared_session: with_session.as_ref().map(|p| p.display().to_string()),
            };
            let (session, load, target, replay_options) = match replay.split(image_max_px) {
                Ok(split) => split,
                Err(e) => return cli::finish(Err(e)),
            };
            if let Some(shared) = &with_session
                && let Err(e) =
                    cli::export::write_shared_session(&session, shared, output.as_deref(), options.redaction)
            {
                return cli::finish(Err(e));
            }
            cli::export::run(
                &session,
                load,
                &target,
                &replay_options,
                &options,
                !no_releases,
                output.as_ref(),
            )
        }
        Command::Scan {
            paths,
            mut targets,
            target,
            limits,
            openclaw,
            files_from,
            max_files,
            memory_budget,
            shard,
            format,
            output,
            max_file_size,
            replace,
        } => {
            let config = match cli::config::for_replay(target.config.as_deref()) {
                Ok(config) => config,
                Err(e) => return cli::finish(Err(e)),
            };
            let single = target.target();
            if single != Target::default() {
                targets.push(single);
            }
            let replay = ReplayOptions {
                rule_set: openclaw.rule_set(),
                rule_set_from_session: openclaw.rule_set.is_none(),
                ..ReplayOptions::default()
            };
            let options = replaylens::scan::ScanOptions {
                targets,
                replay: cli::config::configure(replay, config, None),
                load: limits.load_options(None),
                memory_budget: Some(memory_budget),
            };
            cli::scan::run(
                &cli::scan::Inputs {
                    paths,
                    files_from,
                    shard,
                    output,
                    max_file_bytes: max_file_size,
                    replace,
                    max_files,
                },
                &options,
                format,
            )
        }
        Command::Reduce {
            replay,
            keep,
            keep_error,
            output,
            max_seconds,
            no_redact,
        } => {
            let (session, load, target, options) = match replay.split(None) {
                Ok(split) => split,
                Err(e) => return cli::finish(Err(e)),
            };
            let what = match (keep, keep_error) {
                (Some(what), _) => cli::reduce::What::Named(what),
                (None, Some(text)) => cli::reduce::What::Error(text),
                (None, None) => unreachable!("clap requires one of --keep and --keep-error"),
            };
            cli::reduce::run(cli::reduce::Request {
                session: &session,
                load,
                target: &target,
                options: &options,
                what,
                output: &output,
                max_seconds,
                redact: !no_redact,
            })
        }
        Command::Releases {
            session,
            session_id,
            target,
            limits,
            tools,
            format,
        } => {
            let config = match cli::config::for_replay(target.config.as_deref()) {
                Ok(config) => config,
                Err(e) => return cli::finish(Err(e)),
            };
            let options = ReplayOptions {
                allowed_tools: tools,
                ..ReplayOptions::default()
            };
            let options = cli::config::configure(options, config, None);
            cli::releases::run(
                &session,
                limits.load_options(session_id),
                &target.target(),
                &options,
                format == Format::Json,
            )
        }
        Command::Policy {
            target,
            openclaw,
            format,
        } => cli::policy::run(target, openclaw.rule_set(), format == Format::Json),
        Command::Providers { openclaw, format } => cli::providers::run(openclaw.rule_set(), format),
        Command::Repair { session, dry_run } => cli::repair::run(&session, dry_run),
        Command::Rules { rule, rule_set } => cli::rules::run(rule.as_deref(), rule_set),
        Command::Completions { shell } => cli::completions::run_completions(shell),
        Command::Man => cli::completions::run_man(),
    };
    cli::finish(result)
}

/// jemalloc: a session is millions of small values parsed on several threads and freed on
/// another; the system allocator keeps such memory in per-thread arenas the other threads
/// cannot reuse (PERFORMANCE.md, "Allocator").
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read before `main`: freed pages go back to the system at once instead of
/// after ten seconds, so a command's peak is what it holds, not what it held.
#[unsafe(export_name = "_rjem_malloc_conf")]
static MALLOC_CONF: Option<&'static std::ffi::c_char> =
    Some(unsafe { &*c"dirty_decay_ms:0,muzzy_decay_ms:0".as_ptr() });

/// For commands that run many small jobs one after another (`scan`): freed pages stay with
/// jemalloc for ten seconds (its own default) instead of going back at once, so each session
/// reuses the last one's pages instead of faulting fresh ones in. On 1,000 sessions this cut
/// page faults from 375,000 to 94,000 and kernel time from 15 % to 4 % of the run; the peak
/// is still what one window of sessions needs.
pub(crate) fn keep_freed_pages_a_while() {
    const DECAY_MS: isize = 10_000;
    // SAFETY: `arenas.narenas` is an `unsigned`, the decay settings are `ssize_t`s.
    let arenas: u32 = unsafe { tikv_jemalloc_ctl::raw::read(b"arenas.narenas\0") }.unwrap_or(0);
    let _ = unsafe { tikv_jemalloc_ctl::raw::write(b"arenas.dirty_decay_ms\0", DECAY_MS) };
    for i in 0..arenas {
        let name = format!("arena.{i}.dirty_decay_ms\0");
        // An arena no thread has used yet has no setting to change; it takes the default
        // written above when it is first used.
        let _ = unsafe { tikv_jemalloc_ctl::raw::write(name.as_bytes(), DECAY_MS) };
    }
}
