//! The command line (clap derive): the commands, the inspector's arguments, the shared argument
//! groups (a session to replay, its target, load limits, the OpenClaw rule set), the value enums
//! and the checks of arguments that clap cannot express.

use std::path::{Path, PathBuf};

use crate::cli::lint::Stages;
use crate::cli::providers::Format as ProvidersFormat;
use crate::cli::scan_output::OutputFormat as ScanFormat;
use clap::{Args, Parser, Subcommand, ValueEnum};
use replaylens::load::{Limits, LoadOptions};
use replaylens::policy::Target;
use replaylens::rule_set::RuleSet;

/// See what an agent actually replays to an LLM provider, and why.
///
/// Without a command, opens the inspector on SESSION (a file, folder or database), or on a
/// session picker when no SESSION is given.
#[derive(Debug, Parser)]
#[command(name = "replaylens", version, about, long_about = None, args_conflicts_with_subcommands = true)]
#[command(after_help = crate::cli::examples::INSPECTOR)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    #[command(flatten)]
    pub(crate) open: OpenArgs,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// List sessions in a database, a file or a folder (default: OpenClaw, Claude Code and Codex folders).
    #[command(after_help = crate::cli::examples::SESSIONS)]
    Sessions {
        /// A session file, a folder (searched recursively) or an OpenClaw database.
        path: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print the stored messages of a session's active branch (compaction applied).
    #[command(after_help = crate::cli::examples::SHOW)]
    Show {
        /// A session: OpenClaw .jsonl or .sqlite, Claude Code .jsonl, Codex rollout .jsonl[.zst], or a .json message array.
        session: PathBuf,
        /// For a database: the session id or key (default: the most recent).
        #[arg(long = "session", value_name = "ID")]
        session_id: Option<String>,
        #[command(flatten)]
        limits: LimitArgs,
        /// The user's OpenClaw configuration (openclaw.json, JSON5); default: where OpenClaw
        /// finds it. Named in the output, with the API it gives the session's provider.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Compute the replay projection for a target, with every rewrite and its rule.
    #[command(after_help = crate::cli::examples::REPLAY)]
    Replay {
        #[command(flatten)]
        replay: ReplayArgs,
        /// Longest image side sent, in pixels; default: the configuration's
        /// agents.defaults.imageMaxDimensionPx, else 1200.
        #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(1..))]
        image_max_px: Option<u32>,
        /// Keep watching the session: each time an agent writes to it, print the messages the
        /// replay gained and the verdict (text only; Ctrl-C ends). A truncation, deletion or
        /// replacement of the file, or a line over the limit, is one line on standard error.
        #[arg(long, conflicts_with = "format")]
        follow: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print the request body's conversation part as the provider API receives it.
    #[command(after_help = crate::cli::examples::PAYLOAD)]
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
    #[command(after_help = crate::cli::examples::LINT)]
    Lint {
        #[command(flatten)]
        replay: ReplayArgs,
        /// Which payload to check: the stored transcript as is, the replay, or both.
        #[arg(long, value_enum, default_value_t = Stages::Replay)]
        stage: Stages,
        /// A provider error text to explain: which stored message it points at, and whether
        /// the current projection avoids it.
        #[arg(long, value_name = "ERROR TEXT")]
        explain: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Export the stored ↔ replay comparison, every rewrite annotated, for a bug report.
    #[command(after_help = crate::cli::examples::EXPORT)]
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
        /// Longest image side sent, in pixels; default: the configuration's
        /// agents.defaults.imageMaxDimensionPx, else 1200.
        #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(1..))]
        image_max_px: Option<u32>,
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
        /// Leave out the verdict per OpenClaw release range (the session is otherwise replayed
        /// and linted once more under every rule set for it).
        #[arg(long)]
        no_releases: bool,
        /// Only stored messages A..B (inclusive), e.g. 0..5.
        #[arg(long, value_name = "A..B", value_parser = replaylens::export::parse_message_range)]
        messages: Option<(usize, usize)>,
        /// Markdown, HTML and JSON: also write the session itself to FILE, redacted (at the
        /// report's --redact level, else secrets), and have the report's reproduce command
        /// name FILE, so the report and the case travel together.
        #[arg(long, value_name = "FILE")]
        with_session: Option<PathBuf>,
    },
    /// Replay and lint every session in folders, files and databases, one row per session.
    #[command(after_help = crate::cli::examples::SCAN)]
    Scan {
        /// Session files, folders (searched recursively) or databases; default: the OpenClaw,
        /// Claude Code and Codex folders.
        paths: Vec<PathBuf>,
        /// A target, `provider[/api[/model]]` (a part left empty or `-` comes from the
        /// session); repeat for one column group per target. Default: each session's own.
        #[arg(long = "target", value_name = "SPEC", value_parser = crate::cli::scan::parse_target)]
        targets: Vec<Target>,
        #[command(flatten)]
        target: TargetArgs,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        openclaw: OpenClawArg,
        /// Also scan the paths listed in FILE, one per line (`-`: standard input; blank lines
        /// and `#` comments skipped). A list naming no path is an error; a listed path that is
        /// missing is an error row.
        #[arg(long, value_name = "FILE")]
        files_from: Option<PathBuf>,
        /// The most session files the paths, patterns and --files-from may name together;
        /// more is refused in one sentence.
        #[arg(long, value_name = "N", default_value_t = replaylens::load::discover::glob::MAX_FILES)]
        max_files: usize,
        /// The memory the sessions being scanned at once may take together (estimated from
        /// each file's size; a larger session waits its turn, one larger than this runs alone).
        #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = crate::cli::scan::parse_size)]
        memory_budget: u64,
        /// Scan only shard K of N (1-based): the sources whose path hashes to it (CRC-32 of the
        /// path as listed), so N workers given the same list scan disjoint parts covering it.
        #[arg(long, value_name = "K/N", value_parser = crate::cli::scan::parse_shard)]
        shard: Option<crate::cli::scan::Shard>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ScanFormat::Text)]
        format: ScanFormat,
        /// With `--format parquet`: a folder (files `scan-00000.parquet`, … or
        /// `scan-shard-K-of-N-00000.parquet`, …) or a file ending in `.parquet`.
        #[arg(short = 'o', long = "output", value_name = "DIR|FILE")]
        output: Option<PathBuf>,
        /// With `--format parquet`: start a new file once one reaches this size (bytes, or
        /// with a suffix: 64K, 256M, 1G).
        #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = crate::cli::scan::parse_size)]
        max_file_size: u64,
        /// With `--format parquet -o DIR`: remove the files an earlier scan left in DIR
        /// (`scan-*.parquet`, or this shard's) before writing; without it such a folder is
        /// refused, so `DIR/*.parquet` never mixes two scans' rows.
        #[arg(long)]
        replace: bool,
    },
    /// Replay and lint a session under every OpenClaw rule set: per release range the verdict,
    /// the rewrites by rule and the findings, and the releases at which the verdict changes.
    #[command(after_help = crate::cli::examples::RELEASES)]
    Releases {
        /// A session: OpenClaw .jsonl or .sqlite, Claude Code .jsonl, Codex rollout .jsonl[.zst], or a .json message array.
        session: PathBuf,
        /// For a database: the session id or key (default: the most recent).
        #[arg(long = "session", value_name = "ID")]
        session_id: Option<String>,
        #[command(flatten)]
        target: TargetArgs,
        #[command(flatten)]
        limits: LimitArgs,
        /// Current tool names (comma-separated); tool calls naming others are dropped.
        #[arg(long, value_delimiter = ',', value_name = "NAMES")]
        tools: Option<Vec<String>>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Cut a session down to the few entries that still reproduce a lint finding, a rule's
    /// rewrite or a pasted provider error, redacted, for a bug report.
    #[command(after_help = crate::cli::examples::REDUCE)]
    Reduce {
        #[command(flatten)]
        replay: ReplayArgs,
        /// What to keep: a lint finding (e.g. anthropic-tool-use-adjacency), a rule id
        /// (e.g. tool-result-pairing), or `verdict` (a rejected replay payload).
        #[arg(
            long,
            value_name = "WHAT",
            required_unless_present = "keep_error",
            conflicts_with = "keep_error"
        )]
        keep: Option<String>,
        /// Keep what a pasted provider error reports (as `lint --explain` reads it).
        #[arg(long, value_name = "ERROR TEXT")]
        keep_error: Option<String>,
        /// Where to write the reduced session (the input's own format).
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
        /// Stop after this many seconds with the smallest case found so far (default 300,
        /// printed at the start).
        #[arg(long, value_name = "N")]
        max_seconds: Option<u64>,
        /// Write the reduced session without redacting secrets.
        #[arg(long)]
        no_redact: bool,
    },
    /// Show the policy flags and family resolved for a target.
    #[command(after_help = crate::cli::examples::POLICY)]
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
    #[command(after_help = crate::cli::examples::PROVIDERS)]
    Providers {
        #[command(flatten)]
        openclaw: OpenClawArg,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ProvidersFormat::Text)]
        format: ProvidersFormat,
    },
    /// Repair a session JSONL file on disk as OpenClaw does (backup first, atomic replace).
    #[command(after_help = crate::cli::examples::REPAIR)]
    Repair {
        /// The .jsonl session file to repair.
        session: PathBuf,
        /// Print what would change and write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// List the hygiene rules in pipeline order, or explain one.
    #[command(after_help = crate::cli::examples::RULES)]
    Rules {
        /// A rule id, e.g. tool-result-pairing.
        rule: Option<String>,
        /// Also say how this rule set differs from `newest`.
        #[arg(long = "openclaw", value_name = "VERSION", value_parser = RuleSet::parse)]
        rule_set: Option<&'static RuleSet>,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    #[command(after_help = crate::cli::examples::COMPLETIONS)]
    Completions {
        /// The shell to complete in.
        shell: clap_complete::Shell,
    },
    /// Print the man page, replaylens(1), in roff to stdout.
    #[command(after_help = crate::cli::examples::MAN)]
    Man,
}

/// `--session` given for a file that is not a database: it would be ignored, so it is an
/// unusable argument (one sentence naming the file).
pub(crate) fn session_flag_misuse(path: &Path, session_id: Option<&String>) -> Option<String> {
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
pub(crate) fn session_args(cli: &Cli) -> Option<(&Path, Option<&String>)> {
    match &cli.command {
        None => cli.open.session.as_deref().map(|p| (p, cli.open.session_id.as_ref())),
        Some(Command::Show {
            session, session_id, ..
        })
        | Some(Command::Releases {
            session, session_id, ..
        }) => Some((session, session_id.as_ref())),
        Some(
            Command::Replay { replay, .. }
            | Command::Payload { replay, .. }
            | Command::Lint { replay, .. }
            | Command::Export { replay, .. }
            | Command::Reduce { replay, .. },
        ) => Some((&replay.session, replay.session_id.as_ref())),
        Some(_) => None,
    }
}

/// The `--provider` / `--api` / `--model` arguments of a command, when it has them.
pub(crate) fn target_args(cli: &Cli) -> Option<&TargetArgs> {
    match &cli.command {
        None => Some(&cli.open.target),
        Some(
            Command::Replay { replay, .. }
            | Command::Payload { replay, .. }
            | Command::Lint { replay, .. }
            | Command::Export { replay, .. }
            | Command::Reduce { replay, .. },
        ) => Some(&replay.target),
        Some(Command::Scan { target, .. } | Command::Policy { target, .. } | Command::Releases { target, .. }) => {
            Some(target)
        }
        Some(_) => None,
    }
}

/// Arguments of the inspector (no subcommand).
#[derive(Debug, Clone, Args)]
pub(crate) struct OpenArgs {
    /// A session (OpenClaw .jsonl or .sqlite, Claude Code .jsonl, Codex rollout), a .json message array or a folder.
    pub(crate) session: Option<PathBuf>,
    /// For a database: the session id or key (default: the most recent).
    #[arg(long = "session", value_name = "ID")]
    pub(crate) session_id: Option<String>,
    #[command(flatten)]
    pub(crate) target: TargetArgs,
    #[command(flatten)]
    pub(crate) openclaw: OpenClawArg,
    /// Theme: auto (default: the terminal's background picks dark or light), dark, light,
    /// high-contrast, or a path to a theme TOML file.
    #[arg(long, value_name = "NAME|PATH")]
    pub(crate) theme: Option<String>,
}

/// Output format of the text/JSON commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Readable text.
    Text,
    /// One JSON document on stdout.
    Json,
}

/// Which messages a payload is built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum StageArg {
    /// The stored transcript without hygiene (what a naive client would send).
    Stored,
    /// The replay projection (what OpenClaw sends).
    Replay,
}

impl From<StageArg> for replaylens::wire::WireStage {
    fn from(stage: StageArg) -> Self {
        match stage {
            StageArg::Stored => Self::Stored,
            StageArg::Replay => Self::Replay,
        }
    }
}

/// Export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExportFormatArg {
    /// GitHub-flavoured Markdown.
    Md,
    /// One self-contained HTML file.
    Html,
    /// The replay JSON contract plus export metadata.
    Json,
    /// The session itself in its own format (OpenClaw JSONL or a message array), redacted as
    /// --redact says, to share a case without its secrets.
    Session,
}

impl ExportFormatArg {
    /// The report format, or `None` for `session` (the session file itself, not a report).
    pub(crate) fn report(self) -> Option<replaylens::export::ExportFormat> {
        use replaylens::export::ExportFormat;
        match self {
            Self::Md => Some(ExportFormat::Markdown),
            Self::Html => Some(ExportFormat::Html),
            Self::Json => Some(ExportFormat::Json),
            Self::Session => None,
        }
    }
}

/// Redaction level of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum RedactArg {
    /// Secrets, e-mail addresses, phone numbers, image data, very long tool output.
    Secrets,
    /// Also every user and assistant prose string (length-preserving placeholders).
    AllText,
}

impl From<RedactArg> for replaylens::export::Redaction {
    fn from(level: RedactArg) -> Self {
        match level {
            RedactArg::Secrets => Self::Secrets,
            RedactArg::AllText => Self::AllText,
        }
    }
}

/// `--openclaw VERSION`: which OpenClaw release's behaviour to reproduce.
#[derive(Debug, Clone, Args)]
pub(crate) struct OpenClawArg {
    /// OpenClaw rule set: `newest`, a set name, or any release such as 2026.9.2 (the set that
    /// covers it). Default: the release a database records, else `newest`.
    #[arg(long = "openclaw", value_name = "VERSION", value_parser = RuleSet::parse)]
    pub(crate) rule_set: Option<&'static RuleSet>,
}

impl OpenClawArg {
    /// The rule set given, else `newest`.
    pub(crate) fn rule_set(&self) -> &'static RuleSet {
        self.rule_set.unwrap_or(RuleSet::newest())
    }
}

/// Size limits of a load: a hostile file ends in one sentence, not an allocation failure.
#[derive(Debug, Clone, Args)]
pub(crate) struct LimitArgs {
    /// Longest JSONL line read, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) max_line_mb: u64,
    /// Most session data read from one file (a .zst once decompressed, a JSON document), in MiB;
    /// memory follows it (256 MiB of short lines take about 1 GiB loaded).
    #[arg(long, value_name = "MIB", default_value_t = replaylens::load::limits::DEFAULT_DOCUMENT_MIB, value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) max_decompressed_mb: u64,
}

impl LimitArgs {
    pub(crate) fn load_options(&self, session: Option<String>) -> LoadOptions {
        LoadOptions {
            session,
            limits: Limits::from_mib(self.max_line_mb, self.max_decompressed_mb),
            ..LoadOptions::default()
        }
    }
}

/// A session to replay, for which target, with which tools and rule set.
#[derive(Debug, Clone, Args)]
pub(crate) struct ReplayArgs {
    /// A session: OpenClaw .jsonl or .sqlite, Claude Code .jsonl, Codex rollout .jsonl[.zst], or a .json message array.
    pub(crate) session: PathBuf,
    /// For a database: the session id or key (default: the most recent).
    #[arg(long = "session", value_name = "ID")]
    pub(crate) session_id: Option<String>,
    #[command(flatten)]
    pub(crate) target: TargetArgs,
    #[command(flatten)]
    pub(crate) limits: LimitArgs,
    /// Current tool names (comma-separated); tool calls naming others are dropped.
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub(crate) tools: Option<Vec<String>>,
    #[command(flatten)]
    pub(crate) openclaw: OpenClawArg,
}

/// The replay target; missing parts come from the session's latest model, or from the
/// requested provider's defaults when it is another provider replaylens knows.
#[derive(Debug, Clone, Args)]
pub(crate) struct TargetArgs {
    /// Provider id, e.g. anthropic, amazon-bedrock, openrouter; another known provider than
    /// the session's brings its default API and model unless --api / --model are given.
    #[arg(long)]
    pub(crate) provider: Option<String>,
    /// Model API, e.g. anthropic-messages, openai-completions.
    #[arg(long)]
    pub(crate) api: Option<String>,
    /// Model id, e.g. claude-sonnet-4-6.
    #[arg(long)]
    pub(crate) model: Option<String>,
    /// The user's OpenClaw configuration (openclaw.json, JSON5); default: where OpenClaw finds
    /// it ($OPENCLAW_CONFIG_PATH, else the state folder). Its custom providers, models and
    /// plugins decide the policy, the history and the payload.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
}

impl TargetArgs {
    pub(crate) fn target(self) -> Target {
        Target {
            provider: self.provider,
            api: self.api,
            model: self.model,
        }
    }
}
