//! The "Examples:" block at the end of every command's `--help` (clap `after_help`): real
//! commands on the bundled `sample-sessions/`, run from the checkout's root, each line at most
//! 80 columns. `tests/install.rs` runs every one of them.

/// `replaylens` without a command (the inspector).
pub const INSPECTOR: &str = "\
Examples:
  replaylens sample-sessions               # pick one of the bundled sessions
  replaylens sample-sessions/mistral-ids-and-images.jsonl
  replaylens sample-sessions/anthropic-tool-repair.jsonl --provider mistral";

/// `replaylens sessions`.
pub const SESSIONS: &str = "\
Examples:
  replaylens sessions sample-sessions/openclaw-agent.sqlite
  replaylens sessions sample-sessions --format json";

/// `replaylens show`.
pub const SHOW: &str = "\
Examples:
  replaylens show sample-sessions/compaction-and-branch.jsonl
  replaylens show sample-sessions/openclaw-agent.sqlite --session c5db8a19";

/// `replaylens replay`.
pub const REPLAY: &str = "\
Examples:
  replaylens replay sample-sessions/anthropic-tool-repair.jsonl
  replaylens replay sample-sessions/anthropic-tool-repair.jsonl \\
    --provider mistral --format json";

/// `replaylens payload`.
pub const PAYLOAD: &str = "\
Examples:
  replaylens payload sample-sessions/anthropic-tool-repair.jsonl --format json
  replaylens payload sample-sessions/mistral-ids-and-images.jsonl --stage stored";

/// `replaylens lint`.
pub const LINT: &str = "\
Examples:
  replaylens lint sample-sessions/mistral-ids-and-images.jsonl --stage both
  replaylens lint sample-sessions/mistral-ids-and-images.jsonl \\
    --explain \"Unexpected role 'user' after role 'tool'\"";

/// `replaylens export`.
pub const EXPORT: &str = "\
Examples:
  replaylens export sample-sessions/gateway-channel-noise.jsonl \\
    --redact -o report.html
  replaylens export sample-sessions/mistral-ids-and-images.jsonl -o report.md \\
    --with-session case.jsonl";

/// `replaylens scan`.
pub const SCAN: &str = "\
Examples:
  replaylens scan sample-sessions
  replaylens scan sample-sessions --target mistral --target anthropic";

/// `replaylens releases`.
pub const RELEASES: &str = "\
Examples:
  replaylens releases sample-sessions/gemini-signatures.jsonl
  replaylens releases sample-sessions/anthropic-tool-repair.jsonl --format json";

/// `replaylens reduce`.
pub const REDUCE: &str = "\
Examples:
  replaylens reduce sample-sessions/mistral-ids-and-images.jsonl \\
    --keep verdict -o small.jsonl
  replaylens reduce sample-sessions/anthropic-tool-repair.jsonl \\
    --keep tool-result-pairing -o pairing.jsonl
  # then `replaylens lint small.jsonl` alone reproduces: the file records its target

Exit status: 0 written; 2 unusable input or arguments; 3 nothing to keep (the whole
session does not reproduce what --keep names); 1 an internal failure.";

/// `replaylens policy`.
pub const POLICY: &str = "\
Examples:
  replaylens policy --provider mistral
  replaylens policy --provider openrouter --model google/gemini-2.5-pro";

/// `replaylens providers`.
pub const PROVIDERS: &str = "\
Examples:
  replaylens providers
  replaylens providers --format json";

/// `replaylens repair`.
pub const REPAIR: &str = "\
Examples:
  replaylens repair sample-sessions/anthropic-tool-repair.jsonl --dry-run";

/// `replaylens rules`.
pub const RULES: &str = "\
Examples:
  replaylens rules
  replaylens rules tool-result-pairing";

/// `replaylens completions`.
pub const COMPLETIONS: &str = "\
Examples:
  replaylens completions bash \\
    > ~/.local/share/bash-completion/completions/replaylens
  replaylens completions zsh > ~/.zfunc/_replaylens   # fpath+=~/.zfunc
  replaylens completions fish > ~/.config/fish/completions/replaylens.fish";

/// `replaylens man`.
pub const MAN: &str = "\
Examples:
  replaylens man | man -l -
  replaylens man > ~/.local/share/man/man1/replaylens.1";
