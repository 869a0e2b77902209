//! The flags of each family row (the owning plugin's `buildReplayPolicy`, or the fallback without a
//! plugin), overlaid on the default policy.

use super::claude::{drops_thinking_blocks, is_claude_family_id, is_prefix_binding};
use super::predicates::{
    is_anthropic_api, is_openai_responses_api, is_openrouter_mistral_model, is_reasoning_content_model,
};
use super::{DuplicateToolCallIdStyle, Family, Policy, SanitizeMode, Target, ThoughtSignatureOptions, ToolCallIdMode};

/// Build the policy of `family` for a normalised target.
pub(super) fn policy_for(family: Family, t: &Target) -> Policy {
    let (api, model) = (t.api_str(), t.model_str());
    let mut p = Policy::default();
    match family {
        Family::OpenAIResponses => {
            p.sanitize_tool_call_ids = false;
            p.allow_synthetic_tool_results = true;
            // The OpenAI plugin keeps runtime context append-only on Responses (2026.9.6).
            p.append_only_runtime_context = Some(true);
        }
        Family::OpenAICompletions => strict_ids(&mut p, ToolCallIdMode::Strict),
        Family::OpenAI | Family::Default => {}
        Family::OpenAICompatible => openai_compatible(&mut p, api, model, CompatOptions::DEFAULT),
        Family::OpenAICompatibleKeepReasoning => openai_compatible(&mut p, api, model, CompatOptions::KEEP_REASONING),
        Family::ClawRouter => {
            if api == "anthropic-messages" {
                strict_anthropic(&mut p, model, true);
            } else if api == "google-generative-ai" {
                gemini(&mut p);
            } else {
                openai_compatible(&mut p, api, model, CompatOptions::KEEP_REASONING);
            }
        }
        Family::GithubCopilot => {
            if api == "anthropic-messages" {
                // `buildStrictAnthropicReplayPolicy({dropThinkingBlocks: true, sanitizeToolCallIds: false})`.
                strict_anthropic(&mut p, model, false);
                p.sanitize_tool_call_ids = false;
                p.tool_call_id_mode = None;
                p.drop_thinking_blocks = true;
                p.append_only_runtime_context = None;
            }
        }
        Family::MoonshotKimi => openai_compatible(&mut p, api, model, CompatOptions::MOONSHOT),
        Family::UnownedCompletions => openai_compatible(&mut p, api, model, CompatOptions::UNOWNED),
        Family::UnownedResponses => {
            strict_ids(&mut p, ToolCallIdMode::Strict);
            p.allow_synthetic_tool_results = true;
            p.validate_anthropic_turns = is_claude_family_id(model);
        }
        Family::Google | Family::UnownedGoogle => gemini(&mut p),
        Family::Anthropic => strict_anthropic(&mut p, model, true),
        Family::UnownedAnthropic | Family::BedrockConverse => strict_anthropic(&mut p, model, false),
        Family::MiniMax => {
            if is_anthropic_api(api) {
                // The 2026.9.6 MiniMax plugin does not keep native `toolu_` ids.
                strict_anthropic(&mut p, model, false);
            } else {
                openai_compatible(&mut p, api, model, CompatOptions::DEFAULT);
            }
        }
        Family::Mistral => strict_ids(&mut p, ToolCallIdMode::Strict9),
        Family::OpenRouter | Family::OpenRouterAnthropic => passthrough(&mut p, model),
        Family::Ollama => ollama(&mut p, api, model),
    }
    p
}

fn strict_ids(p: &mut Policy, mode: ToolCallIdMode) {
    p.sanitize_tool_call_ids = true;
    p.tool_call_id_mode = Some(mode);
}

/// `buildStrictAnthropicReplayPolicy` plus the Claude model facts (`shouldDropClaudeThinkingBlocks`,
/// `bindsClaudeThinkingPrefix`): old Claude models drop
/// thinking blocks, prefix-binding models are append-only. `native_ids` only for the native
/// Anthropic provider (and MiniMax's Anthropic route), never Bedrock.
fn strict_anthropic(p: &mut Policy, model: &str, native_ids: bool) {
    p.sanitize_mode = SanitizeMode::Full;
    strict_ids(p, ToolCallIdMode::Strict);
    p.preserve_native_anthropic_tool_use_ids = native_ids;
    p.preserve_signatures = true;
    p.repair_tool_use_result_pairing = true;
    p.validate_anthropic_turns = true;
    p.allow_synthetic_tool_results = true;
    p.drop_thinking_blocks = drops_thinking_blocks(model);
    if is_prefix_binding(model) {
        p.append_only_runtime_context = Some(true);
    }
}

/// Whether the family's policy takes `dropThinkingBlocks` from the Claude model list
/// (`strict_anthropic`).
pub(super) fn uses_claude_thinking_list(family: Family, t: &Target) -> bool {
    match family {
        Family::Anthropic | Family::UnownedAnthropic | Family::BedrockConverse => true,
        Family::MiniMax => is_anthropic_api(t.api_str()),
        _ => false,
    }
}

/// `buildGoogleGeminiReplayPolicy`.
fn gemini(p: &mut Policy) {
    p.sanitize_mode = SanitizeMode::Full;
    strict_ids(p, ToolCallIdMode::Strict);
    p.sanitize_thought_signatures = Some(ThoughtSignatureOptions::GEMINI);
    p.repair_tool_use_result_pairing = true;
    p.apply_google_turn_ordering = true;
    p.validate_gemini_turns = true;
    p.validate_anthropic_turns = false;
    p.allow_synthetic_tool_results = true;
    p.append_only_runtime_context = Some(false);
}

/// The OpenRouter plugin (`buildPassthroughGeminiSanitizingReplayPolicy` plus its Mistral rule).
fn passthrough(p: &mut Policy, model: &str) {
    p.apply_google_turn_ordering = false;
    p.validate_gemini_turns = false;
    p.validate_anthropic_turns = false;
    if model.to_ascii_lowercase().contains("gemini") {
        p.sanitize_thought_signatures = Some(ThoughtSignatureOptions::GEMINI);
    }
    if is_openrouter_mistral_model(model) {
        strict_ids(p, ToolCallIdMode::Strict9);
    }
}

/// The bundled Ollama plugin: on its native `ollama` API the OpenAI-compatible chat policy
/// without id sanitization (reasoning dropped, bootstrap turn, Gemini and Anthropic turn
/// validation); on `openai-completions` and Responses APIs the unowned fallback of that API;
/// anything else keeps the defaults.
fn ollama(p: &mut Policy, api: &str, model: &str) {
    if api == "ollama" {
        p.apply_google_turn_ordering = true;
        p.validate_gemini_turns = true;
        p.validate_anthropic_turns = true;
        p.drop_reasoning_from_history = Some(true);
    } else {
        // `buildOpenAICompatibleReplayPolicy(modelApi)`: the helper, not the unowned fallback.
        openai_compatible(p, api, model, CompatOptions::DEFAULT);
    }
}

/// Options of the generic OpenAI-compatible helper.
#[derive(Clone, Copy)]
struct CompatOptions {
    /// `dropReasoningFromHistory` on chat completions (Moonshot opts out).
    drop_reasoning: bool,
    /// `duplicateToolCallIdStyle: "openai"` (Moonshot).
    openai_duplicates: bool,
    /// Sanitize ids on Responses-compatible APIs too (Moonshot: completions only).
    ids_on_responses: bool,
    /// Keep reasoning for reasoning-content models (`kimi-k2.5`, …): the unowned fallback
    /// checks the model, the plugin helper does not.
    model_keeps_reasoning: bool,
}

impl CompatOptions {
    const DEFAULT: CompatOptions = CompatOptions {
        drop_reasoning: true,
        openai_duplicates: false,
        ids_on_responses: true,
        model_keeps_reasoning: false,
    };
    const KEEP_REASONING: CompatOptions = CompatOptions {
        drop_reasoning: false,
        ..CompatOptions::DEFAULT
    };
    const UNOWNED: CompatOptions = CompatOptions {
        model_keeps_reasoning: true,
        ..CompatOptions::DEFAULT
    };
    const MOONSHOT: CompatOptions = CompatOptions {
        drop_reasoning: false,
        openai_duplicates: true,
        ids_on_responses: false,
        model_keeps_reasoning: false,
    };
}

/// `buildOpenAICompatibleReplayPolicy`: `openai-completions` → strict ids, ordering fix, Gemini
/// and Anthropic turn validation, dropReasoningFromHistory (not for reasoning-content models);
/// Responses-compatible → strict ids and synthetic results, no turn validation; any other API →
/// no policy.
fn openai_compatible(p: &mut Policy, api: &str, model: &str, o: CompatOptions) {
    let ids = |p: &mut Policy| {
        strict_ids(p, ToolCallIdMode::Strict);
        if o.openai_duplicates {
            p.duplicate_tool_call_id_style = Some(DuplicateToolCallIdStyle::Openai);
        }
    };
    if api == "openai-completions" {
        ids(p);
        p.apply_google_turn_ordering = true;
        p.validate_gemini_turns = true;
        p.validate_anthropic_turns = true;
        if o.drop_reasoning && !(o.model_keeps_reasoning && is_reasoning_content_model(model)) {
            p.drop_reasoning_from_history = Some(true);
        }
    } else if is_openai_responses_api(api) {
        if o.ids_on_responses {
            ids(p);
        }
        p.allow_synthetic_tool_results = true;
    }
}
