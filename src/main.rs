//! The `replaylens` binary: parses arguments and dispatches to the commands in `cli`.

mod cli;
mod tui;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use replaylens::hygiene::ReplayOptions;
use replaylens::policy::Target;

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

/// Arguments of the inspector (no subcommand).
#[derive(Debug, Clone, Args)]
struct OpenArgs {
    /// A .jsonl session, a .json message array, an OpenClaw .sqlite database or a folder.
    session: Option<PathBuf>,
    /// For a database: the session id or key (default: the most recent).
    #[arg(long = "session", value_name = "ID")]
    session_id: Option<String>,
    #[command(flatten)]
    target: TargetArgs,
    /// Theme: dark, light, high-contrast, or a path to a theme TOML file.
    #[arg(long, value_name = "NAME|PATH")]
    theme: Option<String>,
}

/// Output format of the text/JSON commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Readable text.
    Text,
    /// One JSON document on stdout.
    Json,
}

/// The replay target; missing parts come from the session's latest model.
#[derive(Debug, Clone, Args)]
struct TargetArgs {
    /// Provider id, e.g. anthropic, amazon-bedrock, openrouter.
    #[arg(long)]
    provider: Option<String>,
    /// Model API, e.g. anthropic-messages, openai-completions.
    #[arg(long)]
    api: Option<String>,
    /// Model id, e.g. claude-sonnet-4-6.
    #[arg(long)]
    model: Option<String>,
}

impl TargetArgs {
    fn target(self) -> Target {
        Target {
            provider: self.provider,
            api: self.api,
            model: self.model,
        }
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List sessions in a database, a file or a folder (default: the OpenClaw state folder).
    Sessions {
        /// A session file, a folder (searched recursively) or an OpenClaw database.
        path: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print the stored messages of a session's active branch (compaction applied).
    Show {
        /// A .jsonl session, a .json message array, or an OpenClaw .sqlite database.
        session: PathBuf,
        /// For a database: the session id or key (default: the most recent).
        #[arg(long = "session", value_name = "ID")]
        session_id: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Compute the replay projection for a target, with every rewrite and its rule.
    Replay {
        /// A .jsonl session, a .json message array, or an OpenClaw .sqlite database.
        session: PathBuf,
        /// For a database: the session id or key (default: the most recent).
        #[arg(long = "session", value_name = "ID")]
        session_id: Option<String>,
        #[command(flatten)]
        target: TargetArgs,
        /// Current tool names (comma-separated); tool calls naming others are dropped.
        #[arg(long, value_delimiter = ',', value_name = "NAMES")]
        tools: Option<Vec<String>>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Show the policy flags and family resolved for a target.
    Policy {
        #[command(flatten)]
        target: TargetArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
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
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        let open = cli.open;
        let options = tui::Options {
            session: open.session,
            session_id: open.session_id,
            target: open.target.target(),
            theme: open.theme,
        };
        return cli::finish(tui::run(&options));
    };
    let result = match command {
        Command::Sessions { path, format } => cli::sessions::run(path.as_deref(), format == Format::Json),
        Command::Show {
            session,
            session_id,
            format,
        } => cli::show::run(&session, session_id, format == Format::Json),
        Command::Replay {
            session,
            session_id,
            target,
            tools,
            format,
        } => {
            let options = ReplayOptions {
                allowed_tools: tools,
                ..ReplayOptions::default()
            };
            cli::replay::run(&session, session_id, &target.target(), &options, format == Format::Json)
        }
        Command::Policy { target, format } => cli::policy::run(target.target(), format == Format::Json),
        Command::Repair { session, dry_run } => cli::repair::run(&session, dry_run),
        Command::Rules { rule } => cli::rules::run(rule.as_deref()),
    };
    cli::finish(result)
}
