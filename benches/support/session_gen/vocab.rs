//! The generator's deterministic random source and word lists.

/// SplitMix64: small, fast, deterministic.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// Fill `buf` with random bytes.
    pub fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }

    /// `len` random ASCII letters and digits.
    pub fn alnum(&mut self, len: usize) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        (0..len).map(|_| self.pick(A) as char).collect()
    }

    /// `len` random lowercase hex digits.
    pub fn hex(&mut self, len: usize) -> String {
        const H: &[u8] = b"0123456789abcdef";
        (0..len).map(|_| self.pick(H) as char).collect()
    }
}

/// Words for generated prose.
pub const WORDS: &[&str] = &[
    "the",
    "file",
    "config",
    "agent",
    "session",
    "request",
    "value",
    "error",
    "build",
    "test",
    "module",
    "function",
    "returns",
    "should",
    "check",
    "update",
    "branch",
    "commit",
    "provider",
    "model",
    "token",
    "cache",
    "result",
    "output",
    "input",
    "path",
    "workspace",
    "memory",
    "tool",
    "call",
    "after",
    "before",
    "because",
    "with",
    "from",
    "into",
    "which",
    "then",
    "this",
    "that",
    "there",
    "when",
    "where",
    "line",
    "shell",
    "script",
    "deploy",
    "server",
    "client",
    "schema",
    "table",
    "index",
    "query",
    "response",
    "header",
    "stream",
    "buffer",
    "parse",
    "replay",
];

/// Tool names for generated calls.
pub const TOOLS: &[&str] = &[
    "exec",
    "read",
    "write",
    "edit",
    "web_fetch",
    "web_search",
    "browser",
    "memory_search",
];

/// (provider, api, model) triples for model changes.
pub const PROVIDERS: &[(&str, &str, &str)] = &[
    ("anthropic", "anthropic-messages", "claude-sonnet-4-5"),
    ("openai-codex", "openai-codex-responses", "gpt-5.1-codex"),
    ("anthropic", "anthropic-messages", "claude-opus-4-1"),
    ("openai", "openai-responses", "gpt-5.1"),
];
