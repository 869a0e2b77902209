//! Deterministic generator of a large, realistic OpenClaw JSONL v3 session
//! (session-formats §1.3), shared by `examples/gen_large_session.rs` and `benches/load.rs`.
//!
//! The output has a header, `model_change` / `thinking_level_change` / `custom`
//! model-snapshot entries, user turns (some with envelopes and images), assistant turns
//! with signed thinking, text and tool calls (`toolu_…` and `call_…|fc_…` ids), tool
//! results (some 20–200 KB long, some with `details`, some with images, a few missing),
//! failed attempts, usage objects, ISO and ms timestamps, unknown fields and an opaque
//! entry type, one compaction midway and one abandoned sibling branch. PNG images are
//! real (uncompressed-deflate noise); JPEG images are random bytes behind a JFIF header.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use chrono::{DateTime, SecondsFormat};
use serde_json::{Map, Value, json};

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Approximate output size in bytes.
    pub bytes: u64,
    /// Approximate number of `message` entries (all roles, the abandoned branch included).
    pub messages: usize,
    /// PRNG seed; the same seed and sizes always give the same file.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            bytes: 100_000_000,
            messages: 20_000,
            seed: 0x5EED_0C1A,
        }
    }
}

/// What was written.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    /// Bytes written.
    pub bytes: u64,
    /// Lines written (header included).
    pub lines: usize,
    /// `message` entries written.
    pub messages: usize,
    /// Messages on the abandoned branch.
    pub branch_messages: usize,
    /// Image blocks written.
    pub images: usize,
    /// Tool results with 20–200 KB of output.
    pub long_outputs: usize,
    /// Tool calls whose result was left out.
    pub missing_results: usize,
}

/// Write a session to `path` (parent directories are created).
pub fn generate(path: &Path, config: &Config) -> io::Result<Stats> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let file = File::create(path)?;
    let mut g = Gen::new(BufWriter::with_capacity(1 << 20, file), config);
    g.run()?;
    g.out.flush()?;
    Ok(g.stats)
}

/// SplitMix64: small, fast, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }

    fn alnum(&mut self, len: usize) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        (0..len).map(|_| self.pick(A) as char).collect()
    }

    fn hex(&mut self, len: usize) -> String {
        const H: &[u8] = b"0123456789abcdef";
        (0..len).map(|_| self.pick(H) as char).collect()
    }
}

const WORDS: &[&str] = &[
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

const TOOLS: &[&str] = &[
    "exec",
    "read",
    "write",
    "edit",
    "web_fetch",
    "web_search",
    "browser",
    "memory_search",
];

const PROVIDERS: &[(&str, &str, &str)] = &[
    ("anthropic", "anthropic-messages", "claude-sonnet-4-5"),
    ("openai-codex", "openai-codex-responses", "gpt-5.1-codex"),
    ("anthropic", "anthropic-messages", "claude-opus-4-1"),
    ("openai", "openai-responses", "gpt-5.1"),
];

struct Gen<W: Write> {
    out: W,
    rng: Rng,
    config: Config,
    stats: Stats,
    used_ids: HashSet<String>,
    /// Unix ms of the last entry.
    now: i64,
    /// The entry the next main-path entry hangs off.
    parent: Option<String>,
    /// Ids of main-path entries, in order.
    path_ids: Vec<String>,
    provider: usize,
    compacted: bool,
    branched: bool,
    call_counter: u64,
}

impl<W: Write> Gen<W> {
    fn new(out: W, config: &Config) -> Self {
        Self {
            out,
            rng: Rng(config.seed),
            config: *config,
            stats: Stats::default(),
            used_ids: HashSet::new(),
            now: 1_772_352_000_000, // 2026-03-01T08:00:00Z
            parent: None,
            path_ids: Vec::new(),
            provider: 0,
            compacted: false,
            branched: false,
            call_counter: 0,
        }
    }

    fn run(&mut self) -> io::Result<()> {
        let header = json!({
            "type": "session",
            "version": 3,
            "id": format!("{}-{}-4{}-8{}-{}", self.rng.hex(8), self.rng.hex(4), self.rng.hex(3), self.rng.hex(3), self.rng.hex(12)),
            "timestamp": self.iso(),
            "cwd": "/home/user/.openclaw/workspace",
        });
        self.line(&header)?;
        self.switch_model(0)?;
        let level = json!({"thinkingLevel": "medium"});
        self.entry("thinking_level_change", level)?;

        while self.stats.messages < self.config.messages {
            if !self.compacted && self.stats.messages >= self.config.messages / 2 {
                self.compaction()?;
            }
            if !self.branched && self.stats.messages >= self.config.messages * 3 / 10 {
                self.branch()?;
            }
            if self.rng.chance(0.02) {
                let next = (self.provider + 1 + self.rng.below(PROVIDERS.len() as u64 - 1) as usize) % PROVIDERS.len();
                self.switch_model(next)?;
            }
            if self.rng.chance(0.01) {
                let level = self.rng.pick(&["low", "medium", "high", "off"]);
                self.entry("thinking_level_change", json!({"thinkingLevel": level}))?;
            }
            if self.rng.chance(0.005) {
                let data = json!({"host": "gateway-1", "queueDepth": self.rng.below(9), "traceId": self.rng.hex(32)});
                self.entry("openclaw:telemetry", json!({"data": data}))?;
            }
            self.turn()?;
        }
        Ok(())
    }

    /// How far the written bytes lag behind a straight line from 0 to the target.
    fn byte_deficit(&self) -> i64 {
        let progress = self.stats.messages as f64 / self.config.messages.max(1) as f64;
        (self.config.bytes as f64 * progress) as i64 - self.stats.bytes as i64
    }

    fn iso(&self) -> String {
        DateTime::from_timestamp_millis(self.now)
            .expect("timestamp in range")
            .to_rfc3339_opts(SecondsFormat::Millis, true)
    }

    fn tick(&mut self, lo: u64, hi: u64) {
        self.now += self.rng.range(lo, hi) as i64;
    }

    fn new_id(&mut self) -> String {
        loop {
            let id = self.rng.hex(8);
            if self.used_ids.insert(id.clone()) {
                return id;
            }
        }
    }

    fn line(&mut self, v: &Value) -> io::Result<()> {
        let mut buf = serde_json::to_vec(v).map_err(io::Error::other)?;
        buf.push(b'\n');
        self.out.write_all(&buf)?;
        self.stats.bytes += buf.len() as u64;
        self.stats.lines += 1;
        Ok(())
    }

    /// Write a main-path entry of `kind` with `fields` after the base fields.
    fn entry(&mut self, kind: &str, fields: Value) -> io::Result<String> {
        let parent = self.parent.clone();
        let id = self.entry_under(kind, parent, fields)?;
        self.parent = Some(id.clone());
        self.path_ids.push(id.clone());
        Ok(id)
    }

    /// Write an entry under an explicit parent without moving the main path.
    fn entry_under(&mut self, kind: &str, parent: Option<String>, fields: Value) -> io::Result<String> {
        self.tick(5, 400);
        let id = self.new_id();
        let mut m = Map::new();
        m.insert("type".into(), json!(kind));
        m.insert("id".into(), json!(id));
        m.insert("parentId".into(), parent.map_or(Value::Null, Value::String));
        m.insert("timestamp".into(), json!(self.iso()));
        if let Value::Object(extra) = fields {
            m.extend(extra);
        }
        if kind == "message" {
            self.stats.messages += 1;
        }
        self.line(&Value::Object(m))?;
        Ok(id)
    }

    fn switch_model(&mut self, index: usize) -> io::Result<()> {
        self.provider = index;
        let (provider, api, model) = PROVIDERS[index];
        self.entry("model_change", json!({"provider": provider, "modelId": model}))?;
        let data = json!({"timestamp": self.now, "provider": provider, "modelApi": api, "modelId": model});
        self.entry("custom", json!({"customType": "model-snapshot", "data": data}))?;
        Ok(())
    }

    fn words(&mut self, lo: u64, hi: u64) -> String {
        let n = self.rng.range(lo, hi);
        let mut s = String::new();
        for i in 0..n {
            if i > 0 {
                s.push(if self.rng.chance(0.08) { '\n' } else { ' ' });
            }
            s.push_str(self.rng.pick(WORDS));
        }
        s
    }

    /// Tool output text of about `len` bytes: log lines, listings and code.
    fn output_text(&mut self, len: usize) -> String {
        let mut s = String::with_capacity(len + 200);
        while s.len() < len {
            match self.rng.below(4) {
                0 => {
                    let t = self.now / 1000 + self.rng.below(3600) as i64;
                    let lvl = self.rng.pick(&["INFO", "WARN", "DEBUG", "ERROR"]);
                    let w = self.words(4, 14).replace('\n', " ");
                    s.push_str(&format!("{t} [{lvl}] {}: {w}\n", self.rng.pick(WORDS)));
                }
                1 => {
                    let size = self.rng.below(90_000);
                    let name = format!(
                        "{}_{}.{}",
                        self.rng.pick(WORDS),
                        self.rng.pick(WORDS),
                        self.rng.pick(&["rs", "ts", "md", "json"])
                    );
                    s.push_str(&format!("-rw-r--r--  1 user staff {size:>7} Mar  1 08:00 {name}\n"));
                }
                2 => {
                    let indent = "    ".repeat(self.rng.below(3) as usize);
                    let f = self.rng.pick(WORDS);
                    let a = self.rng.pick(WORDS);
                    s.push_str(&format!(
                        "{indent}let {a} = {f}(\"{}\", {})?;\n",
                        self.rng.alnum(6),
                        self.rng.below(1000)
                    ));
                }
                _ => {
                    let w = self.words(3, 10).replace('\n', " ");
                    s.push_str(&format!(
                        "\t\"{w}\": {{\"ok\": true, \"n\": {}}},\n",
                        self.rng.below(100)
                    ));
                }
            }
        }
        s
    }

    fn image_block(&mut self) -> Value {
        self.stats.images += 1;
        let target = self.rng.range(50_000, 500_000) as usize * 3 / 4;
        let (bytes, mime) = if self.rng.chance(0.5) {
            (self.png(target), "image/png")
        } else {
            (self.jpeg_like(target), "image/jpeg")
        };
        json!({"type": "image", "data": base64(&bytes), "mimeType": mime})
    }

    /// A real, decodable RGB PNG of noise, about `target` bytes, stored without compression.
    fn png(&mut self, target: usize) -> Vec<u8> {
        let width = 256u32;
        let row = 1 + 3 * width as usize;
        let height = (target / row).max(1) as u32;
        let mut raw = vec![0u8; row * height as usize];
        for r in raw.chunks_mut(row) {
            r[0] = 0;
            self.rng.fill(&mut r[1..]);
        }
        let mut z = vec![0x78, 0x01];
        let mut chunks = raw.chunks(65_535).peekable();
        while let Some(c) = chunks.next() {
            z.push(u8::from(chunks.peek().is_none()));
            z.extend_from_slice(&(c.len() as u16).to_le_bytes());
            z.extend_from_slice(&(!(c.len() as u16)).to_le_bytes());
            z.extend_from_slice(c);
        }
        z.extend_from_slice(&adler32(&raw).to_be_bytes());
        let mut ihdr = Vec::with_capacity(13);
        ihdr.extend_from_slice(&width.to_be_bytes());
        ihdr.extend_from_slice(&height.to_be_bytes());
        ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        png_chunk(&mut png, b"IHDR", &ihdr);
        png_chunk(&mut png, b"IDAT", &z);
        png_chunk(&mut png, b"IEND", &[]);
        png
    }

    /// Random bytes behind a JFIF header, ending in an EOI marker (not decodable).
    fn jpeg_like(&mut self, target: usize) -> Vec<u8> {
        let mut v = b"\xFF\xD8\xFF\xE0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00".to_vec();
        let start = v.len();
        v.resize(target.max(start + 2), 0);
        self.rng.fill(&mut v[start..]);
        let n = v.len();
        v[n - 2..].copy_from_slice(&[0xFF, 0xD9]);
        v
    }

    fn usage(&mut self) -> Value {
        let input = self.rng.range(2_000, 180_000);
        let output = self.rng.range(20, 4_000);
        let cache_read = self.rng.below(input);
        let cache_write = self.rng.below(3_000);
        let cost = |n: u64, per_m: f64| (n as f64 * per_m / 1e6 * 1e6).round() / 1e6;
        let c = json!({
            "input": cost(input, 3.0),
            "output": cost(output, 15.0),
            "cacheRead": cost(cache_read, 0.3),
            "cacheWrite": cost(cache_write, 3.75),
            "total": cost(input, 3.0) + cost(output, 15.0),
        });
        json!({
            "input": input,
            "output": output,
            "cacheRead": cache_read,
            "cacheWrite": cache_write,
            "totalTokens": input + output + cache_read + cache_write,
            "cost": c,
        })
    }

    fn tool_call_id(&mut self) -> String {
        self.call_counter += 1;
        if PROVIDERS[self.provider].1.starts_with("openai") {
            format!("call_{}|fc_{}", self.rng.alnum(24), self.rng.hex(48))
        } else {
            format!("toolu_01{}", self.rng.alnum(22))
        }
    }

    fn tool_arguments(&mut self, tool: &str) -> Value {
        let file = format!("src/{}/{}.rs", self.rng.pick(WORDS), self.rng.pick(WORDS));
        match tool {
            "exec" => {
                json!({"command": format!("{} {}", self.rng.pick(&["ls -la", "cargo test", "git status", "rg -n"]), self.rng.pick(WORDS)), "timeout": 120})
            }
            "read" => json!({"path": file}),
            "write" => {
                let len = self.rng.range(200, 3_000) as usize;
                json!({"path": file, "content": self.output_text(len)})
            }
            "edit" => json!({"path": file, "oldText": self.words(3, 12), "newText": self.words(3, 12)}),
            "web_fetch" => {
                json!({"url": format!("https://docs.example.org/{}/{}", self.rng.pick(WORDS), self.rng.alnum(8))})
            }
            _ => json!({"query": self.words(2, 8)}),
        }
    }

    fn user_message(&mut self) -> Value {
        let mut text = self.words(5, 80);
        if self.rng.chance(0.3) {
            let sender = json!({"label": "Telegram", "sender": format!("user{}", self.rng.below(100))});
            text =
                format!("Sender (untrusted metadata):\n```json\n{sender}\n```\n\n[Sun 2026-03-08 22:03 GMT+9] {text}");
        }
        let mut content = vec![json!({"type": "text", "text": text})];
        if self.byte_deficit() > 300_000 && self.rng.chance(0.2) {
            content.push(self.image_block());
        }
        let key = format!("run-{}:user", self.rng.hex(12));
        let mut m = json!({"role": "user", "content": content, "timestamp": self.now});
        if self.rng.chance(0.5) {
            m["__openclaw"] = json!({"idempotencyKey": key, "seq": self.stats.messages, "modelPromptProjection": {"version": 1, "text": text}});
            m["turnId"] = json!(self.rng.hex(16));
        }
        json!({"message": m})
    }

    fn assistant_message(&mut self, blocks: Vec<Value>, stop: &str) -> Value {
        let (provider, api, model) = PROVIDERS[self.provider];
        let mut m = json!({
            "role": "assistant",
            "content": blocks,
            "api": api,
            "provider": provider,
            "model": model,
            "usage": self.usage(),
            "stopReason": stop,
            "timestamp": self.now,
        });
        if api.starts_with("openai") {
            m["responseId"] = json!(format!("resp_{}", self.rng.hex(48)));
        }
        if self.rng.chance(0.05) {
            m["diagnostics"] = json!({"latencyMs": self.rng.range(300, 30_000), "retries": self.rng.below(3)});
        }
        json!({"message": m})
    }

    fn thinking_block(&mut self) -> Value {
        let sig_len = self.rng.range(200, 1_600) as usize;
        let mut sig = vec![0u8; sig_len];
        self.rng.fill(&mut sig);
        let mut b = json!({"type": "thinking", "thinking": self.words(10, 120), "thinkingSignature": base64(&sig)});
        if self.rng.chance(0.02) {
            b["redacted"] = json!(true);
        }
        b
    }

    fn text_block(&mut self, lo: u64, hi: u64) -> Value {
        let mut b = json!({"type": "text", "text": self.words(lo, hi)});
        if PROVIDERS[self.provider].1.starts_with("openai") && self.rng.chance(0.5) {
            b["textSignature"] = json!({"v": 1, "id": format!("msg_{}", self.rng.hex(32)), "phase": "final_answer"})
                .to_string()
                .into();
        }
        b
    }

    fn tool_result(&mut self, call_id: &str, tool: &str) -> Value {
        let behind = self.byte_deficit() > 150_000;
        let big = behind && self.rng.chance(0.3);
        let image = (big && (tool == "browser" || self.rng.chance(0.35))) || self.rng.chance(0.002);
        let long = (big && !image) || self.rng.chance(0.002);
        let len = if long {
            self.stats.long_outputs += 1;
            self.rng.range(20_000, 200_000) as usize
        } else {
            self.rng.range(30, 2_500) as usize
        };
        let mut content = vec![json!({"type": "text", "text": self.output_text(len)})];
        if image {
            content.push(self.image_block());
        }
        let is_error = self.rng.chance(0.04);
        let mut m = json!({
            "role": "toolResult",
            "toolCallId": call_id,
            "toolName": tool,
            "content": content,
            "isError": is_error,
            "timestamp": self.now,
        });
        if self.rng.chance(0.3) {
            m["details"] = json!({"exitCode": i32::from(is_error), "durationMs": self.rng.range(5, 90_000), "truncated": long, "cwd": "/home/user/.openclaw/workspace"});
        }
        json!({"message": m})
    }

    /// One user turn and the agent's tool loop until a final answer.
    fn turn(&mut self) -> io::Result<()> {
        self.tick(10_000, 600_000);
        let user = self.user_message();
        self.entry("message", user)?;
        if self.rng.chance(0.03) {
            let (provider, api, model) = PROVIDERS[self.provider];
            let failed = json!({"message": {
                "role": "assistant", "content": [], "api": api, "provider": provider, "model": model,
                "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                          "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                "stopReason": "error", "errorMessage": "529 overloaded_error: Overloaded", "timestamp": self.now,
            }});
            self.entry("message", failed)?;
        }
        let steps = self.rng.below(6);
        for _ in 0..steps {
            self.tick(1_000, 20_000);
            let mut blocks = vec![self.thinking_block()];
            if self.rng.chance(0.4) {
                blocks.push(self.text_block(3, 30));
            }
            let mut calls = Vec::new();
            for _ in 0..self.rng.range(1, 3) {
                let tool = self.rng.pick(TOOLS);
                let id = self.tool_call_id();
                let mut b = json!({"type": "toolCall", "id": id, "name": tool, "arguments": self.tool_arguments(tool)});
                if self.rng.chance(0.02) {
                    b["partialJson"] = json!(b["arguments"].to_string());
                }
                blocks.push(b);
                calls.push((id, tool));
            }
            let msg = self.assistant_message(blocks, "toolUse");
            self.entry("message", msg)?;
            for (id, tool) in calls {
                if self.rng.chance(0.01) {
                    self.stats.missing_results += 1;
                    continue;
                }
                self.tick(50, 30_000);
                let result = self.tool_result(&id, tool);
                self.entry("message", result)?;
            }
        }
        self.tick(1_000, 20_000);
        let mut blocks = Vec::new();
        if self.rng.chance(0.8) {
            blocks.push(self.thinking_block());
        }
        blocks.push(self.text_block(10, 200));
        let stop = if self.rng.chance(0.02) { "length" } else { "stop" };
        let mut msg = self.assistant_message(blocks, stop);
        if self.rng.chance(0.1) {
            msg["x-client"] = json!({"build": "2026.3.1", "channel": "telegram"});
        }
        self.entry("message", msg)?;
        Ok(())
    }

    /// A compaction that keeps the last ~40 main-path entries.
    fn compaction(&mut self) -> io::Result<()> {
        self.compacted = true;
        let keep = self.path_ids.len().saturating_sub(40);
        let first_kept = self.path_ids[keep].clone();
        let fields = json!({
            "summary": format!("## Goal\n{}\n\n## Progress\n{}\n\n## Next steps\n{}", self.words(20, 60), self.words(80, 300), self.words(20, 60)),
            "firstKeptEntryId": first_kept,
            "tokensBefore": self.rng.range(150_000, 190_000),
            "details": {"readFiles": ["src/main.rs", "README.md"], "modifiedFiles": ["src/lib.rs"]},
        });
        self.entry("compaction", fields)?;
        Ok(())
    }

    /// An abandoned sibling subtree off an entry ~10 steps back; the main path then
    /// continues from its current tip, so the subtree is on no active branch.
    fn branch(&mut self) -> io::Result<()> {
        self.branched = true;
        let fork = self.path_ids[self.path_ids.len().saturating_sub(10)].clone();
        let before = self.stats.messages;
        let mut parent = Some(fork);
        for i in 0..12 {
            self.tick(1_000, 30_000);
            let fields = match i % 3 {
                0 => self.user_message(),
                1 => {
                    let blocks = vec![self.thinking_block(), self.text_block(10, 80)];
                    self.assistant_message(blocks, "stop")
                }
                _ => {
                    let id = self.tool_call_id();
                    self.tool_result(&id, "exec")
                }
            };
            let id = self.entry_under("message", parent, fields)?;
            parent = Some(id);
        }
        self.stats.branch_messages = self.stats.messages - before;
        Ok(())
    }
}

fn png_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (n, slot) in table.iter_mut().enumerate() {
        let mut c = n as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        *slot = c;
    }
    !data
        .iter()
        .fold(!0u32, |c, b| table[((c ^ u32::from(*b)) & 0xFF) as usize] ^ (c >> 8))
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(5_552) {
        for x in chunk {
            a += u32::from(*x);
            b += a;
        }
        a %= 65_521;
        b %= 65_521;
    }
    (b << 16) | a
}

fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let n =
            (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        s.push(T[(n >> 18) as usize & 63] as char);
        s.push(T[(n >> 12) as usize & 63] as char);
        s.push(if c.len() > 1 {
            T[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        s.push(if c.len() > 2 { T[n as usize & 63] as char } else { '=' });
    }
    s
}
