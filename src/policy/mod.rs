//! Policy resolution: target provider / API / model → the transcript policy flags and the row
//! of the per-family table that chose them.
//!
//! This implements the newest, plugin-owned resolver (OpenClaw's `resolveTranscriptPolicy` over each
//! provider plugin's `buildReplayPolicy`, with a fallback for providers without one), the provider
//! pre-normalisation and detection predicates where the table needs them, and the model facts
//! (`shouldDropClaudeThinkingBlocks`, `bindsClaudeThinkingPrefix`: prefix-binding Claude
//! models, which Claude models keep thinking blocks, native Anthropic tool-use ids,
//! `appendOnlyRuntimeContext` on `openai-completions` / `ollama`).
//!
//! Serialization follows `docs/internals.md`: flags are named as OpenClaw names them (camelCase), and a
//! flag the newest resolver leaves undefined is omitted. Flags that have a concrete default
//! (`false`, `true`, `images-only`) are always present; flags whose default is undefined
//! (`toolCallIdMode`, `duplicateToolCallIdStyle`, `sanitizeThoughtSignatures`) and the
//! newest-only flags that plugins set explicitly (`dropReasoningFromHistory`,
//! `appendOnlyRuntimeContext`, `inHistorySystemUpdates`) are `Option`s. `sanitizeThinkingSignatures`
//! is flat-era only and never set.

mod build;
pub mod claude;
pub mod config;
mod defaults;
pub use defaults::known_apis;
mod family;
pub mod owner;
pub mod predicates;
pub mod providers;
pub mod requested;
mod target;
#[cfg(test)]
mod tests;
pub mod unknown;

use serde::{Deserialize, Serialize};

pub use family::{Family, plugin_family};
pub use owner::{Installation, Ownership};
pub use requested::{EffectiveTarget, PartOrigin, TargetOrigin, effective, target_warnings};
pub use target::{Target, preset};

/// `sanitizeMode`: how much non-image content sanitization runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SanitizeMode {
    /// Only images are sanitized (the default).
    #[default]
    ImagesOnly,
    /// Non-image content is sanitized too.
    Full,
}

/// `toolCallIdMode`: the alphabet and length of rewritten tool-call ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolCallIdMode {
    /// Only `[A-Za-z0-9]`.
    Strict,
    /// `[A-Za-z0-9]`, exactly 9 characters (Mistral).
    Strict9,
}

/// `duplicateToolCallIdStyle`: how a repeated raw id is rewritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DuplicateToolCallIdStyle {
    /// Repeated raw ids get `call_<24 hex>` ids.
    Openai,
}

/// `sanitizeThoughtSignatures`: which Gemini thought signatures survive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThoughtSignatureOptions {
    /// Keep only signatures that are valid base64.
    pub allow_base64_only: bool,
    /// Apply the test to `thoughtSignature` as well as `thought_signature`.
    pub include_camel_case: bool,
}

impl ThoughtSignatureOptions {
    /// `{allowBase64Only: true, includeCamelCase: true}`, used for every Gemini-like target.
    pub const GEMINI: ThoughtSignatureOptions = ThoughtSignatureOptions {
        allow_base64_only: true,
        include_camel_case: true,
    };
}

/// OpenClaw's transcript policy record (what `resolveTranscriptPolicy` returns).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Policy {
    /// `images-only` or `full`.
    pub sanitize_mode: SanitizeMode,
    /// Rewrite tool-call and result ids.
    pub sanitize_tool_call_ids: bool,
    /// Alphabet / length of rewritten ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id_mode: Option<ToolCallIdMode>,
    /// How repeated raw ids are rewritten.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicate_tool_call_id_style: Option<DuplicateToolCallIdStyle>,
    /// Keep `toolu_…` ids verbatim on their first occurrence.
    pub preserve_native_anthropic_tool_use_ids: bool,
    /// Run the tool-use / result pairing repair.
    pub repair_tool_use_result_pairing: bool,
    /// Keep provider signatures (no thought-signature stripping).
    pub preserve_signatures: bool,
    /// Gemini thought-signature cleanup options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sanitize_thought_signatures: Option<ThoughtSignatureOptions>,
    /// Flat-era flag; the newest resolver never sets it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sanitize_thinking_signatures: Option<bool>,
    /// Drop thinking blocks from older assistant turns.
    pub drop_thinking_blocks: bool,
    /// Strip historical reasoning (OpenAI-compatible chat completions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drop_reasoning_from_history: Option<bool>,
    /// Prepend the `(session bootstrap)` user turn when history starts with the assistant
    /// (plugin key `applyAssistantFirstOrderingFix`).
    pub apply_google_turn_ordering: bool,
    /// Merge consecutive assistant turns (Gemini alternation).
    pub validate_gemini_turns: bool,
    /// Anthropic turn validation (merge, dangling tool calls).
    pub validate_anthropic_turns: bool,
    /// Gates the live session guard's synthetic results (not replay repair).
    pub allow_synthetic_tool_results: bool,
    /// Keep runtime-context carriers in place; on `anthropic-messages` consecutive user turns
    /// are then not merged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub append_only_runtime_context: Option<bool>,
    /// Newest-only flag; no family sets it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_history_system_updates: Option<bool>,
}

impl Default for Policy {
    /// The default policy (no plugin policy, unknown API): images-only, pairing repair on, everything
    /// else off/undefined.
    fn default() -> Self {
        Policy {
            sanitize_mode: SanitizeMode::ImagesOnly,
            sanitize_tool_call_ids: false,
            tool_call_id_mode: None,
            duplicate_tool_call_id_style: None,
            preserve_native_anthropic_tool_use_ids: false,
            repair_tool_use_result_pairing: true,
            preserve_signatures: false,
            sanitize_thought_signatures: None,
            sanitize_thinking_signatures: None,
            drop_thinking_blocks: false,
            drop_reasoning_from_history: None,
            apply_google_turn_ordering: false,
            validate_gemini_turns: false,
            validate_anthropic_turns: false,
            allow_synthetic_tool_results: false,
            append_only_runtime_context: None,
            in_history_system_updates: None,
        }
    }
}

impl Policy {
    /// `dropReasoningFromHistory`, absent read as false.
    pub fn drops_reasoning_from_history(&self) -> bool {
        self.drop_reasoning_from_history == Some(true)
    }

    /// `appendOnlyRuntimeContext`, absent read as false.
    pub fn is_append_only_runtime_context(&self) -> bool {
        self.append_only_runtime_context == Some(true)
    }

    /// The policy as the `policy` object of `docs/internals.md` (camelCase, absent flags omitted).
    pub fn to_json(&self) -> crate::model::json::Value {
        crate::model::json::to_value(&self).unwrap_or(crate::model::json::Value::Null)
    }
}

/// The outcome of [`resolve`]: the chosen family row, its policy and the normalised target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResolvedPolicy {
    /// The family row that was chosen.
    pub family: Family,
    /// The resolved flags.
    pub policy: Policy,
    /// The target after provider normalisation and trimming.
    pub target: Target,
    /// Who owns the policy.
    pub owner: Ownership,
    /// When the answer rests on a ClawHub plugin assumed installed: what applies without it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub without_plugin: Option<WithoutPlugin>,
    /// "OpenClaw … has no route for …" when the release throws before sending anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_route: Option<String>,
}

/// What a target gets when the ClawHub plugin it is assumed to have is not installed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WithoutPlugin {
    /// The plugin assumed installed.
    pub plugin: String,
    /// The unowned fallback's row.
    pub family: Family,
    /// The unowned fallback's flags.
    pub policy: Policy,
}

impl ResolvedPolicy {
    /// `policy --format json` (`docs/internals.md`): the policy object plus `"family"` naming the chosen row.
    pub fn to_json(&self) -> crate::model::json::Value {
        let mut v = self.policy.to_json();
        if let Some(obj) = v.as_object_mut() {
            obj.insert("family".into(), crate::model::json::Value::from(self.family.id()));
        }
        v
    }

    /// "assumes the ClawHub plugin `moonshot` is installed; without it: …" naming the fallback
    /// row and the flags that change, when the answer rests on that assumption.
    pub fn assumption(&self) -> Option<String> {
        let w = self.without_plugin.as_ref()?;
        let changes = flag_changes(&self.policy, &w.policy);
        let what = if changes.is_empty() {
            "the same flags".to_owned()
        } else {
            changes.join(", ")
        };
        Some(format!(
            "assumes the ClawHub plugin `{}` is installed; without it: the unowned fallback ({}) applies, {what}",
            w.plugin,
            w.family.id()
        ))
    }
}

/// The flags that differ between two policies, as `name: from → to` (absent shown as `-`).
fn flag_changes(from: &Policy, to: &Policy) -> Vec<String> {
    use crate::model::json::Value;
    let (Value::Object(a), Value::Object(b)) = (from.to_json(), to.to_json()) else {
        return Vec::new();
    };
    let mut names: Vec<&str> = a.keys().chain(b.keys()).map(|k| k.as_ref()).collect();
    names.sort_unstable();
    names.dedup();
    let shown = |v: Option<&Value>| v.map_or("-".to_owned(), |v| v.as_str().map_or(v.to_string(), str::to_owned));
    names
        .into_iter()
        .filter(|n| a.get(n) != b.get(n))
        .map(|n| format!("{n}: {} → {}", shown(a.get(n)), shown(b.get(n))))
        .collect()
}

/// Resolve the transcript policy for a target (newest, plugin-owned per-family table).
pub fn resolve(target: &Target) -> ResolvedPolicy {
    resolve_for(target, crate::rule_set::RuleSet::newest())
}

/// Resolve the transcript policy for a target as the releases of `rule_set` do: the newest
/// table with that set's policy switches applied. ClawHub plugins are assumed installed.
pub fn resolve_for(target: &Target, rule_set: &crate::rule_set::RuleSet) -> ResolvedPolicy {
    resolve_with(target, rule_set, &Installation::Unknown)
}

/// [`resolve_for`] for a known installation: a ClawHub plugin it lacks gives the fallback.
pub fn resolve_with(
    target: &Target,
    rule_set: &crate::rule_set::RuleSet,
    installation: &Installation,
) -> ResolvedPolicy {
    let target = target.normalized();
    let owner = owner::owner(target.provider_str(), target.model_str(), installation);
    let family = family::select(&target, &owner);
    let policy = policy_of(family, &target, rule_set);
    let without_plugin = match &owner {
        Ownership::AssumedClawhub { plugin, .. } => {
            let fallback = family::select_unowned(target.provider_str(), target.api_str(), target.model_str());
            Some(WithoutPlugin {
                plugin: plugin.clone(),
                family: fallback,
                policy: policy_of(fallback, &target, rule_set),
            })
            .filter(|w| w.family != family || w.policy != policy)
        }
        _ => None,
    };
    let no_route = owner::no_route(target.provider_str(), target.api_str());
    ResolvedPolicy {
        family,
        policy,
        target,
        owner,
        without_plugin,
        no_route,
    }
}

/// The flags of `family` for a normalised target under `rule_set`'s switches.
fn policy_of(family: Family, target: &Target, rule_set: &crate::rule_set::RuleSet) -> Policy {
    use crate::rule_set::AppendOnlyContext;
    let mut policy = build::policy_for(family, target);
    match rule_set.switches.append_only_context {
        AppendOnlyContext::Plugins => {}
        AppendOnlyContext::NotOnResponses if family == Family::OpenAIResponses => {
            policy.append_only_runtime_context = Some(false);
        }
        AppendOnlyContext::NotOnResponses => {}
        AppendOnlyContext::Absent => policy.append_only_runtime_context = None,
    }
    if rule_set.switches.legacy_claude_thinking && build::uses_claude_thinking_list(family, target) {
        policy.drop_thinking_blocks = claude::drops_thinking_blocks_legacy(target.model_str());
    }
    policy
}
