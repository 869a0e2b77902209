//! Claude model identities as OpenClaw's transports resolve them (`@openclaw/ai`,
//! `packages/llm-core/src/model-contracts/anthropic.ts`), and the model-bound thinking replay
//! mode built on them (`resolveModelBoundThinkingReplayMode`, `anthropic-model-contract.ts`).
//!
//! These are regular-expression tests on a normalized id, not the version parser of
//! `policy::claude`: the transports match `claude-opus-5` anywhere after a dash, so
//! `us-anthropic-claude-opus-5-v1:0` is Opus 5, and they must be reproduced as written.

use crate::openclaw::js::{is_js_whitespace, js_trim};

/// Every run of characters matching `separator` replaced by one `-` (`.replace(/[…]+/g, "-")`).
pub(crate) fn dash_runs(s: &str, separator: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_run = false;
    for c in s.chars() {
        if separator(c) {
            if !in_run {
                out.push('-');
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

/// `normalizeClaudeModelId`, also the model contract's `normalizeModelId`: trim, lowercase,
/// drop `anthropic/`, runs of `.`, `_` and whitespace become `-`.
pub fn normalize_claude_model_id(id: Option<&str>) -> String {
    let normalized = js_trim(id.unwrap_or("")).to_lowercase();
    let normalized = normalized.strip_prefix("anthropic/").unwrap_or(&normalized);
    dash_runs(normalized, |c| c == '.' || c == '_' || is_js_whitespace(c))
}

/// Byte offsets of every `claude-` at the start of `s` or after `-` / `/`
/// (`/(?:^|[-/])claude-/`).
fn claude_starts(s: &str) -> impl Iterator<Item = usize> + '_ {
    s.match_indices("claude-")
        .map(|(start, _)| start)
        .filter(|&start| start == 0 || matches!(s.as_bytes()[start - 1], b'-' | b'/'))
}

/// `resolveClaudeModelIdentity`: the `claude-…` tail of the normalized id (the first
/// `claude-` at the start or after `-` / `/` with no `/` after it), else the normalized id.
pub fn claude_model_identity(id: Option<&str>) -> String {
    let normalized = normalize_claude_model_id(id);
    let tail = claude_starts(&normalized).find(|&start| {
        let rest = &normalized[start + "claude-".len()..];
        !rest.is_empty() && !rest.contains('/')
    });
    match tail {
        Some(start) => normalized[start..].to_owned(),
        None => normalized,
    }
}

/// Whether `c` may follow a matched token: `(?=$|[^a-z0-9])`.
fn token_end_ok(rest: &str) -> bool {
    rest.chars()
        .next()
        .is_none_or(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit()))
}

/// `/(?:^|-)TOKEN(?=$|[^a-z0-9])/.exec(s)`: the byte offset of `TOKEN` in the first match.
fn find_token(s: &str, token: &str) -> Option<usize> {
    s.match_indices(token)
        .map(|(start, _)| start)
        .find(|&start| (start == 0 || s.as_bytes()[start - 1] == b'-') && token_end_ok(&s[start + token.len()..]))
}

/// `/^TOKEN(?=$|[^a-z0-9])/.test(s)`.
fn starts_with_token(s: &str, token: &str) -> bool {
    s.strip_prefix(token).is_some_and(token_end_ok)
}

/// The identity tail after `(?:^|-)TOKEN`, when the identity names that family.
fn family_identity(id: Option<&str>, token: &str) -> Option<String> {
    let normalized = claude_model_identity(id);
    find_token(&normalized, token).map(|start| normalized[start..].to_owned())
}

/// `resolveClaudeFable5ModelIdentity`.
pub fn fable5(id: Option<&str>) -> Option<String> {
    family_identity(id, "claude-fable-5")
}

/// `resolveClaudeMythos5ModelIdentity`.
pub fn mythos5(id: Option<&str>) -> Option<String> {
    family_identity(id, "claude-mythos-5")
}

/// `resolveClaudeSonnet5ModelIdentity`.
pub fn sonnet5(id: Option<&str>) -> Option<String> {
    family_identity(id, "claude-sonnet-5")
}

/// `resolveClaudeOpus55ModelIdentity`.
pub fn opus55(id: Option<&str>) -> Option<String> {
    let normalized = claude_model_identity(id);
    if normalized == "opus-5-5" {
        return Some("claude-opus-5-5".to_owned());
    }
    starts_with_token(&normalized, "claude-opus-5-5").then_some(normalized)
}

/// `resolveClaudeOpus5ModelIdentity` (Opus 5.5 included).
pub fn opus5(id: Option<&str>) -> Option<String> {
    if let Some(identity) = opus55(id) {
        return Some(identity);
    }
    let normalized = claude_model_identity(id);
    if normalized == "opus" || normalized == "opus-5" {
        return Some("claude-opus-5".to_owned());
    }
    family_identity(id, "claude-opus-5")
}

/// `bindsClaudeThinkingPrefix`: Opus 5.5 and Fable 5.1 bind thinking to the exact prefix.
pub fn binds_thinking_prefix(id: Option<&str>) -> bool {
    opus55(id).is_some() || starts_with_token(&claude_model_identity(id), "claude-fable-5-1")
}

/// `requiresClaudeMandatoryAdaptiveThinking`.
pub fn requires_mandatory_adaptive_thinking(id: Option<&str>) -> bool {
    opus55(id).is_some()
        || fable5(id).is_some()
        || mythos5(id).is_some()
        || find_token(&claude_model_identity(id), "claude-mythos-preview").is_some()
}

/// `normalizeApi` of the model contract: trimmed, lowercased, the transport alias folded.
fn normalize_api(api: Option<&str>) -> String {
    let api = js_trim(api.unwrap_or("")).to_lowercase();
    if api == "openclaw-anthropic-messages-transport" {
        "anthropic-messages".to_owned()
    } else {
        api
    }
}

/// `requiresClaudeAdaptiveThinking`: an Anthropic Messages model that must think adaptively.
pub fn requires_adaptive_thinking(api: &str, id: &str) -> bool {
    normalize_api(Some(api)) == "anthropic-messages" && requires_mandatory_adaptive_thinking(Some(id))
}

/// One side of a replay-mode decision.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReplayRef<'a> {
    /// `provider`
    pub provider: Option<&'a str>,
    /// `api`
    pub api: Option<&'a str>,
    /// `model` (source) or `id` (target)
    pub model_id: Option<&'a str>,
    /// The source message's `responseModel` (never set on the target).
    pub response_model_id: Option<&'a str>,
    /// The target model's `params.canonicalModelId` (never set on a source: OpenClaw passes
    /// no params for it), which names the Claude identity in place of the id.
    pub canonical_model_id: Option<&'a str>,
}

/// `hasConcreteResponseModel`.
fn has_concrete_response_model(r: &ReplayRef<'_>) -> bool {
    let response = normalize_claude_model_id(r.response_model_id);
    !response.is_empty() && response != normalize_claude_model_id(r.model_id)
}

/// `resolveReplayModelBoundIdentity`.
fn model_bound_identity(r: &ReplayRef<'_>) -> Option<String> {
    if normalize_api(r.api) != "anthropic-messages" {
        return None;
    }
    // `resolveClaudeModelIdentity` reads `params.canonicalModelId` before the id.
    let id = if has_concrete_response_model(r) {
        r.response_model_id
    } else {
        r.canonical_model_id.or(r.model_id)
    };
    if let Some(i) = fable5(id) {
        return Some(format!("fable:{i}"));
    }
    if let Some(i) = mythos5(id) {
        return Some(format!("mythos:{i}"));
    }
    if let Some(i) = opus5(id) {
        return Some(format!("opus:{i}"));
    }
    sonnet5(id).map(|i| format!("sonnet:{i}"))
}

/// How the thinking of an earlier turn may be replayed to the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThinkingReplayMode {
    /// Neither side is a model-bound Claude: the usual same-model test decides.
    Default,
    /// Treat the turn as the target's own: keep signed thinking, ids and text as they are.
    Preserve,
    /// Drop every thinking block of the turn.
    Drop,
}

/// `resolveModelBoundThinkingReplayMode`.
pub fn thinking_replay_mode(source: &ReplayRef<'_>, target: &ReplayRef<'_>) -> ThinkingReplayMode {
    let source_api = normalize_api(source.api);
    let target_api = normalize_api(target.api);
    let source_identity = model_bound_identity(source);
    let target_identity = model_bound_identity(target);
    let provider = |p: Option<&str>| js_trim(p.unwrap_or("")).to_lowercase();
    let same_route = provider(source.provider) == provider(target.provider)
        && source_api == target_api
        && normalize_claude_model_id(source.model_id) == normalize_claude_model_id(target.model_id);
    if source_identity.is_none() && target_identity.is_none() {
        return ThinkingReplayMode::Default;
    }
    let reads_prior = target_identity
        .as_deref()
        .and_then(|t| t.strip_prefix("fable:"))
        .is_some_and(|t| starts_with_token(t, "claude-fable-5-1"));
    if source_api == target_api && reads_prior && is_claude_replay_source(source) {
        return ThinkingReplayMode::Preserve;
    }
    if source_identity.is_none() && !has_concrete_response_model(source) && target_identity.is_some() && same_route {
        return ThinkingReplayMode::Preserve;
    }
    if source_api == target_api && source_identity == target_identity {
        ThinkingReplayMode::Preserve
    } else {
        ThinkingReplayMode::Drop
    }
}

/// `isClaudeReplaySource`: `/(?:^|[-/])claude-/` on the (response) model id.
fn is_claude_replay_source(r: &ReplayRef<'_>) -> bool {
    let id = if has_concrete_response_model(r) {
        r.response_model_id
    } else {
        r.model_id
    };
    claude_starts(&normalize_claude_model_id(id)).next().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_match_the_transport_regexes() {
        assert_eq!(
            claude_model_identity(Some("us.anthropic.claude-opus-5-v1:0")),
            "claude-opus-5-v1:0"
        );
        assert_eq!(
            claude_model_identity(Some(" Anthropic/Claude_Sonnet 4.6 ")),
            "claude-sonnet-4-6"
        );
        assert_eq!(claude_model_identity(Some("gpt-5")), "gpt-5");
        assert_eq!(opus5(Some("claude-opus-5")).as_deref(), Some("claude-opus-5"));
        assert_eq!(opus5(Some("opus")).as_deref(), Some("claude-opus-5"));
        assert_eq!(opus5(Some("claude-opus-50")), None);
        assert_eq!(
            opus5(Some("claude-opus-5-5-20260101")).as_deref(),
            Some("claude-opus-5-5-20260101")
        );
        assert_eq!(
            sonnet5(Some("bedrock/us.anthropic.claude-sonnet-5")).as_deref(),
            Some("claude-sonnet-5")
        );
        assert_eq!(fable5(Some("claude-fable-5-1")).as_deref(), Some("claude-fable-5-1"));
        assert!(binds_thinking_prefix(Some("claude-fable-5-1")));
        assert!(!binds_thinking_prefix(Some("claude-fable-5")));
        assert!(binds_thinking_prefix(Some("claude-opus-5.5")));
        assert!(requires_adaptive_thinking(
            "anthropic-messages",
            "claude-mythos-preview"
        ));
        assert!(!requires_adaptive_thinking("openai-completions", "claude-fable-5"));
        assert!(!requires_adaptive_thinking("anthropic-messages", "claude-sonnet-4-6"));
    }

    fn r<'a>(provider: &'a str, api: &'a str, model: &'a str) -> ReplayRef<'a> {
        ReplayRef {
            provider: Some(provider),
            api: Some(api),
            model_id: Some(model),
            response_model_id: None,
            canonical_model_id: None,
        }
    }

    #[test]
    fn replay_modes() {
        use ThinkingReplayMode::*;
        let am = "anthropic-messages";
        for (source, target, mode) in [
            (
                ("anthropic", am, "claude-sonnet-4-6"),
                ("anthropic", am, "claude-opus-4-7"),
                Default,
            ),
            (
                ("anthropic", am, "claude-opus-5"),
                ("openrouter", am, "anthropic/claude-opus-5"),
                Preserve,
            ),
            (
                ("anthropic", am, "claude-sonnet-4-6"),
                ("anthropic", am, "claude-opus-5"),
                Drop,
            ),
            (
                ("anthropic", am, "claude-opus-5"),
                ("anthropic", am, "claude-fable-5-1"),
                Preserve,
            ),
            (
                ("openai", "openai-responses", "gpt-5"),
                ("anthropic", am, "claude-fable-5-1"),
                Drop,
            ),
        ] {
            let (source, target) = (r(source.0, source.1, source.2), r(target.0, target.1, target.2));
            assert_eq!(thinking_replay_mode(&source, &target), mode, "{source:?} → {target:?}");
        }
    }

    /// A configured model whose `params.canonicalModelId` names a model-bound Claude (a gateway
    /// id `gpt-5.1` serving `claude-opus-5-5`) is that Claude to the replay mode: thinking of
    /// another model on the route is dropped, as OpenClaw's `resolveClaudeModelIdentity` reads it.
    #[test]
    fn the_target_canonical_model_id_names_its_claude_identity() {
        let am = "anthropic-messages";
        let source = r("my-gateway", am, "other-model");
        let plain = r("my-gateway", am, "gpt-5.1");
        assert_eq!(thinking_replay_mode(&source, &plain), ThinkingReplayMode::Default);
        let canonical = ReplayRef {
            canonical_model_id: Some("claude-opus-5-5"),
            ..plain
        };
        assert_eq!(thinking_replay_mode(&source, &canonical), ThinkingReplayMode::Drop);
        let own = r("my-gateway", am, "gpt-5.1");
        assert_eq!(thinking_replay_mode(&own, &canonical), ThinkingReplayMode::Preserve);
    }
}
