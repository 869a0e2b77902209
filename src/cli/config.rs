//! `--config FILE`: the user's OpenClaw configuration for the commands that take a target.

use std::path::Path;

use replaylens::policy::Target;
use replaylens::policy::config::{OpenClawConfig, apply};

use crate::args::{Cli, Command, TargetArgs};

/// The configuration to use: `explicit`, else the one OpenClaw would find; `None` when there
/// is none. What cannot be resolved is the error's sentence.
pub fn load(explicit: Option<&Path>) -> Result<Option<OpenClawConfig>, String> {
    OpenClawConfig::discover(explicit).map_err(|e| format!("OpenClaw configuration: {e}"))
}

/// The target the provider check sees: for `policy`, with the configuration's custom providers
/// applied (a provider the configuration declares is not unknown); elsewhere as requested,
/// with a note that `--config` is not read there yet.
pub(crate) fn target_for_check(cli: &Cli, args: &TargetArgs) -> Result<Target, String> {
    let target = args.clone().target();
    if !matches!(cli.command, Some(Command::Policy { .. })) {
        if args.config.is_some() {
            eprintln!("note: --config is read by `policy` only so far; this command ignores it");
        }
        return Ok(target);
    }
    Ok(match load(args.config.as_deref())? {
        Some(config) => apply(&config, &target).target,
        None => target,
    })
}
