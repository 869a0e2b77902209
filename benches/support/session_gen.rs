//! Deterministic generator of a large, realistic OpenClaw JSONL v3 session
//! (OpenClaw's `session-manager-types.ts` entries), shared by `examples/gen_large_session.rs` and `benches/load.rs`.
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
use replaylens::json;
use replaylens::model::json::{Map, Value};

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// Approximate output size in bytes.
    pub bytes: u64,
    /// Approximate number of `message` entries (all roles, the abandoned branch included).
    pub messages: usize,
    /// PRNG seed; the same seed and sizes always give the same file.
    pub seed: u64,
    /// When non-zero, every image is one of this many distinct screenshots (UI-like PNGs of
    /// 1600×900 and retina 2880×1800, all over the default 1200 px limit), as a session of
    /// a browser-driving agent holds: the same few screens sent again and again; the
    /// session also gets long runs of consecutive user turns (a quiet channel).
    pub screenshots: usize,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            bytes: 100_000_000,
            messages: 20_000,
            seed: 0x5EED_0C1A,
            screenshots: 0,
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

#[path = "session_gen/content.rs"]
mod content;
#[path = "session_gen/vocab.rs"]
mod vocab;

use vocab::{PROVIDERS, Rng, TOOLS};

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
    /// The distinct screenshots, base64, made on first use.
    screenshot_pool: Vec<String>,
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
            screenshot_pool: Vec::new(),
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
            if self.config.screenshots > 0 && self.rng.chance(0.002) {
                self.quiet_run()?;
            }
            self.turn()?;
        }
        Ok(())
    }

    /// A run of 50–400 consecutive user turns with no reply (a quiet channel the agent
    /// only listens to), which the Anthropic family merges into one turn.
    fn quiet_run(&mut self) -> io::Result<()> {
        for _ in 0..self.rng.range(50, 400) {
            self.tick(1_000, 60_000);
            let text = self.words(3, 25);
            let user = json!({"message": {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": self.now}});
            self.entry("message", user)?;
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
        m.insert("parentId".into(), parent.map_or(Value::Null, Value::from));
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

fn base64(data: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(data)
}
