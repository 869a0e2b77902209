//! Claude model-id facts the policy needs (OpenClaw's `shouldDropClaudeThinkingBlocks`,
//! `bindsClaudeThinkingPrefix`): which models keep thinking blocks in
//! history, and which are prefix-binding.
//!
//! Ids are parsed into whole version components, never matched as prefixes: `claude-opus-50`
//! is not Opus 5, and `claude-sonnet-4-60` is not Sonnet 4.6. Both spellings of a Claude id are
//! understood: the current `claude-<name>-<major>[-<minor>]` and the legacy
//! `claude-<major>[-<minor>]-<name>`. A dated suffix (eight digits, e.g. `-20251101`), a
//! provider prefix (`us.anthropic.`, `anthropic/`) and a deployment suffix (`-v1:0`, `@2025…`)
//! are allowed around the version.

/// Characters that separate the components of a model id.
fn is_sep(c: char) -> bool {
    matches!(c, '-' | '.' | '/' | ':' | '_' | '@')
}

/// A Claude version parsed from a model id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaudeVersion {
    /// Model name (`opus`, `sonnet`, `haiku`, `fable`, …) when the id names one.
    pub name: Option<String>,
    /// Major version (a single digit).
    pub major: u32,
    /// Minor version (a single digit) when present.
    pub minor: Option<u32>,
}

/// Byte offset just past a `claude` component of `id` (lowercase), if any. The component must
/// start at the beginning or after a separator and be followed by a separator or the end.
fn claude_component_end(id: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(pos) = id[from..].find("claude") {
        let start = from + pos;
        let end = start + "claude".len();
        let before_ok = id[..start].chars().next_back().is_none_or(is_sep);
        let after_ok = id[end..].chars().next().is_none_or(is_sep);
        if before_ok && after_ok {
            return Some(end);
        }
        from = end;
    }
    None
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn all_alpha(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphabetic())
}

/// A single-digit version component.
fn digit(s: &str) -> Option<u32> {
    if s.len() == 1 { s.parse().ok() } else { None }
}

/// An eight-digit date component such as `20251101`.
fn is_date(s: &str) -> bool {
    s.len() == 8 && all_digits(s)
}

/// Parse the Claude version of a model id. `None` when the id names no Claude model or its
/// version is malformed (a multi-digit major or minor such as `claude-opus-50`,
/// `claude-sonnet-4-60`).
pub fn parse_claude_version(model: &str) -> Option<ClaudeVersion> {
    let id = model.trim().to_ascii_lowercase();
    let end = claude_component_end(&id)?;
    let comps: Vec<&str> = id[end..].split(is_sep).filter(|c| !c.is_empty()).collect();
    let mut it = comps.into_iter().peekable();
    let first = it.next()?;
    let (mut name, major) = if all_alpha(first) {
        (Some(first.to_owned()), digit(it.next().filter(|c| all_digits(c))?)?)
    } else if all_digits(first) {
        (None, digit(first)?)
    } else {
        return None;
    };
    let mut minor = None;
    if let Some(next) = it.peek().copied()
        && all_digits(next)
    {
        it.next();
        if is_date(next) {
            return Some(ClaudeVersion { name, major, minor });
        }
        minor = Some(digit(next)?);
    }
    match it.peek().copied() {
        // After the minor only a date may follow as a number: `claude-opus-4-5-1` is malformed.
        Some(next) if all_digits(next) && !is_date(next) => return None,
        // Legacy spelling: the name follows the version (`claude-3-7-sonnet`).
        Some(next) if name.is_none() && all_alpha(next) => name = Some(next.to_owned()),
        _ => {}
    }
    Some(ClaudeVersion { name, major, minor })
}

/// Whether the id mentions Claude at all (lowercase substring test, as OpenClaw does).
pub fn mentions_claude(model: &str) -> bool {
    model.to_ascii_lowercase().contains("claude")
}

/// Claude models that keep thinking blocks of older turns in context natively: Opus 4.5 and
/// later 4.x, every 4.6+ model, and every model of generation 5 or later. Sonnet 4.5 and
/// Haiku 4.5 do not (OpenClaw's policy tests list them as dropping).
pub fn keeps_thinking_blocks(model: &str) -> bool {
    match parse_claude_version(model) {
        Some(v) if v.major >= 5 => true,
        Some(v) if v.major == 4 => match v.minor {
            Some(m) if m >= 6 => true,
            Some(5) => v.name.as_deref() == Some("opus"),
            _ => false,
        },
        _ => false,
    }
}

/// `dropThinkingBlocks` for an Anthropic-family policy in OpenClaw up to 2026.7
/// (`shouldPreserveThinkingBlocks`): a Claude id keeps its thinking blocks when it contains
/// `fable-5`, `opus-4`, `sonnet-4` or `haiku-4`, or matches `claude-[5-9]` or `claude-\d{2,}`.
pub fn drops_thinking_blocks_legacy(model: &str) -> bool {
    let id = model.to_lowercase();
    if !id.contains("claude") {
        return false;
    }
    let keeps = ["fable-5", "opus-4", "sonnet-4", "haiku-4"]
        .iter()
        .any(|k| id.contains(k))
        || id.match_indices("claude-").any(|(at, m)| {
            let digits = id[at + m.len()..].bytes().take_while(u8::is_ascii_digit).count();
            let first = id.as_bytes().get(at + m.len()).copied().unwrap_or(0);
            digits >= 2 || (digits == 1 && (b'5'..=b'9').contains(&first))
        });
    !keeps
}

/// `dropThinkingBlocks` for an Anthropic-family policy: true for a Claude id that does not keep
/// thinking blocks (older or malformed versions). Non-Claude ids (`amazon.nova-pro-v1`) never drop.
pub fn drops_thinking_blocks(model: &str) -> bool {
    mentions_claude(model) && !keeps_thinking_blocks(model)
}

/// OpenClaw's `bindsClaudeThinkingPrefix`: Claude Opus 5.5 (also the `opus-5-5` alias) and
/// Fable 5.1, in any provider-prefixed, dated or versioned form
/// (`us.anthropic.claude-fable-5-1-v1:0`). They get `appendOnlyRuntimeContext: true` on
/// Anthropic-family policies.
pub fn is_prefix_binding(model: &str) -> bool {
    crate::openclaw::claude_model::binds_thinking_prefix(Some(model))
}

/// OpenClaw's `isClaudeFamilyModelId`, the `(?:^|[./:_-])claude(?:$|[./:_-])` test (Claude-family ids on
/// Responses-compatible APIs get Anthropic turn validation).
pub fn is_claude_family_id(model: &str) -> bool {
    let sep = |c: char| matches!(c, '.' | '/' | ':' | '_' | '-');
    let id = model.to_ascii_lowercase();
    id.match_indices("claude").any(|(start, m)| {
        let end = start + m.len();
        id[..start].chars().next_back().is_none_or(sep) && id[end..].chars().next().is_none_or(sep)
    })
}
