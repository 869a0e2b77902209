//! The replay targets every case is run against.

use std::process::Command;

use replaylens::model::json::Value;

use super::oracle::OracleSetup;

/// A provider / API / model triple.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TargetSpec {
    /// Provider id.
    pub provider: String,
    /// Model API.
    pub api: String,
    /// Model id.
    pub model: String,
}

impl TargetSpec {
    /// A target from its three parts.
    pub fn new(provider: &str, api: &str, model: &str) -> Self {
        TargetSpec {
            provider: provider.to_owned(),
            api: api.to_owned(),
            model: model.to_owned(),
        }
    }

    /// `provider/api/model`, as used in case ids.
    pub fn label(&self) -> String {
        format!("{}/{}/{}", self.provider, self.api, self.model)
    }

    /// Read the target fields of an oracle request object (missing parts are blank).
    pub fn read_from(request: &Value) -> Self {
        let part = |k: &str| request.get(k).and_then(Value::as_str).unwrap_or("");
        TargetSpec::new(part("provider"), part("api"), part("model"))
    }
}

const TABLE: [(&str, &str, &str); 12] = [
    ("anthropic", "anthropic-messages", "claude-sonnet-4-5"),
    ("openai", "openai-responses", "gpt-5"),
    ("openai", "openai-completions", "gpt-4o"),
    ("google", "google-generative-ai", "gemini-2.5-pro"),
    ("mistral", "mistral-conversations", "mistral-large-latest"),
    (
        "amazon-bedrock",
        "bedrock-converse-stream",
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    ),
    ("openrouter", "openai-completions", "google/gemini-2.5-pro"),
    ("openrouter", "openai-completions", "anthropic/claude-sonnet-4.5"),
    ("minimax", "anthropic-messages", "MiniMax-M2.7"),
    ("ollama", "ollama", "llama3.1"),
    ("my-llm", "openai-completions", "local-model"),
    ("acme", "acme-chat", "acme-1"),
];

/// The twelve fixed targets: one per provider family older releases can load (the release
/// differential runs these), and stored-turn origins for the generator. The pinned release's
/// run adds every target [`enumerate`] finds.
pub fn fixed_targets() -> Vec<TargetSpec> {
    TABLE.iter().map(|(p, a, m)| TargetSpec::new(p, a, m)).collect()
}

/// Extra origins stored assistant turns may come from besides the targets (model switches).
pub const OTHER_ORIGINS: [(&str, &str, &str); 5] = [
    ("anthropic", "anthropic-messages", "claude-opus-4-1"),
    ("openai-codex", "openai-codex-responses", "gpt-5.1-codex"),
    ("moonshot", "openai-completions", "kimi-k2"),
    ("google", "google-generative-ai", "gemini-2.5-flash"),
    ("openai", "openai-responses", "gpt-5.2"),
];

/// What `oracle/openclaw_targets.mjs` found in the installed release.
#[derive(Debug, Clone, Default)]
pub struct TargetSet {
    /// The release's version (`fixed` when nothing was enumerated).
    pub version: String,
    /// Every target: the enumerated ones, then the fixed ones not among them.
    pub targets: Vec<TargetSpec>,
    /// Providers in enumeration order (`custom-provider` stands for the unowned fallback).
    pub providers: Vec<String>,
    /// `@openclaw/*-provider` packages the release names that are neither bundled nor on npm.
    pub clawhub_only: Vec<String>,
    /// How many targets came from the enumeration.
    pub enumerated: usize,
}

impl TargetSet {
    /// The fixed twelve only (older releases, or no oracle).
    pub fn fixed() -> Self {
        let targets = fixed_targets();
        TargetSet {
            version: "fixed".to_owned(),
            providers: providers_of(&targets),
            targets,
            ..TargetSet::default()
        }
    }

    /// The targets of `provider`, in order.
    pub fn of_provider<'a>(&'a self, provider: &'a str) -> impl Iterator<Item = &'a TargetSpec> + 'a {
        self.targets.iter().filter(move |t| t.provider == provider)
    }

    /// One target per provider (its first): what every sample session runs against.
    pub fn one_per_provider(&self) -> Vec<TargetSpec> {
        let mut out: Vec<TargetSpec> = fixed_targets();
        for p in &self.providers {
            if let Some(t) = self.of_provider(p).next()
                && !out.iter().any(|o| o.provider == t.provider)
            {
                out.push(t.clone());
            }
        }
        out
    }

    /// The listing the test prints: size, then one line per provider.
    pub fn listing(&self) -> String {
        let mut out = format!(
            "targets: {} ({} enumerated from openclaw {}, {} providers)\n",
            self.targets.len(),
            self.enumerated,
            self.version,
            self.providers.len()
        );
        for p in &self.providers {
            let list: Vec<String> = self.of_provider(p).map(|t| format!("{}:{}", t.api, t.model)).collect();
            out.push_str(&format!("  {p}: {}\n", list.join(" ")));
        }
        if !self.clawhub_only.is_empty() {
            out.push_str(&format!(
                "  clawhub-only (unowned fallback): {}\n",
                self.clawhub_only.join(", ")
            ));
        }
        out
    }
}

fn providers_of(targets: &[TargetSpec]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in targets {
        if !out.contains(&t.provider) {
            out.push(t.provider.clone());
        }
    }
    out
}

/// Run `oracle/openclaw_targets.mjs` with the oracle's Node and read the release's targets,
/// followed by the fixed ones it does not already hold.
pub fn enumerate(setup: &OracleSetup) -> Result<TargetSet, String> {
    let script = setup.script.with_file_name("openclaw_targets.mjs");
    let mut cmd = Command::new(&setup.node);
    cmd.arg(&script);
    if let Some(dir) = &setup.openclaw_dir {
        cmd.env("OPENCLAW_DIR", dir);
    }
    let out = cmd.output().map_err(|e| format!("{}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}",
            script.display(),
            String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")
        ));
    }
    let reply: Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("{}: {e}", script.display()))?;
    let mut targets: Vec<TargetSpec> = reply
        .get("targets")
        .and_then(Value::as_array)
        .ok_or("the enumeration has no targets")?
        .iter()
        .map(TargetSpec::read_from)
        .collect();
    let enumerated = targets.len();
    for t in fixed_targets() {
        if !targets.contains(&t) {
            targets.push(t);
        }
    }
    let clawhub_only = reply
        .get("clawhubOnly")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|c| c.get("provider").and_then(Value::as_str).map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    Ok(TargetSet {
        version: reply.get("version").and_then(Value::as_str).unwrap_or("").to_owned(),
        providers: providers_of(&targets),
        targets,
        clawhub_only,
        enumerated,
    })
}
