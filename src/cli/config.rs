//! `--config FILE`: the user's OpenClaw configuration, read once per command and handed to the
//! replay ([`ReplayOptions::config`]): policy, history and payload all use it.

use std::path::Path;
use std::sync::Arc;

use replaylens::hygiene::ReplayOptions;
use replaylens::policy::Target;
use replaylens::policy::config::{OpenClawConfig, apply, image_max_dimension_px};
use replaylens::text::escape_controls_single_line as esc;

use crate::args::TargetArgs;

/// The configuration to use: `explicit`, else the one OpenClaw would find; `None` when there
/// is none. What cannot be resolved is the error's sentence.
pub fn load(explicit: Option<&Path>) -> Result<Option<OpenClawConfig>, String> {
    OpenClawConfig::discover(explicit).map_err(|e| format!("OpenClaw configuration: {e}"))
}

/// The configuration a replaying command uses, its warnings printed once on stderr.
pub(crate) fn for_replay(explicit: Option<&Path>) -> anyhow::Result<Option<Arc<OpenClawConfig>>> {
    let config = load(explicit).map_err(anyhow::Error::msg)?;
    for w in config.iter().flat_map(|c| &c.warnings) {
        eprintln!("warning: {}", esc(w));
    }
    Ok(config.map(Arc::new))
}

/// `options` under `config`: the configuration itself, and its
/// `agents.defaults.imageMaxDimensionPx` as the image limit unless `--image-max-px` was given
/// (`image_max_px`; 1200, OpenClaw's default, when neither says).
pub(crate) fn configure(
    options: ReplayOptions,
    config: Option<Arc<OpenClawConfig>>,
    image_max_px: Option<u32>,
) -> ReplayOptions {
    let from_config = config.as_deref().and_then(image_max_dimension_px);
    ReplayOptions {
        image_max_px: image_max_px.or(from_config).unwrap_or(options.image_max_px),
        config,
        ..options
    }
}

/// The target the provider check sees: the configuration's custom providers applied (a
/// provider the configuration declares is not unknown).
pub(crate) fn target_for_check(args: &TargetArgs) -> Result<Target, String> {
    let target = args.clone().target();
    Ok(match load(args.config.as_deref())? {
        Some(config) => apply(&config, &target).target,
        None => target,
    })
}

impl crate::args::ReplayArgs {
    /// Session path, load options, target and replay options, the user's configuration read
    /// (`--config`, else where OpenClaw finds it) with `image_max_px` from `--image-max-px`.
    pub(crate) fn split(
        self,
        image_max_px: Option<u32>,
    ) -> anyhow::Result<(std::path::PathBuf, replaylens::load::LoadOptions, Target, ReplayOptions)> {
        let load = self.limits.load_options(self.session_id);
        let config = for_replay(self.target.config.as_deref())?;
        let options = ReplayOptions {
            allowed_tools: self.tools,
            rule_set: self.openclaw.rule_set(),
            rule_set_from_session: self.openclaw.rule_set.is_none(),
            ..ReplayOptions::default()
        };
        let options = configure(options, config, image_max_px);
        Ok((self.session, load, self.target.target(), options))
    }
}
