//! From parsed arguments to a command: the checks every command shares, then one arm per
//! command handing its arguments to its module in `cli`. `main` only parses and calls these.

use replaylens::hygiene::ReplayOptions;
use replaylens::policy::Target;
use replaylens::text::escape_controls_single_line as esc;

use crate::args::{Cli, Command, ExportFormatArg, Format, session_args, session_flag_misuse, target_args};
use crate::tui;

/// The usage checks every command shares (a `--session` misused, a target OpenClaw cannot
/// name); a note for a target it names with a caveat goes to stderr. The error is the sentence
/// to print; the command then exits 2.
pub(crate) fn preflight(cli: &Cli) -> Result<(), String> {
    if let Some(message) = session_args(cli).and_then(|(path, id)| session_flag_misuse(path, id)) {
        return Err(message);
    }
    if let Some(target) = target_args(cli) {
        let checked = super::config::target_for_check(target).map_err(|m| esc(&m).into_owned())?;
        match replaylens::policy::unknown::check_provider(&checked) {
            Ok(None) => {}
            Ok(Some(note)) => eprintln!("note: {}", esc(&note)),
            Err(message) => return Err(esc(&message).into_owned()),
        }
    }
    Ok(())
}

/// Run what `cli` asks for: a command, or the inspector when none is given.
pub(crate) fn run(cli: Cli) -> anyhow::Result<()> {
    let Some(command) = cli.command else {
        let open = cli.open;
        let config = super::config::for_replay(open.target.config.as_deref())?;
        return tui::run(&tui::Options {
            config,
            session: open.session,
            session_id: open.session_id,
            target: open.target.target(),
            rule_set: open.openclaw.rule_set(),
            rule_set_from_session: open.openclaw.rule_set.is_none(),
            theme: open.theme,
        });
    };
    match command {
        Command::Sessions { path, format } => super::sessions::run(path.as_deref(), format == Format::Json),
        Command::Show {
            session,
            session_id,
            limits,
            config,
            format,
        } => {
            let config = super::config::for_replay(config.as_deref())?;
            super::show::run(
                &session,
                limits.load_options(session_id),
                config.as_deref(),
                format == Format::Json,
            )
        }
        Command::Replay {
            replay,
            image_max_px,
            follow,
            format,
        } => {
            let (session, load, target, options) = replay.split(image_max_px)?;
            let json = format == Format::Json;
            if follow {
                super::replay::run_and_follow(&session, load, &target, &options, json)
            } else {
                super::replay::run(&session, load, &target, &options, json).map(|_| ())
            }
        }
        Command::Payload { replay, stage, format } => {
            let (session, load, target, options) = replay.split(None)?;
            super::payload::run(&session, load, &target, &options, stage.into(), format == Format::Json)
        }
        Command::Lint {
            replay,
            stage,
            explain,
            format,
        } => {
            let (session, load, target, options) = replay.split(None)?;
            super::lint::run(
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
                || (format.is_none() && output.as_deref().is_some_and(super::export::names_a_session));
            if session_format {
                return super::export::run_session(
                    &replay.session,
                    redact.map_or(replaylens::export::Redaction::None, Into::into),
                    output.as_ref(),
                    with_session.as_deref(),
                );
            }
            let format = super::export::resolve_format(format.and_then(ExportFormatArg::report), output.as_deref())?;
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
            let (session, load, target, replay_options) = replay.split(image_max_px)?;
            if let Some(shared) = &with_session {
                super::export::write_shared_session(&session, shared, output.as_deref(), options.redaction)?;
            }
            super::export::run(
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
            let config = super::config::for_replay(target.config.as_deref())?;
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
                replay: super::config::configure(replay, config, None),
                load: limits.load_options(None),
                memory_budget: Some(memory_budget),
            };
            super::scan::run(
                &super::scan::Inputs {
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
            let (session, load, target, options) = replay.split(None)?;
            let what = match (keep, keep_error) {
                (Some(what), _) => super::reduce::What::Named(what),
                (None, Some(text)) => super::reduce::What::Error(text),
                (None, None) => unreachable!("clap requires one of --keep and --keep-error"),
            };
            super::reduce::run(super::reduce::Request {
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
            let config = super::config::for_replay(target.config.as_deref())?;
            let options = ReplayOptions {
                allowed_tools: tools,
                ..ReplayOptions::default()
            };
            let options = super::config::configure(options, config, None);
            super::releases::run(
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
        } => super::policy::run(target, openclaw.rule_set(), format == Format::Json),
        Command::Providers { openclaw, format } => super::providers::run(openclaw.rule_set(), format),
        Command::Repair { session, dry_run } => super::repair::run(&session, dry_run),
        Command::Rules { rule, rule_set } => super::rules::run(rule.as_deref(), rule_set),
        Command::Completions { shell } => super::completions::run_completions(shell),
        Command::Man => super::completions::run_man(),
    }
}
