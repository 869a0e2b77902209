//! The user's OpenClaw configuration (`openclaw.json`), read as OpenClaw 2026.9.6 reads it:
//! located like `resolveConfigPathCandidate` (`src/config/paths.ts`), parsed as JSON with a JSON5
//! fallback (`parseJsonWithJson5Fallback`), `$include` resolved like `IncludeProcessor`
//! (`src/config/includes.ts`), then `${VAR}` references substituted like `resolveConfigEnvVars`
//! (`src/config/env-substitution.ts`) after the configuration's own `env` entries are applied.
//! The whole resolved tree is kept ([`OpenClawConfig::raw`]): unknown fields survive; the typed
//! view reads only what the policy needs.

pub mod apply;
mod includes;
mod locate;
pub mod model;
pub mod plugins;
pub mod state_plugins;
mod view;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use apply::{Applied, apply};
pub use locate::{Locations, locate};
pub use model::{ConfiguredModel, configured_model, image_max_dimension_px};
pub use view::{ModelConfig, PluginsConfig, ProviderConfig};

/// What cannot be resolved in a configuration: one sentence naming the file and, where known,
/// the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.sentence())]
pub struct ConfigError {
    /// The file at fault.
    pub file: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl ConfigError {
    /// `file:line: message`.
    fn sentence(&self) -> String {
        match self.line {
            Some(line) => format!("{}:{line}: {}", self.file.display(), self.message),
            None => format!("{}: {}", self.file.display(), self.message),
        }
    }
}

/// A resolved OpenClaw configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenClawConfig {
    /// The file read.
    pub path: PathBuf,
    /// The resolved tree (includes merged, environment references substituted).
    pub raw: serde_json::Value,
    /// What OpenClaw would warn about (an unset environment variable is kept as written).
    pub warnings: Vec<String>,
}

impl OpenClawConfig {
    /// Read and resolve the configuration at `path` with the process environment.
    pub fn load(path: &Path) -> Result<OpenClawConfig, ConfigError> {
        let env: BTreeMap<String, String> = std::env::vars().collect();
        Self::load_with_env(path, &env)
    }

    /// Read and resolve the configuration at `path` with the given environment.
    pub fn load_with_env(path: &Path, env: &BTreeMap<String, String>) -> Result<OpenClawConfig, ConfigError> {
        let (tree, files) = includes::resolve(path, env)?;
        let mut env = env.clone();
        for (key, value) in view::config_env_vars(&tree) {
            if env.get(&key).is_none_or(|v| v.trim().is_empty()) {
                env.insert(key, value);
            }
        }
        let mut warnings = Vec::new();
        let raw = includes::substitute(tree, &env, &files, &mut warnings);
        Ok(OpenClawConfig {
            path: path.to_owned(),
            raw,
            warnings,
        })
    }

    /// The configuration OpenClaw would read here: `explicit` (a `--config` file), else the
    /// located default; `None` when no file exists at the default location.
    pub fn discover(explicit: Option<&Path>) -> Result<Option<OpenClawConfig>, ConfigError> {
        if let Some(path) = explicit {
            return Self::load(path).map(Some);
        }
        let env: BTreeMap<String, String> = std::env::vars().collect();
        let found = locate(&env).config;
        if found.exists() {
            Self::load_with_env(&found, &env).map(Some)
        } else {
            Ok(None)
        }
    }

    /// How reports and headers name a configuration: its path, or `no configuration`; never
    /// anything it holds (keys, headers and tokens stay out of every output).
    pub fn describe(config: Option<&OpenClawConfig>) -> String {
        config.map_or_else(|| "no configuration".to_owned(), |c| c.path.display().to_string())
    }

    /// `models.providers`, keyed by the id as written.
    pub fn providers(&self) -> BTreeMap<String, ProviderConfig> {
        view::providers(&self.raw)
    }

    /// `plugins`.
    pub fn plugins(&self) -> PluginsConfig {
        view::plugins(&self.raw)
    }
}

#[cfg(test)]
mod tests;
