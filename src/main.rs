//! The `replaylens` binary: parses arguments and dispatches to the commands in `cli`.

mod args;
mod cli;
mod tui;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use args::*;
use clap::{CommandFactory, Parser, Subcommand};
use replaylens::hygiene::ReplayOptions;
use replaylens::policy::Target;
use replaylens::rule_set::RuleSet;

/// See what an agent actually replays to an LLM provider, and why.
///
/// Without a command, opens the inspector on SESSION (a file, folder or database), or on a
/// session picker when no SESSION is given.
#[derive(Debug, Parser)]
#[command(name = "replaylens", version, about, long_about = None, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    open: OpenArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List sessions in a database, a file or a folder (default: OpenClaw, Claude Code and Codex folders).
    Sessions {
        /// A session file, a folder (searched recursively) or an OpenClaw database.
        path: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print the stored messages of a session's active branch (compaction applied).
    Show {
        /// A session: OpenClaw .jsonl or .sqlite, Claude Code .jsonl, Codex rollout .jsonl[.zst], or a .json message array.
        session: PathBuf,
        /// For a database: the session id or key (default: the most recent).
        #[arg(long = "session", value_name = "ID")]
        session_id: Option<String>,
        #[command(flatten)]
        limits: LimitArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Compute the replay projection for a target, with every rewrite and its rule.
    Replay {
        #[command(flatten)]
        replay: ReplayArgs,
        /// Longest image side sent, in pixels (agents.defaults.imageMaxDimensionPx).
        #[arg(long, value_name = "PX", default_value_t = 1200, value_parser = clap::value_parser!(u32).range(1..))]
        image_max_px: u32,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print the request body's conversation part as the provider API receives it.
    Payload {
        #[command(flatten)]
        replay: ReplayArgs,
        /// Convert the replay projection (what OpenClaw sends) or the stored transcript as is.
        #[arg(long, value_enum, default_value_t = StageArg::Replay)]
        stage: StageArg,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Check the payload against the provider's constraints; exit 1 when it would be rejected.
    Lint {
        #[command(flatten)]
        replay: ReplayArgs,
        /// Which payload to check: the stored transcript as is, the replay, or both.
        #[arg(long, value_enum, default_value_t = LintStageArg::Replay)]
        stage: LintStageArg,
        /// A provider error text to explain: which stored message it points at, and whether
        /// the current projection avoids it.
        #[arg(long, value_name = "ERROR TEXT")]
        explain: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Export the stored ↔ replay comparison, every rewrite annotated, for a bug report.
    Export {
        #[command(flatten)]
        replay: ReplayArgs,
        /// Output format; default: the one the -o file's extension names (.md, .html, .json).
        #[arg(long, value_enum, required_unless_present = "output")]
        format: Option<ExportFormatArg>,
        /// Write to this file instead of stdout.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
        /// Redact secrets (default level) or all prose too.
        #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "secrets")]
        redact: Option<RedactArg>,
        /// HTML: only the changed rows (Markdown always shows only changes).
        #[arg(long)]
        only_changed: bool,
        /// Unchanged rows to show around each change.
        #[arg(long, default_value_t = 0, value_name = "N")]
        context: usize,
        /// Longest image side sent, in pixels (agents.defaults.imageMaxDimensionPx).
        #[arg(long, value_name = "PX", default_value_t = 1200, value_parser = clap::value_parser!(u32).range(1..))]
        image_max_px: u32,
        /// Markdown and HTML: the longest report, in characters (0: no limit; default 65,536
        /// for Markdown, 5,000,000 for HTML); changes that do not fit are left out, and the
        /// report says at its top and where it stops which and how to get them.
        #[arg(long, value_name = "N")]
        max_chars: Option<usize>,
        /// Only the rows these hygiene rules touched (comma-separated rule ids; JSON: only
        /// their rewrites).
        #[arg(long = "only-rule", value_name = "RULE[,RULE]", value_delimiter = ',',
              value_parser = replaylens::export::parse_rule_id)]
        only_rule: Vec<String>,
        /// Only stored messages A..B (inclusive), e.g. 0..5.
        #[arg(long, value_name = "A..B", value_parser = replaylens::export::parse_message_range)]
        messages: Option<(usize, usize)>,
    },
    /// Replay and lint every session in folders, files and databases, one row per session.
    Scan {
        /// Session files, folders (searched recursively) or databases; default: the OpenClaw,
        /// Claude Code and Codex folders.
        paths: Vec<PathBuf>,
        /// A target, `provider[/api[/model]]` (a part left empty or `-` comes from the
        /// session); repeat for one column group per target. Default: each session's own.
        #[arg(long = "target", value_name = "SPEC", value_parser = cli::scan::parse_target)]
        targets: Vec<Target>,
        #[command(flatten)]
        target: TargetArgs,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        openclaw: OpenClawArg,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ScanFormatArg::Text)]
        format: ScanFormatArg,
    },
    /// Show the policy flags and family resolved for a target.
    Policy {
        #[command(flatten)]
        target: TargetArgs,
        #[command(flatten)]
        openclaw: OpenClawArg,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// List the providers of the OpenClaw release: origin, policy owner, APIs, and the family
    /// of each profile the inspector offers.
    Providers {
        #[command(flatten)]
        openclaw: OpenClawArg,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ProvidersFormatArg::Text)]
        format: ProvidersFormatArg,
    },
    /// Repair a session JSONL file on disk as OpenClaw does (backup first, atomic replace).
    Repair {
        /// The .jsonl session file to repair.
        session: PathBuf,
        /// Print what would change and write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// List the hygiene rules in pipeline order, or explain one.
    Rules {
        /// A rule id, e.g. tool-result-pairing.
        rule: Option<String>,
        /// Also say how this rule set differs from `newest`.
        #[arg(long = "openclaw", value_name = "VERSION", value_parser = RuleSet::parse)]
        rule_set: Option<&'static RuleSet>,
    },
}

/// `--session` given for a file that is not a database: it would be ignored, so it is an
/// unusable argument (one sentence naming the file).
fn session_flag_misuse(path: &Path, session_id: Option<&String>) -> Option<String> {
    session_id?;
    let file = std::fs::metadata(path).ok()?;
    (file.is_file() && !replaylens::load::is_database(path)).then(|| {
        format!(
            "{} is a session file, not an OpenClaw database: --session picks a window of a database, so leave it out",
            replaylens::text::escape_controls_single_line(&path.display().to_string())
        )
    })
}

/// The session path and `--session` value of a command, when it has them.
fn session_args(cli: &Cli) -> Option<(&Path, Option<&String>)> {
    match &cli.command {
        None => cli.open.session.as_deref().map(|p| (p, cli.open.session_id.as_ref())),
        Some(Command::Show {
            session, session_id, ..
        }) => Some((session, session_id.as_ref())),
        Some(
            Command::Replay { replay, .. }
            | Command::Payload { replay, .. }
            | Command::Lint { replay, .. }
            | Command::Export { replay, .. },
        ) => Some((&replay.session, replay.session_id.as_ref())),
        Some(_) => None,
    }
}

/// The `--provider` / `--api` / `--model` arguments of a command, when it has them.
fn target_args(cli: &Cli) -> Option<&TargetArgs> {
    match &cli.command {
        None => Some(&cli.open.target),
        Some(
            Command::Replay { replay, .. }
            | Command::Payload { replay, .. }
            | Command::Lint { replay, .. }
            | Command::Export { replay, .. },
        ) => Some(&replay.target),
        Some(Command::Scan { target, .. } | Command::Policy { target, .. }) => Some(target),
        Some(_) => None,
    }
}

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let command = Cli::command();
    let names: Vec<&str> = command.get_subcommands().map(clap::Command::get_name).collect();
    if let Some(message) = cli::typos::mistyped_command(&args, &names) {
        eprintln!("replaylens: {message}");
        return ExitCode::from(2);
    }
    let cli = Cli::parse_from(args);
    cli::signals::install();
    if let Some(message) = session_args(&cli).and_then(|(path, id)| session_flag_misuse(path, id)) {
        eprintln!("replaylens: {message}");
        return ExitCode::from(2);
    }
    if let Some(target) = target_args(&cli) {
        match replaylens::policy::unknown::check_provider(&target.clone().target()) {
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
        let options = tui::Options {
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
            format,
        } => cli::show::run(&session, limits.load_options(session_id), format == Format::Json),
        Command::Replay {
            replay,
            image_max_px,
            format,
        } => {
            let (session, load, target, options) = replay.split();
            let options = ReplayOptions {
                image_max_px,
                ..options
            };
            cli::replay::run(&session, load, &target, &options, format == Format::Json)
        }
        Command::Payload { replay, stage, format } => {
            let (session, load, target, options) = replay.split();
            cli::payload::run(&session, load, &target, &options, stage.wire(), format == Format::Json)
        }
        Command::Lint {
            replay,
            stage,
            explain,
            format,
        } => {
            let (session, load, target, options) = replay.split();
            let stages = match stage {
                LintStageArg::Stored => cli::lint::Stages::Stored,
                LintStageArg::Replay => cli::lint::Stages::Replay,
                LintStageArg::Both => cli::lint::Stages::Both,
            };
            cli::lint::run(
                &session,
                load,
                &target,
                &options,
                stages,
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
            messages,
        } => {
            let format = format.map(|f| match f {
                ExportFormatArg::Md => replaylens::export::ExportFormat::Markdown,
                ExportFormatArg::Html => replaylens::export::ExportFormat::Html,
                ExportFormatArg::Json => replaylens::export::ExportFormat::Json,
            });
            let format = match cli::export::resolve_format(format, output.as_deref()) {
                Ok(format) => format,
                Err(e) => return cli::finish(Err(e.into())),
            };
            let options = replaylens::export::ExportOptions {
                format,
                redaction: match redact {
                    None => replaylens::export::Redaction::None,
                    Some(RedactArg::Secrets) => replaylens::export::Redaction::Secrets,
                    Some(RedactArg::AllText) => replaylens::export::Redaction::AllText,
                },
                only_changed,
                context,
                max_chars,
                only_rules: only_rule,
                messages,
            };
            let (session, load, target, replay_options) = replay.split();
            let replay_options = ReplayOptions {
                image_max_px,
                ..replay_options
            };
            cli::export::run(&session, load, &target, &replay_options, &options, output.as_ref())
        }
        Command::Scan {
            paths,
            mut targets,
            target,
            limits,
            openclaw,
            format,
        } => {
            let single = target.target();
            if single != Target::default() {
                targets.push(single);
            }
            let options = replaylens::scan::ScanOptions {
                targets,
                replay: ReplayOptions {
                    rule_set: openclaw.rule_set(),
                    rule_set_from_session: openclaw.rule_set.is_none(),
                    ..ReplayOptions::default()
                },
                load: limits.load_options(None),
            };
            let format = match format {
                ScanFormatArg::Text => cli::scan_output::OutputFormat::Text,
                ScanFormatArg::Json => cli::scan_output::OutputFormat::Json,
                ScanFormatArg::Csv => cli::scan_output::OutputFormat::Csv,
            };
            cli::scan::run(&paths, &options, format)
        }
        Command::Policy {
            target,
            openclaw,
            format,
        } => cli::policy::run(target.target(), openclaw.rule_set(), format == Format::Json),
        Command::Providers { openclaw, format } => cli::providers::run(openclaw.rule_set(), format.format()),
        Command::Repair { session, dry_run } => cli::repair::run(&session, dry_run),
        Command::Rules { rule, rule_set } => cli::rules::run(rule.as_deref(), rule_set),
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
