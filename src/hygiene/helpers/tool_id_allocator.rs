//! Tool-call id sanitizing and allocation (OpenClaw's `sanitizeToolCallIdsForCloudCodeAssist`): `sanitizeToolCallId`,
//! `makeUniqueToolId` and the occurrence-aware resolver behind `tool-call-id`.

use std::collections::{HashMap, HashSet, VecDeque};

use sha2::{Digest, Sha256};

use crate::policy::ToolCallIdMode;

/// Length of a `strict9` id (Mistral).
const STRICT9_LEN: usize = 9;
/// Longest `strict` id.
const STRICT_MAX_LEN: usize = 40;

/// The first `n` lowercase hex characters of sha256 of `s` (UTF-8).
pub fn sha256_hex_prefix(s: &str, n: usize) -> String {
    let digest = Sha256::digest(s.as_bytes());
    let mut hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    hex.truncate(n);
    hex
}

/// Whether `s` is `prefix` followed by one or more characters accepted by `ok`.
fn prefixed(s: &str, prefix: &str, ok: impl Fn(char) -> bool) -> bool {
    s.strip_prefix(prefix)
        .is_some_and(|rest| !rest.is_empty() && rest.chars().all(ok))
}

/// A native Anthropic id, `^toolu_[A-Za-z0-9_]+$`.
pub fn is_native_anthropic_id(id: &str) -> bool {
    prefixed(id, "toolu_", |c| c.is_ascii_alphanumeric() || c == '_')
}

/// An OpenAI chat id, `^call_[A-Za-z0-9_-]+$`.
pub fn is_openai_call_id(id: &str) -> bool {
    prefixed(id, "call_", |c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A native Kimi id, `^functions\.[A-Za-z0-9_-]+:\d+$`.
pub fn is_native_kimi_id(id: &str) -> bool {
    let Some(rest) = id.strip_prefix("functions.") else {
        return false;
    };
    let Some((name, n)) = rest.rsplit_once(':') else {
        return false;
    };
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !n.is_empty()
        && n.chars().all(|c| c.is_ascii_digit())
}

/// `sanitizeToolCallId`: one id for a mode. Empty → `defaultid` (strict9) / `defaulttoolid`
/// (strict). strict9 keeps `[A-Za-z0-9]`, takes 9 when at least 9 remain, else the first 9 hex of
/// sha256 of what remains (or of `sanitized`). strict keeps a native Kimi id, else keeps
/// `[A-Za-z0-9]` (`sanitizedtoolid` when nothing remains).
pub fn sanitize_tool_call_id(id: &str, mode: ToolCallIdMode) -> String {
    if id.is_empty() {
        return match mode {
            ToolCallIdMode::Strict9 => "defaultid".to_owned(),
            ToolCallIdMode::Strict => "defaulttoolid".to_owned(),
        };
    }
    let alnum: String = id.chars().filter(char::is_ascii_alphanumeric).collect();
    match mode {
        ToolCallIdMode::Strict9 if alnum.len() >= STRICT9_LEN => alnum[..STRICT9_LEN].to_owned(),
        ToolCallIdMode::Strict9 => sha256_hex_prefix(if alnum.is_empty() { "sanitized" } else { &alnum }, STRICT9_LEN),
        ToolCallIdMode::Strict if is_native_kimi_id(id) => id.to_owned(),
        ToolCallIdMode::Strict if alnum.is_empty() => "sanitizedtoolid".to_owned(),
        ToolCallIdMode::Strict => alnum,
    }
}

/// The first `n` characters of an ASCII id (sanitized ids are always ASCII).
fn head(s: &str, n: usize) -> &str {
    s.get(..n.min(s.len())).unwrap_or(s)
}

/// `makeUniqueToolId`: an id for `seed` that is not in `used`. `timestamp_ms` replaces
/// OpenClaw's clock in the last-resort suffix (`t<timestamp>` / `seed:<timestamp>`), so output
/// stays deterministic.
pub fn make_unique_tool_id(seed: &str, used: &HashSet<String>, mode: ToolCallIdMode, timestamp_ms: i64) -> String {
    match mode {
        ToolCallIdMode::Strict9 => {
            let candidate = sanitize_tool_call_id(seed, mode);
            if !used.contains(&candidate) {
                return candidate;
            }
            (0..1000)
                .map(|i| sha256_hex_prefix(&format!("{seed}:{i}"), STRICT9_LEN))
                .find(|h| !used.contains(h))
                .unwrap_or_else(|| sha256_hex_prefix(&format!("{seed}:{timestamp_ms}"), STRICT9_LEN))
        }
        ToolCallIdMode::Strict => {
            let sanitized = sanitize_tool_call_id(seed, mode);
            let base = head(&sanitized, STRICT_MAX_LEN);
            if !used.contains(base) {
                return base.to_owned();
            }
            let hash = sha256_hex_prefix(seed, 8);
            let candidate = format!("{}{hash}", head(base, STRICT_MAX_LEN - hash.len()));
            if !used.contains(&candidate) {
                return candidate;
            }
            let with_suffix = |suffix: String| format!("{}{suffix}", head(&candidate, STRICT_MAX_LEN - suffix.len()));
            (2..1000)
                .map(|i| with_suffix(format!("x{i}")))
                .find(|c| !used.contains(c))
                .unwrap_or_else(|| with_suffix(format!("t{timestamp_ms}")))
        }
    }
}

/// Options of the resolver, from the policy.
#[derive(Debug, Clone, Copy)]
pub struct AllocatorOptions {
    /// `toolCallIdMode`.
    pub mode: ToolCallIdMode,
    /// `duplicateToolCallIdStyle: "openai"`.
    pub openai_duplicates: bool,
    /// `preserveNativeAnthropicToolUseIds`.
    pub preserve_native_anthropic: bool,
}

/// The occurrence-aware resolver: allocates ids for calls in transcript order and hands them
/// to results FIFO per raw id, so repeated raw ids stay apart.
#[derive(Debug)]
pub struct IdAllocator {
    opts: AllocatorOptions,
    used: HashSet<String>,
    call_seen: HashMap<String, usize>,
    orphan_seen: HashMap<String, usize>,
    pending: HashMap<String, VecDeque<String>>,
}

impl IdAllocator {
    /// A resolver whose `used` set starts with the ids reserved by replay-safe signed turns.
    pub fn new(opts: AllocatorOptions, reserved: HashSet<String>) -> Self {
        Self {
            opts,
            used: reserved,
            call_seen: HashMap::new(),
            orphan_seen: HashMap::new(),
            pending: HashMap::new(),
        }
    }

    fn take(&mut self, id: String) -> String {
        self.used.insert(id.clone());
        id
    }

    fn allocate(&mut self, seed: &str, timestamp_ms: i64) -> String {
        let next = make_unique_tool_id(seed, &self.used, self.opts.mode, timestamp_ms);
        self.take(next)
    }

    /// Whether a raw id may be kept verbatim on its first occurrence: a `call_` id with the
    /// openai duplicate style, a native `toolu_` id with preserveNativeAnthropicToolUseIds.
    fn keeps_first_occurrence(&self, raw: &str) -> bool {
        (self.opts.openai_duplicates && is_openai_call_id(raw))
            || (self.opts.preserve_native_anthropic && is_native_anthropic_id(raw))
    }

    /// The new id of one tool-call occurrence with raw id `raw`.
    pub fn resolve_call(&mut self, raw: &str, timestamp_ms: i64) -> String {
        let n = {
            let seen = self.call_seen.entry(raw.to_owned()).or_insert(0);
            *seen += 1;
            *seen
        };
        let next = if self.opts.openai_duplicates && n > 1 {
            let hit = (0u64..)
                .map(|attempt| format!("call_{}", sha256_hex_prefix(&format!("{raw}:{n}:{attempt}"), 24)))
                .find(|c| !self.used.contains(c))
                .unwrap_or_default();
            self.take(hit)
        } else if n == 1 && !self.used.contains(raw) && self.keeps_first_occurrence(raw) {
            self.take(raw.to_owned())
        } else if n == 1 {
            self.allocate(raw, timestamp_ms)
        } else {
            self.allocate(&format!("{raw}:{n}"), timestamp_ms)
        };
        self.pending.entry(raw.to_owned()).or_default().push_back(next.clone());
        next
    }

    /// Keep the id of a call in a replay-safe signed turn (queued as its own mapping).
    pub fn preserve_call(&mut self, raw: &str) {
        self.used.insert(raw.to_owned());
        self.pending
            .entry(raw.to_owned())
            .or_default()
            .push_back(raw.to_owned());
    }

    /// The new id of a tool result whose primary raw id is `raw`: the next queued call id, or
    /// for an orphan a native `toolu_` id kept once, else `makeUniqueToolId(raw:tool_result:m)`.
    pub fn resolve_result(&mut self, raw: &str, timestamp_ms: i64) -> String {
        if let Some(next) = self.pending.get_mut(raw).and_then(VecDeque::pop_front) {
            return next;
        }
        let m = {
            let seen = self.orphan_seen.entry(raw.to_owned()).or_insert(0);
            *seen += 1;
            *seen
        };
        if m == 1 && self.opts.preserve_native_anthropic && is_native_anthropic_id(raw) && !self.used.contains(raw) {
            return self.take(raw.to_owned());
        }
        self.allocate(&format!("{raw}:tool_result:{m}"), timestamp_ms)
    }
}

#[cfg(test)]
mod tests;
