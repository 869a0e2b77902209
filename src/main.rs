//! The `replaylens` binary: parses arguments and dispatches to the commands in `cli`.

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use replaylens::hygiene::ReplayOptions;
use replaylens::policy::Target;

/// See what an agent actually replays to an LLM provider, and why.
#[derive(Debug, Parser)]
#[command(name = "replaylens", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
        /// Longest image side sent, in pixels (agents.defaults.imageMaxDimensionPx).
        #[arg(long, value_name = "PX", default_value_t = 1200, value_parser = clap::value_parser!(u32).range(1..))]
        image_max_px: u32,
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
    /// List the hygiene rules in pipeline order, or explain one.
    Rules {
        /// A rule id, e.g. tool-result-pairing.
        rule: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
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
            image_max_px,
            format,
        } => {
            let options = ReplayOptions {
                allowed_tools: tools,
                image_max_px,
                ..ReplayOptions::default()
            };
            cli::replay::run(&session, session_id, &target.target(), &options, format == Format::Json)
        }
        Command::Policy { target, format } => cli::policy::run(target.target(), format == Format::Json),
        Command::Rules { rule } => cli::rules::run(rule.as_deref()),
    };
    cli::finish(result)
}
