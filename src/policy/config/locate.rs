//! Where OpenClaw 2026.9.6 looks for its state folder and configuration: `resolveStateDir`
//! (`src/config/state-dir.ts`) and `resolveConfigPathCandidate` (`src/config/paths.ts`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The state folder and the configuration file OpenClaw would use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locations {
    /// `$OPENCLAW_STATE_DIR`, else `~/.openclaw` (or an existing legacy `~/.clawdbot`).
    pub state_dir: PathBuf,
    /// `$OPENCLAW_CONFIG_PATH`, else the first existing candidate, else
    /// `<state_dir>/openclaw.json`.
    pub config: PathBuf,
}

const CONFIG_FILENAME: &str = "openclaw.json";
const LEGACY_CONFIG_FILENAMES: [&str; 1] = ["clawdbot.json"];
const LEGACY_STATE_DIRS: [&str; 1] = [".clawdbot"];

fn set<'a>(env: &'a BTreeMap<String, String>, key: &str) -> Option<&'a str> {
    env.get(key).map(|v| v.trim()).filter(|v| !v.is_empty())
}

/// OpenClaw's home: `OPENCLAW_HOME` (with `~` expanded), else `HOME`, else the current folder.
fn home(env: &BTreeMap<String, String>) -> PathBuf {
    let os_home = set(env, "HOME").or_else(|| set(env, "USERPROFILE")).map(PathBuf::from);
    match set(env, "OPENCLAW_HOME") {
        Some(h) if h == "~" || h.starts_with("~/") => match &os_home {
            Some(os) => os.join(h.trim_start_matches('~').trim_start_matches('/')),
            None => PathBuf::from(h),
        },
        Some(h) => PathBuf::from(h),
        None => os_home.unwrap_or_else(|| std::env::current_dir().unwrap_or_default()),
    }
}

/// `~` and `~/…` against OpenClaw's home (`resolveUserPath`).
fn user_path(input: &str, env: &BTreeMap<String, String>) -> PathBuf {
    if input == "~" {
        return home(env);
    }
    match input.strip_prefix("~/") {
        Some(rest) => home(env).join(rest),
        None => PathBuf::from(input),
    }
}

fn exists(path: &Path) -> bool {
    path.exists()
}

/// Where OpenClaw would find its state and configuration under `env`.
pub fn locate(env: &BTreeMap<String, String>) -> Locations {
    let home = home(env);
    let state_override = set(env, "OPENCLAW_STATE_DIR").map(|s| user_path(s, env));
    let new_dir = home.join(".openclaw");
    let legacy: Vec<PathBuf> = LEGACY_STATE_DIRS.iter().map(|d| home.join(d)).collect();
    let state_dir = state_override.clone().unwrap_or_else(|| {
        if exists(&new_dir) {
            return new_dir.clone();
        }
        legacy
            .iter()
            .find(|d| exists(d))
            .cloned()
            .unwrap_or_else(|| new_dir.clone())
    });
    if let Some(explicit) = set(env, "OPENCLAW_CONFIG_PATH") {
        return Locations {
            state_dir,
            config: user_path(explicit, env),
        };
    }
    let in_dir = |dir: &Path| {
        std::iter::once(dir.join(CONFIG_FILENAME))
            .chain(LEGACY_CONFIG_FILENAMES.iter().map(|n| dir.join(n)))
            .collect::<Vec<_>>()
    };
    let mut candidates = Vec::new();
    if let Some(dir) = &state_override {
        candidates.extend(in_dir(dir));
    }
    candidates.extend(in_dir(&new_dir));
    for dir in &legacy {
        candidates.extend(in_dir(dir));
    }
    let config = candidates
        .into_iter()
        .find(|c| exists(c))
        .unwrap_or_else(|| state_dir.join(CONFIG_FILENAME));
    Locations { state_dir, config }
}
