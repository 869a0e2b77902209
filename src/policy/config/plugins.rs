//! The plugins a configuration installs or loads, and which of them OpenClaw enables
//! (`resolvePluginActivationDecisionShared` in `src/plugins/config-normalization-shared.ts`:
//! `plugins.enabled: false` disables all, then `plugins.deny`, then
//! `plugins.entries.<id>.enabled: false`, then a non-empty `plugins.allow` that lacks the id).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::OpenClawConfig;
use crate::policy::Installation;

/// Why a plugin is off, when it is.
pub fn disabled_by(config: &OpenClawConfig, plugin: &str) -> Option<&'static str> {
    let p = config.plugins();
    let id = plugin.trim().to_lowercase();
    if !p.enabled {
        return Some("plugins.enabled is false");
    }
    if p.deny.iter().any(|d| d.to_lowercase() == id) {
        return Some("plugins.deny lists it");
    }
    if p.entries
        .iter()
        .any(|(k, e)| k.to_lowercase() == id && *e == Some(false))
    {
        return Some("plugins.entries.<id>.enabled is false");
    }
    if !p.allow.is_empty() && !p.allow.iter().any(|a| a.to_lowercase() == id) {
        return Some("plugins.allow does not list it");
    }
    None
}

/// The id a plugin folder declares in its `openclaw.plugin.json` (a file path: its folder's).
fn manifest_id(path: &Path) -> Option<String> {
    let dir = if path.is_file() { path.parent()? } else { path };
    let text = std::fs::read_to_string(dir.join("openclaw.plugin.json")).ok()?;
    let v: serde_json::Value = json5::from_str(&text).ok()?;
    v.get("id")?.as_str().map(|s| s.trim().to_owned())
}

/// The plugin ids the configuration installs (`plugins.installs`) or loads
/// (`plugins.load.paths`, by their manifests' ids), before enablement.
pub fn declared(config: &OpenClawConfig) -> BTreeSet<String> {
    let p = config.plugins();
    let base = config.path.parent().map(Path::to_owned).unwrap_or_default();
    let loaded = p.load_paths.iter().filter_map(|raw| {
        let path = PathBuf::from(raw);
        let path = if path.is_absolute() { path } else { base.join(path) };
        manifest_id(&path)
    });
    p.installs.iter().cloned().chain(loaded).collect()
}

/// The installation a configuration describes, with the plugins the state folder records as
/// installed ([`state_installed`]): those it installs, loads or the state records that OpenClaw
/// enables. Exact: a ClawHub plugin not in it is not installed.
pub fn installation(config: &OpenClawConfig) -> Installation {
    let mut ids = declared(config);
    ids.extend(state_installed().unwrap_or_default());
    Installation::Known(ids.into_iter().filter(|id| disabled_by(config, id).is_none()).collect())
}

/// The plugins the state folder OpenClaw would use here (`$OPENCLAW_STATE_DIR`, else
/// `~/.openclaw`) records as installed in its state database, or `None` when it records none
/// or its index cannot be read ([`super::state_plugins::installed`]).
pub fn state_installed() -> Option<BTreeSet<String>> {
    let env: std::collections::BTreeMap<String, String> = std::env::vars().collect();
    super::state_plugins::installed(&super::locate(&env).state_dir)
        .ok()
        .flatten()
}

/// The installation without a configuration: the state folder's records when it has them
/// (exact), else unknown (a ClawHub plugin is assumed installed, and the answer says so).
pub fn installation_without_config() -> Installation {
    state_installed().map_or(Installation::Unknown, Installation::Known)
}
