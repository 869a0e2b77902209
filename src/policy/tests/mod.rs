//! Policy resolution tests: OpenClaw's policy cases (the newest plugin policies where they disagree with
//! the older flat resolver) and the family rows.

use super::*;

mod models;

fn opt(s: &str) -> Option<&str> {
    (!s.is_empty()).then_some(s)
}

fn r(provider: &str, model: &str, api: &str) -> ResolvedPolicy {
    resolve(&Target::new(opt(provider), opt(api), opt(model)))
}

#[test]
fn p1_anthropic_direct() {
    let x = r("anthropic", "claude-opus-4-5", "anthropic-messages");
    assert_eq!(x.family, Family::Anthropic);
    let p = &x.policy;
    assert!(p.sanitize_tool_call_ids);
    assert_eq!(p.tool_call_id_mode, Some(ToolCallIdMode::Strict));
    assert_eq!(p.sanitize_mode, SanitizeMode::Full);
    assert!(p.validate_anthropic_turns && p.allow_synthetic_tool_results && p.preserve_signatures);
    assert!(p.preserve_native_anthropic_tool_use_ids);
    assert!(!p.drop_thinking_blocks, "Opus 4.5 keeps thinking blocks");
}

#[test]
fn p2_google() {
    let x = r("google", "gemini-2.0-flash", "google-generative-ai");
    assert_eq!(x.family, Family::Google);
    let p = &x.policy;
    assert!(p.sanitize_tool_call_ids);
    assert_eq!(p.tool_call_id_mode, Some(ToolCallIdMode::Strict));
    assert_eq!(p.sanitize_thought_signatures, Some(ThoughtSignatureOptions::GEMINI));
    assert!(p.apply_google_turn_ordering && p.validate_gemini_turns && !p.validate_anthropic_turns);
    assert!(p.allow_synthetic_tool_results);
    assert_eq!(p.append_only_runtime_context, Some(false));
}

#[test]
fn p3_p14_mistral_keeps_images_only() {
    // The flat resolver expects sanitizeMode full; the newest Mistral plugin's `buildReplayPolicy` keeps
    // images-only and only adds the strict9 id flags.
    for api in ["", "mistral-conversations"] {
        let x = r("mistral", "mistral-large-latest", api);
        assert_eq!(x.family, Family::Mistral);
        let expected = Policy {
            sanitize_tool_call_ids: true,
            tool_call_id_mode: Some(ToolCallIdMode::Strict9),
            ..Policy::default()
        };
        assert_eq!(x.policy, expected);
    }
}

#[test]
fn p4_openai_plain_api() {
    let x = r("openai", "gpt-4o", "openai");
    assert_eq!(x.family, Family::OpenAI);
    assert_eq!(x.policy, Policy::default());
    assert!(x.policy.repair_tool_use_result_pairing);
}

#[test]
fn p5_p16_moonshot_completions() {
    let x = r("moonshot", "kimi-k2.5", "openai-completions");
    assert_eq!(x.family, Family::MoonshotKimi);
    assert!(x.policy.validate_anthropic_turns);
    let x = r("moonshot", "kimi-k2.6", "openai-completions");
    let p = &x.policy;
    assert!(p.apply_google_turn_ordering && p.validate_gemini_turns && p.validate_anthropic_turns);
    assert!(p.sanitize_tool_call_ids);
    assert_eq!(p.tool_call_id_mode, Some(ToolCallIdMode::Strict));
    assert_eq!(p.duplicate_tool_call_id_style, Some(DuplicateToolCallIdStyle::Openai));
    assert_eq!(p.drop_reasoning_from_history, None);
    assert!(
        !x.policy
            .to_json()
            .as_object()
            .unwrap()
            .contains_key("dropReasoningFromHistory")
    );
}

#[test]
fn moonshot_responses_has_no_id_rewriting() {
    let x = r("moonshotai", "kimi-k2.6", "openai-responses");
    assert_eq!(x.family, Family::MoonshotKimi);
    assert!(!x.policy.sanitize_tool_call_ids);
    assert!(x.policy.allow_synthetic_tool_results);
}

#[test]
fn p6_bedrock_converse() {
    let x = r(
        "amazon-bedrock",
        "us.anthropic.claude-opus-4-6-v1",
        "bedrock-converse-stream",
    );
    assert_eq!(x.family, Family::BedrockConverse);
    let p = &x.policy;
    assert!(p.repair_tool_use_result_pairing && p.validate_anthropic_turns && p.allow_synthetic_tool_results);
    assert!(p.sanitize_tool_call_ids);
    assert_eq!(p.sanitize_mode, SanitizeMode::Full);
    assert!(
        !p.preserve_native_anthropic_tool_use_ids,
        "Bedrock never preserves toolu_ ids"
    );
    assert!(!p.drop_thinking_blocks);
}

#[test]
fn p7_openrouter_not_strict_compat() {
    let x = r("openrouter", "openai/gpt-4.1", "openai-completions");
    assert_eq!(x.family, Family::OpenRouter);
    assert!(!x.policy.validate_anthropic_turns && !x.policy.validate_gemini_turns);
    assert!(!x.policy.sanitize_tool_call_ids);
}

#[test]
fn p8_openrouter_minimax_newest() {
    // Flat P8 detects MiniMax from the model id; the newest OpenRouter plugin has only its
    // Gemini and Mistral rules, so ids stay unsanitized.
    let x = r("openrouter", "minimax/minimax-m2.5", "openai-completions");
    assert_eq!(x.family, Family::OpenRouter);
    assert!(!x.policy.sanitize_tool_call_ids);
    assert_eq!(x.policy.tool_call_id_mode, None);
}

#[test]
fn p9_minimax() {
    // Flat P9 gives strict ids without an API; the newest MiniMax plugin returns no policy for
    // an API that is neither Anthropic nor OpenAI-compatible.
    let x = r("minimax", "minimax-m2.5", "");
    assert_eq!(x.family, Family::MiniMax);
    assert_eq!(x.policy, Policy::default());
    for provider in ["minimax", "minimax-cn"] {
        let x = r(provider, "minimax-m2.5", "openai-completions");
        assert_eq!(x.family, Family::MiniMax);
        assert!(x.policy.sanitize_tool_call_ids);
        assert_eq!(x.policy.tool_call_id_mode, Some(ToolCallIdMode::Strict));
        assert!(x.policy.validate_anthropic_turns);
    }
    let x = r("minimax", "MiniMax-M2.7", "anthropic-messages");
    // The 2026.9.6 MiniMax plugin does not keep native `toolu_` ids (oracle).
    assert!(!x.policy.preserve_native_anthropic_tool_use_ids && x.policy.validate_anthropic_turns);
    assert_eq!(x.policy.sanitize_mode, SanitizeMode::Full);
    assert!(!x.policy.drop_thinking_blocks && !x.policy.is_append_only_runtime_context());
}

#[test]
fn p10_openrouter_gemini() {
    // Flat P10 also expects sanitizeMode full; the newest passthrough plugin leaves images-only.
    let x = r("openrouter", "google/gemini-2.5-pro", "openai-completions");
    assert_eq!(x.family, Family::OpenRouter);
    let p = &x.policy;
    assert_eq!(p.sanitize_thought_signatures, Some(ThoughtSignatureOptions::GEMINI));
    assert_eq!(p.sanitize_mode, SanitizeMode::ImagesOnly);
    assert!(!p.sanitize_tool_call_ids && !p.validate_gemini_turns);
}

#[test]
fn p11_no_provider_responses_is_unowned() {
    // Flat P11 treats an empty provider with an OpenAI API as OpenAI; the newest resolver has no
    // plugin for an empty provider, so the unowned Responses fallback applies.
    let x = r("", "x", "openai-responses");
    assert_eq!(x.family, Family::UnownedResponses);
    let p = &x.policy;
    assert_eq!(p.sanitize_mode, SanitizeMode::ImagesOnly);
    assert!(p.sanitize_tool_call_ids && p.allow_synthetic_tool_results);
    assert!(!p.validate_anthropic_turns);
}

#[test]
fn p12_copilot() {
    // OpenClaw 2026.9.6's Copilot plugin: strict Anthropic without id sanitization and with
    // thinking dropped on `anthropic-messages`; the defaults on every other API (oracle).
    let x = r("github-copilot", "claude-opus-4-6", "anthropic-messages");
    assert_eq!(x.family, Family::GithubCopilot);
    assert!(x.policy.drop_thinking_blocks && x.policy.validate_anthropic_turns);
    assert!(!x.policy.sanitize_tool_call_ids && x.policy.tool_call_id_mode.is_none());
    assert_eq!(x.policy.sanitize_mode, SanitizeMode::Full);
    assert_eq!(
        r("github-copilot", "gpt-5", "openai-responses").policy,
        Policy::default()
    );
    assert_eq!(
        r("github-copilot", "claude-sonnet-4", "openai-completions").policy,
        Policy::default()
    );
}

#[test]
fn p13_p17_openrouter_mistral() {
    // Flat P13 also expects sanitizeMode full; newest: only the strict9 id flags.
    for model in [
        "mistralai/mistral-large",
        "mistralai/devstral-small",
        "openrouter/mistralai/devstral-small",
    ] {
        for api in ["", "openai-completions"] {
            let x = r("openrouter", model, api);
            let p = &x.policy;
            assert!(p.sanitize_tool_call_ids, "{model}");
            assert_eq!(p.tool_call_id_mode, Some(ToolCallIdMode::Strict9));
            assert_eq!(p.sanitize_mode, SanitizeMode::ImagesOnly);
            assert!(!p.validate_anthropic_turns && !p.validate_gemini_turns && !p.apply_google_turn_ordering);
        }
    }
}

#[test]
fn p15_openai_responses() {
    let x = r("openai", "gpt-5.1-codex", "openai-responses");
    assert_eq!(x.family, Family::OpenAIResponses);
    let p = &x.policy;
    assert_eq!(p.sanitize_mode, SanitizeMode::ImagesOnly);
    assert!(!p.sanitize_tool_call_ids && p.allow_synthetic_tool_results && p.repair_tool_use_result_pairing);
    assert!(!p.validate_anthropic_turns && !p.apply_google_turn_ordering);
    let x = r("openai", "gpt-4.1", "openai-completions");
    assert_eq!(x.family, Family::OpenAICompletions);
    assert_eq!(x.policy.tool_call_id_mode, Some(ToolCallIdMode::Strict));
}

#[test]
fn openrouter_anthropic() {
    let x = r("openrouter", "anthropic/claude-sonnet-4-6", "openai-completions");
    assert_eq!(x.family, Family::OpenRouterAnthropic);
    assert!(!x.policy.validate_anthropic_turns && !x.policy.sanitize_tool_call_ids);
}

#[test]
fn unowned_fallbacks() {
    let x = r("my-proxy", "claude-3-7-sonnet-20250219", "anthropic-messages");
    assert_eq!(x.family, Family::UnownedAnthropic);
    assert!(x.policy.drop_thinking_blocks && !x.policy.preserve_native_anthropic_tool_use_ids);
    let x = r("my-proxy", "gemini-2.5-flash", "google-generative-ai");
    assert_eq!(x.family, Family::UnownedGoogle);
    assert!(x.policy.validate_gemini_turns);
    let x = r("local", "qwen3-coder", "openai-completions");
    assert_eq!(x.family, Family::UnownedCompletions);
    assert_eq!(x.policy.drop_reasoning_from_history, Some(true));
    assert!(x.policy.apply_google_turn_ordering && x.policy.validate_gemini_turns);
    // Reasoning-content models keep their reasoning.
    let x = r("local", "moonshotai/kimi-k2-thinking", "openai-completions");
    assert_eq!(x.policy.drop_reasoning_from_history, None);
    // Claude ids on Responses-compatible APIs get Anthropic validation.
    assert!(
        r("proxy", "anthropic/claude-sonnet-4-6", "openai-responses")
            .policy
            .validate_anthropic_turns
    );
    assert!(
        !r("proxy", "claudette-1", "openai-responses")
            .policy
            .validate_anthropic_turns
    );
    // OpenClaw 2026.9.6 has no model-id Mistral detection: Ollama's own plugin policy, and plain
    // strict ids on an unowned chat-completions provider (oracle).
    let x = r("ollama", "devstral:24b", "ollama");
    assert_eq!(x.family, Family::Ollama);
    assert!(!x.policy.sanitize_tool_call_ids);
    assert!(x.policy.validate_anthropic_turns && x.policy.drops_reasoning_from_history());
    let x = r("local", "codestral-latest", "openai-completions");
    assert_eq!(x.family, Family::UnownedCompletions);
    assert_eq!(x.policy.tool_call_id_mode, Some(ToolCallIdMode::Strict));
    assert_eq!(r("", "", "").family, Family::Default);
    assert_eq!(r("custom", "x", "custom-api").policy, Policy::default());
}

#[test]
fn openai_compatible_plugin() {
    let x = r("deepseek", "deepseek-chat", "openai-completions");
    assert_eq!(x.family, Family::OpenAICompatibleKeepReasoning);
    assert!(x.policy.validate_anthropic_turns && !x.policy.drops_reasoning_from_history());
    // The plugin helper drops reasoning whatever the model; the unowned fallback keeps it for
    // reasoning-content models.
    assert!(
        r("xai", "kimi-k2.5", "openai-completions")
            .policy
            .drops_reasoning_from_history()
    );
    assert!(
        !r("custom", "kimi-k2.5", "openai-completions")
            .policy
            .drops_reasoning_from_history()
    );
    // Bundled plugins without a replay hook get the unowned fallback.
    assert_eq!(
        r("vllm", "claude-x", "anthropic-messages").family,
        Family::UnownedAnthropic
    );
    let x = r("xai", "grok-4", "openai-responses");
    assert!(x.policy.sanitize_tool_call_ids && x.policy.allow_synthetic_tool_results);
    assert!(!x.policy.validate_anthropic_turns);
    assert_eq!(r("groq", "llama", "something-else").policy, Policy::default());
}
