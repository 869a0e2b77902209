//! The command line's shared argument groups and value enums (clap derive): the inspector's
//! arguments, a session to replay, its target, load limits and the OpenClaw rule set.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use replaylens::hygiene::ReplayOptions;
use replaylens::load::{Limits, LoadOptions};
use replaylens::policy::Target;
use replaylens::rule_set::RuleSet;

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
    /// Theme: dark, light, high-contrast, or a path to a theme TOML file.
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

/// Output format of `providers`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ProvidersFormatArg {
    /// One block per provider, its profiles indented.
    Text,
    /// One JSON document on stdout.
    Json,
    /// A Markdown table (the README's).
    Markdown,
}

impl ProvidersFormatArg {
    pub(crate) fn format(self) -> crate::cli::providers::Format {
        match self {
            ProvidersFormatArg::Text => crate::cli::providers::Format::Text,
            ProvidersFormatArg::Json => crate::cli::providers::Format::Json,
            ProvidersFormatArg::Markdown => crate::cli::providers::Format::Markdown,
        }
    }
}

/// Which messages a payload is built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum StageArg {
    /// The stored transcript without hygiene (what a naive client would send).
    Stored,
    /// The replay projection (what OpenClaw sends).
    Replay,
}

impl StageArg {
    pub(crate) fn wire(self) -> replaylens::wire::WireStage {
        match self {
            StageArg::Stored => replaylens::wire::WireStage::Stored,
            StageArg::Replay => replaylens::wire::WireStage::Replay,
        }
    }
}

/// Which payloads `lint` checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum LintStageArg {
    /// The stored transcript converted as is.
    Stored,
    /// The replay projection (exit 1 when it has a finding).
    Replay,
    /// Both.
    Both,
}

/// Output format of `scan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ScanFormatArg {
    /// A table, then the totals.
    Text,
    /// One JSON document: targets, one row per session, totals.
    Json,
    /// One CSV row per session, one column group per target.
    Csv,
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
}

/// Redaction level of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum RedactArg {
    /// Secrets, e-mail addresses, phone numbers, image data, very long tool output.
    Secrets,
    /// Also every user and assistant prose string (length-preserving placeholders).
    AllText,
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

impl ReplayArgs {
    /// Session path, load options, target and replay options.
    pub(crate) fn split(self) -> (PathBuf, LoadOptions, Target, ReplayOptions) {
        let load = self.limits.load_options(self.session_id);
        let options = ReplayOptions {
            allowed_tools: self.tools,
            rule_set: self.openclaw.rule_set(),
            rule_set_from_session: self.openclaw.rule_set.is_none(),
            ..ReplayOptions::default()
        };
        (self.session, load, self.target.target(), options)
    }
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
