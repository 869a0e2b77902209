//! Claude model facts (OpenClaw's `shouldDropClaudeThinkingBlocks`, `bindsClaudeThinkingPrefix`), provider
//! aliases, presets and JSON shape.

use super::super::claude::{drops_thinking_blocks, is_claude_family_id, is_prefix_binding, keeps_thinking_blocks};
use super::super::*;
use super::r;

#[test]
fn provider_ids_are_trimmed_and_lowercased_and_aliases_reach_plugins() {
    // OpenClaw 2026.9.6's `normalizeProviderId` only trims and lowercases.
    for (raw, want) in [
        ("Z-AI", "z-ai"),
        (" Bedrock ", "bedrock"),
        ("MoonshotAI", "moonshotai"),
        ("Anthropic", "anthropic"),
    ] {
        assert_eq!(predicates::normalize_provider_id(raw), want);
        let x = resolve(&Target::new(Some(raw), None, None));
        assert_eq!(x.target.provider.as_deref(), Some(want));
    }
    // Aliases the release resolves: to the plugin, whose registration decides the row.
    assert_eq!(
        r("claude-cli", "claude-sonnet-4-6", "anthropic-messages").family,
        Family::Anthropic
    );
    assert_eq!(r("X-AI", "grok-4", "openai-responses").family, Family::OpenAICompatible);
    assert_eq!(
        r("azure-openai-responses", "gpt-5.1", "openai-completions").family,
        Family::OpenAICompletions
    );
    assert_eq!(
        r("minimax-portal-cn", "MiniMax-M2.7", "anthropic-messages").family,
        Family::MiniMax
    );
    // Ids only the flat resolver knew get the unowned fallback from the release.
    assert_eq!(
        r("opencode-go-auth", "kimi-k2.6", "openai-completions").family,
        Family::UnownedCompletions
    );
    // ClawHub plugins' ids: their plugin, assumed installed, with the assumption said.
    let kimi = r("kimi-coding", "kimi-for-coding", "openai-completions");
    assert_eq!(kimi.family, Family::MoonshotKimi);
    let said = kimi.assumption().expect("an assumption");
    assert!(said.starts_with("assumes the ClawHub plugin `kimi` is installed; without it: the unowned fallback (unowned-openai-completions) applies"), "{said}");
    assert_eq!(
        r("aws-bedrock", "anthropic.claude-opus-4-6-v1:0", "").family,
        Family::BedrockConverse
    );
    let plain = resolve_with(
        &Target::new(Some("kimi-coding"), Some("openai-completions"), Some("kimi-for-coding")),
        crate::rule_set::RuleSet::newest(),
        &Installation::plain(),
    );
    assert_eq!((plain.family, plain.assumption()), (Family::UnownedCompletions, None));
    let blank = resolve(&Target::new(Some("  "), Some(" "), Some("")));
    assert_eq!(blank.target, Target::default());
}

#[test]
fn native_anthropic_ids_only_on_anthropic_provider() {
    assert!(
        r("anthropic", "claude-sonnet-4-6", "anthropic-messages")
            .policy
            .preserve_native_anthropic_tool_use_ids
    );
    assert!(
        !r(
            "amazon-bedrock",
            "us.anthropic.claude-sonnet-4-6-v1:0",
            "bedrock-converse-stream"
        )
        .policy
        .preserve_native_anthropic_tool_use_ids
    );
    assert!(
        !r("x", "claude-sonnet-4-6", "anthropic-messages")
            .policy
            .preserve_native_anthropic_tool_use_ids
    );
}

#[test]
fn append_only_defaults_by_api() {
    // OpenClaw 2026.9.6 (the oracle) leaves it off on chat completions and Ollama; only the
    // OpenAI plugin's Responses policy and prefix-binding Claude models turn it on.
    for api in ["openai-completions", "ollama"] {
        assert!(
            !r("local", "llama3", api).policy.is_append_only_runtime_context(),
            "{api}"
        );
    }
    assert!(
        r("openai", "gpt-5", "openai-responses")
            .policy
            .is_append_only_runtime_context()
    );
    assert!(
        !r("openai", "gpt-4.1", "openai-completions")
            .policy
            .is_append_only_runtime_context()
    );
    assert_eq!(
        r("anthropic", "claude-sonnet-4-6", "anthropic-messages")
            .policy
            .append_only_runtime_context,
        None
    );
}

const PREFIX_BINDING: [&str; 9] = [
    "claude-fable-5-1",
    "claude-opus-5-5",
    "opus-5-5",
    "anthropic/claude-opus-5.5",
    "us.anthropic.claude-fable-5-1-v1:0",
    "anthropic.claude-fable-5-1-v1:0",
    "claude-fable-5-1-20260301",
    "anthropic/claude-fable-5-1",
    "CLAUDE-FABLE-5-1",
];
const NOT_PREFIX_BINDING: [&str; 10] = [
    "claude-fable-5",
    "claude-mythos-5-1",
    "claude-mythos-5",
    "claude-opus-5",
    "claude-sonnet-5",
    "claude-opus-4-8",
    "claude-sonnet-4-6",
    "claude-haiku-4-5",
    "MiniMax-M2.7",
    "claude-fable-5-10",
];

#[test]
fn prefix_binding_models() {
    for m in PREFIX_BINDING {
        assert!(is_prefix_binding(m), "{m}");
        for (provider, api) in [
            ("anthropic", "anthropic-messages"),
            ("amazon-bedrock", "bedrock-converse-stream"),
            ("custom", "anthropic-messages"),
            ("minimax", "anthropic-messages"),
        ] {
            assert_eq!(
                r(provider, m, api).policy.append_only_runtime_context,
                Some(true),
                "{provider} {m}"
            );
        }
    }
    for m in NOT_PREFIX_BINDING {
        assert!(!is_prefix_binding(m), "{m}");
        let p = r("anthropic", m, "anthropic-messages").policy;
        assert!(!p.is_append_only_runtime_context(), "{m}");
    }
    assert!(
        !r("minimax", "MiniMax-M2.7", "anthropic-messages")
            .policy
            .is_append_only_runtime_context()
    );
}

const KEEP_THINKING: [&str; 8] = [
    "claude-fable-5",
    "claude-opus-4-5-20251101",
    "claude-opus-4-6",
    "claude-sonnet-4-6",
    "claude-opus-5",
    "claude-sonnet-5",
    "claude-mythos-5",
    "us.anthropic.claude-opus-5-20260101-v1:0",
];
const DROP_THINKING: [&str; 9] = [
    "claude-opus-4-1",
    "claude-sonnet-4-5-20250929",
    "claude-haiku-4-5-20251001",
    "claude-3-7-sonnet-20250219",
    "claude-3-5-sonnet-20240620",
    "claude-3-opus-20240229",
    "claude-opus-50",
    "claude-sonnet-50",
    "claude-sonnet-4-60",
];

#[test]
fn thinking_block_lists() {
    for m in KEEP_THINKING {
        assert!(keeps_thinking_blocks(m) && !drops_thinking_blocks(m), "{m}");
        assert!(
            !r("anthropic", m, "anthropic-messages").policy.drop_thinking_blocks,
            "{m}"
        );
        assert!(
            !r("amazon-bedrock", m, "bedrock-converse-stream")
                .policy
                .drop_thinking_blocks,
            "{m}"
        );
    }
    for m in DROP_THINKING {
        assert!(drops_thinking_blocks(m), "{m}");
        assert!(
            r("anthropic", m, "anthropic-messages").policy.drop_thinking_blocks,
            "{m}"
        );
        assert!(
            r("amazon-bedrock", m, "bedrock-converse-stream")
                .policy
                .drop_thinking_blocks,
            "{m}"
        );
    }
    for m in ["amazon.nova-pro-v1", "amazon.nova-pro-v1:0", "MiniMax-M2.7"] {
        assert!(!drops_thinking_blocks(m), "{m}");
        assert!(
            !r("amazon-bedrock", m, "bedrock-converse-stream")
                .policy
                .drop_thinking_blocks,
            "{m}"
        );
    }
    // Other spellings: Vertex `@date`, dotted versions, malformed continuations.
    assert!(drops_thinking_blocks("claude-opus-4-1@20250805"));
    assert!(keeps_thinking_blocks("anthropic/claude-sonnet-4.6"));
    assert!(drops_thinking_blocks("claude-opus-4-5-1"));
    assert!(drops_thinking_blocks("claude-sonnet-4-20250514"));
}

#[test]
fn claude_family_regex() {
    for yes in [
        "claude",
        "claude-sonnet-4-6",
        "anthropic/claude-opus-5",
        "us.anthropic.claude-x",
        "a_claude",
        "x:claude",
    ] {
        assert!(is_claude_family_id(yes), "{yes}");
    }
    for no in ["claudette", "myclaude-1", "claude2", "", "gpt-5"] {
        assert!(!is_claude_family_id(no), "{no}");
    }
}

#[test]
fn presets_resolve_to_their_family() {
    for &f in Family::all() {
        assert_eq!(resolve(&preset(f)).family, f, "{}", f.id());
        assert_eq!(Family::from_id(f.id()), Some(f));
        assert!(!f.label().is_empty());
    }
    let ids: std::collections::BTreeSet<_> = Family::all().iter().map(Family::id).collect();
    assert_eq!(ids.len(), Family::all().len());
}

#[test]
fn json_is_camel_case_with_absent_flags_omitted() {
    let x = r("mistral", "mistral-large-latest", "mistral-conversations");
    let text = serde_json::to_string(&x.to_json()).unwrap();
    assert_eq!(
        text,
        concat!(
            r#"{"sanitizeMode":"images-only","sanitizeToolCallIds":true,"toolCallIdMode":"strict9","#,
            r#""preserveNativeAnthropicToolUseIds":false,"repairToolUseResultPairing":true,"#,
            r#""preserveSignatures":false,"dropThinkingBlocks":false,"applyGoogleTurnOrdering":false,"#,
            r#""validateGeminiTurns":false,"validateAnthropicTurns":false,"allowSyntheticToolResults":false,"#,
            r#""family":"mistral"}"#
        )
    );
    let g = r("google", "gemini-2.5-pro", "google-generative-ai").policy.to_json();
    assert_eq!(
        g["sanitizeThoughtSignatures"],
        crate::json!({"allowBase64Only": true, "includeCamelCase": true})
    );
    assert_eq!(g["appendOnlyRuntimeContext"], crate::json!(false));
    let m = r("moonshot", "kimi-k2.6", "openai-completions").policy.to_json();
    assert_eq!(m["duplicateToolCallIdStyle"], "openai");
    assert!(m.get("appendOnlyRuntimeContext").is_none());
    for absent in [
        "sanitizeThinkingSignatures",
        "inHistorySystemUpdates",
        "dropReasoningFromHistory",
    ] {
        assert!(m.get(absent).is_none(), "{absent}");
    }
    // Round trip.
    let back: Policy = crate::model::json::from_value(m).unwrap();
    assert_eq!(back, r("moonshot", "kimi-k2.6", "openai-completions").policy);
    let t = serde_json::to_string(&Target::new(Some("openai"), None, Some("gpt-5"))).unwrap();
    assert_eq!(t, r#"{"provider":"openai","model":"gpt-5"}"#);
}
