//! The `replaylens` binary: parses arguments and dispatches to the commands in `cli`.

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// See what an agent actually replays to an LLM provider, and why.
#[derive(Debug, Parser)]
#[command(name = "replaylens", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Output format of the listing commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Readable text.
    Text,
    /// One JSON document on stdout.
    Json,
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
    /// Print the transcript policy resolved for a target provider / API / model.
    Policy {
        /// Provider id, e.g. anthropic, amazon-bedrock, openrouter.
        #[arg(long)]
        provider: Option<String>,
        /// Model API, e.g. anthropic-messages, openai-completions.
        #[arg(long)]
        api: Option<String>,
        /// Model id, e.g. claude-sonnet-4-6.
        #[arg(long)]
        model: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
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
        Command::Policy {
            provider,
            api,
            model,
            format,
        } => cli::policy::run(
            replaylens::policy::Target { provider, api, model },
            format == Format::Json,
        ),
    };
    cli::finish(result)
}
