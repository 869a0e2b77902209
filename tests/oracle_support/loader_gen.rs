//! Random OpenClaw session files for the loader differential (`tests/oracle_loader.rs`): the
//! layouts OpenClaw's codec reads (v1 without ids, v2, v3, no header), branches and leaf
//! controls, compactions (`firstKeptEntryId` on the branch, off it, or missing), model switches
//! (`model_change` followed by assistant turns on another provider, `model-snapshot` custom
//! entries), delivery mirrors and gateway-injected rows, sessions of mirrors only, and the
//! names OpenClaw gives archived files.

use serde_json::{Value, json};

use super::rng::Rng;

/// One generated session file.
pub struct GenSession {
    /// The file name (archived names included).
    pub name: String,
    /// The file's text.
    pub text: String,
    /// What the generator put in, for the failure listing.
    pub features: Vec<&'static str>,
}

/// (provider, model, api) of the assistant turns.
const MODELS: &[(&str, &str, &str)] = &[
    ("anthropic", "claude-sonnet-4-6", "anthropic-messages"),
    ("openai", "gpt-5.2", "openai-responses"),
    ("google", "gemini-2.5-pro", "google-generative-ai"),
    ("mistral", "devstral-medium-2507", "mistral-conversations"),
    ("openrouter", "anthropic/claude-sonnet-4.6", "openai-completions"),
    ("vllm", "Qwen/Qwen3-Coder-30B-A3B-Instruct", "openai-completions"),
    (
        "amazon-bedrock",
        "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "bedrock-converse-stream",
    ),
];

#[derive(Clone, Copy, PartialEq)]
enum Layout {
    /// `type:"session"` header with `version: 3`, entries with ids.
    V3,
    /// Version 2 header, entries with ids.
    V2,
    /// Version 1 (or no version): no ids; OpenClaw assigns them.
    V1,
    /// Entries with ids and no header.
    Headerless,
}

struct Gen<'r> {
    rng: &'r mut Rng,
    layout: Layout,
    lines: Vec<Value>,
    /// Ids written so far (tree layouts), in order.
    ids: Vec<String>,
    /// The parent of the next entry.
    cursor: Option<String>,
    /// Milliseconds of the next timestamp.
    clock: i64,
    /// Tool calls awaiting a result: (id, name).
    open_calls: Vec<(String, String)>,
    /// Lines that are not JSON, with the number of entries written before each.
    raw: Vec<(usize, String)>,
    features: Vec<&'static str>,
}

impl Gen<'_> {
    fn feature(&mut self, f: &'static str) {
        if !self.features.contains(&f) {
            self.features.push(f);
        }
    }

    fn tick(&mut self) -> (String, i64) {
        self.clock += 1000 + self.rng.below(60_000) as i64;
        let secs = self.clock / 1000;
        let (h, m, s) = ((secs / 3600) % 24, (secs / 60) % 60, secs % 60);
        let day = 1 + (secs / 86_400) % 28;
        (
            format!("2026-11-{day:02}T{h:02}:{m:02}:{s:02}.{:03}Z", self.clock % 1000),
            self.clock,
        )
    }

    /// Append an entry of `kind` with the given fields, placing it in the tree.
    fn push(&mut self, kind: &str, fields: Value) -> Option<String> {
        let (iso, _) = self.tick();
        let mut entry = json!({"type": kind, "timestamp": iso});
        if let (Some(map), Some(extra)) = (entry.as_object_mut(), fields.as_object()) {
            for (k, v) in extra {
                map.insert(k.clone(), v.clone());
            }
        }
        if self.layout == Layout::V1 {
            self.lines.push(entry);
            return None;
        }
        let id = self.rng.hex(8);
        let mut parent = self.cursor.clone();
        if !self.ids.is_empty() && self.rng.chance(8) {
            // A fork: the entry continues an earlier entry, leaving a branch behind.
            parent = Some(self.rng.pick(&self.ids).clone());
            self.feature("branch");
        }
        entry["id"] = json!(id.clone());
        entry["parentId"] = parent.map_or(Value::Null, |p| json!(p));
        self.lines.push(entry);
        self.ids.push(id.clone());
        self.cursor = Some(id.clone());
        Some(id)
    }

    fn message(&mut self, message: Value) -> Option<String> {
        self.push("message", json!({"message": message}))
    }

    fn text(&mut self, words: usize) -> String {
        (0..words.max(1))
            .map(|_| self.rng.alnum_between(2, 8))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn user(&mut self) {
        let (_, ms) = self.tick();
        let text = self.text(5);
        let content = if self.rng.chance(50) {
            json!(text)
        } else {
            json!([{"type": "text", "text": text}])
        };
        self.message(json!({"role": "user", "content": content, "timestamp": ms}));
    }

    fn assistant(&mut self, model: (&str, &str, &str)) {
        let (_, ms) = self.tick();
        let text = self.text(6);
        let mut m = json!({
            "role": "assistant", "provider": model.0, "model": model.1, "api": model.2,
            "stopReason": "stop", "timestamp": ms,
            "usage": {"input": 10, "output": 5, "totalTokens": 15},
        });
        if self.rng.chance(10) {
            self.feature("string-content");
            m["content"] = json!(text);
        } else {
            let mut blocks = vec![json!({"type": "text", "text": text})];
            if self.rng.chance(35) {
                let id = format!("call_{}", self.rng.hex(10));
                let name = self.rng.pick(&["read", "exec", "write"]).to_string();
                blocks.push(json!({"type": "toolCall", "id": id, "name": name, "arguments": {"path": "a.txt"}}));
                m["stopReason"] = json!("toolUse");
                self.open_calls.push((id, name));
            }
            m["content"] = json!(blocks);
        }
        if self.rng.chance(5) {
            self.feature("assistant-without-model");
            if let Some(map) = m.as_object_mut() {
                map.remove("provider");
                map.remove("model");
            }
        }
        self.message(m);
        while let Some((id, name)) = self.open_calls.pop() {
            let (_, ms) = self.tick();
            let out = self.text(3);
            let content = match self.rng.below(10) {
                0 => json!(out),
                1 => json!({"type": "text", "text": out}),
                _ => json!([{"type": "text", "text": out}]),
            };
            self.message(json!({
                "role": "toolResult", "toolCallId": id, "toolName": name, "content": content,
                "isError": false, "timestamp": ms,
            }));
        }
    }

    fn mirror(&mut self) {
        let (_, ms) = self.tick();
        let text = self.text(4);
        self.feature("mirror");
        let model = if self.rng.chance(80) {
            "delivery-mirror"
        } else {
            "gateway-injected"
        };
        self.message(json!({
            "role": "assistant", "provider": "openclaw", "model": model, "api": "openai-responses",
            "content": [{"type": "text", "text": text}], "stopReason": "stop", "timestamp": ms,
            "usage": {"input": 0, "output": 0, "totalTokens": 0},
        }));
    }

    fn model_change(&mut self, model: (&str, &str, &str)) {
        self.feature("model_change");
        self.push("model_change", json!({"provider": model.0, "modelId": model.1}));
    }

    fn model_snapshot(&mut self, model: (&str, &str, &str)) {
        self.feature("model-snapshot");
        let (_, ms) = self.tick();
        self.push(
            "custom",
            json!({"customType": "model-snapshot", "data": {"timestamp": ms, "provider": model.0, "modelApi": model.2, "modelId": model.1}}),
        );
    }

    fn compaction(&mut self) {
        self.feature("compaction");
        let summary = self.text(8);
        let mut fields = json!({"summary": summary, "tokensBefore": 1234});
        if self.layout == Layout::V1 {
            // v1 names the first kept entry by its line index (header included).
            let header = usize::from(self.has_header());
            let idx = header + self.rng.below(self.lines.len().max(1));
            fields["firstKeptEntryIndex"] = json!(idx);
        } else {
            match self.rng.below(10) {
                0 => {}
                1 => fields["firstKeptEntryId"] = json!("not-an-entry"),
                _ if !self.ids.is_empty() => {
                    let back = self.rng.range(1, self.ids.len().min(6));
                    fields["firstKeptEntryId"] = json!(self.ids[self.ids.len() - back].clone());
                }
                _ => {}
            }
        }
        self.push("compaction", fields);
    }

    fn reset(&mut self) {
        self.feature("reset");
        let mut fields = json!({});
        if !self.ids.is_empty() && self.layout != Layout::V1 && self.rng.chance(60) {
            let back = self.rng.range(1, self.ids.len().min(6));
            fields["firstKeptEntryId"] = json!(self.ids[self.ids.len() - back].clone());
        }
        self.push("reset", fields);
    }

    fn has_header(&self) -> bool {
        self.layout != Layout::Headerless
    }

    fn leaf_control(&mut self) {
        if self.layout == Layout::V1 || self.ids.len() < 2 {
            return;
        }
        self.feature("leaf-control");
        let target = self.rng.pick(&self.ids[..self.ids.len() - 1]).clone();
        let id = self.rng.hex(8);
        let (iso, _) = self.tick();
        match self.rng.below(10) {
            0 => {
                self.feature("leaf-control-unknown-target");
                self.lines.push(
                    json!({"type": "leaf", "id": id, "parentId": target, "targetId": "missing", "timestamp": iso}),
                );
            }
            1 => {
                self.feature("leaf-control-null");
                self.lines
                    .push(json!({"type": "leaf", "id": id, "parentId": null, "targetId": null, "timestamp": iso}));
                self.cursor = None;
            }
            _ => {
                self.lines.push(json!({"type": "leaf", "id": id, "parentId": target.clone(), "targetId": target.clone(), "timestamp": iso}));
                self.cursor = Some(target);
            }
        }
    }

    fn other_entry(&mut self) {
        match self.rng.below(12) {
            6 => self.reset(),
            7 if self.layout == Layout::V1 || self.layout == Layout::V2 => {
                // v2 → v3 renames this role to `custom` (customType `hook`).
                self.feature("hookMessage");
                let (_, ms) = self.tick();
                let text = self.text(3);
                self.message(json!({"role": "hookMessage", "content": text, "timestamp": ms}));
            }
            8 if self.layout == Layout::V3 && !self.ids.is_empty() => {
                // Written beside the branch: it never moves the leaf.
                self.feature("side-append");
                let (iso, ms) = self.tick();
                let id = self.rng.hex(8);
                let parent = self.rng.pick(&self.ids).clone();
                let text = self.text(3);
                self.lines.push(
                    json!({"type": "message", "id": id, "parentId": parent, "appendMode": "side", "timestamp": iso,
                    "message": {"role": "user", "content": text, "timestamp": ms}}),
                );
            }
            9 if self.layout == Layout::V3 => {
                // A canonical entry without a parentId field continues the current leaf.
                self.feature("parentless-entry");
                let (iso, ms) = self.tick();
                let id = self.rng.hex(8);
                let text = self.text(3);
                self.lines
                    .push(json!({"type": "message", "id": id.clone(), "timestamp": iso,
                    "message": {"role": "user", "content": text, "timestamp": ms}}));
                self.ids.push(id.clone());
                self.cursor = Some(id);
            }
            10 => {
                self.feature("bashExecution");
                let (_, ms) = self.tick();
                self.message(json!({
                    "role": "bashExecution", "command": "pwd", "output": "/work", "exitCode": 0,
                    "cancelled": false, "truncated": false, "timestamp": ms,
                }));
            }
            11 => {
                self.feature("malformed-line");
                self.raw
                    .push((self.lines.len(), "{\"type\":\"message\",\"id\":".to_owned()));
            }
            0 => {
                let level = *self.rng.pick(&["off", "low", "medium", "high"]);
                self.push("thinking_level_change", json!({"thinkingLevel": level}));
            }
            1 => {
                self.feature("custom_message");
                let text = self.text(4);
                self.push(
                    "custom_message",
                    json!({"customType": "note", "content": text, "display": true}),
                );
            }
            2 if !self.ids.is_empty() => {
                self.feature("branch_summary");
                let from = self.rng.pick(&self.ids).clone();
                let summary = self.text(5);
                self.push("branch_summary", json!({"fromId": from, "summary": summary}));
            }
            3 => {
                self.feature("excludeFromContext");
                let (_, ms) = self.tick();
                self.message(json!({
                    "role": "bashExecution", "command": "ls", "output": "a.txt", "exitCode": 0,
                    "cancelled": false, "truncated": false, "excludeFromContext": true, "timestamp": ms,
                }));
            }
            4 => {
                self.push("label", json!({"targetId": self.cursor.clone(), "label": "x"}));
            }
            _ => {
                self.push("session_info", json!({"name": "a session"}));
            }
        }
    }
}

/// Generate session `index` of a run seeded with `seed`.
pub fn generate(seed: u64, index: u64) -> GenSession {
    let mut rng = Rng::for_case(seed, index);
    let layout = match rng.below(10) {
        0 | 1 => Layout::V1,
        2 => Layout::V2,
        3 => Layout::Headerless,
        _ => Layout::V3,
    };
    let mut g = Gen {
        rng: &mut rng,
        layout,
        lines: Vec::new(),
        ids: Vec::new(),
        cursor: None,
        clock: 1_000_000_000 + index as i64 * 1000,
        open_calls: Vec::new(),
        raw: Vec::new(),
        features: Vec::new(),
    };
    g.feature(match layout {
        Layout::V1 => "v1",
        Layout::V2 => "v2",
        Layout::V3 => "v3",
        Layout::Headerless => "no-header",
    });
    let session_id = format!("{}-{}", g.rng.hex(8), g.rng.hex(4));
    let mirrors_only = g.rng.chance(6);
    let turns = g.rng.range(1, 14);
    let mut model = *g.rng.pick(MODELS);
    if mirrors_only {
        g.feature("mirrors-only");
        for _ in 0..turns.min(4) {
            if g.rng.chance(40) {
                g.user();
            }
            g.mirror();
        }
    } else {
        for turn in 0..turns {
            if turn > 0 && g.rng.chance(15) {
                // A switch recorded as model_change, often followed by turns on yet another
                // model: the stale change must not outrank them.
                let next = *g.rng.pick(MODELS);
                g.model_change(next);
                model = if g.rng.chance(50) { *g.rng.pick(MODELS) } else { next };
            }
            if g.rng.chance(8) {
                let snap = *g.rng.pick(MODELS);
                g.model_snapshot(snap);
            }
            g.user();
            g.assistant(model);
            if g.rng.chance(10) {
                g.mirror();
            }
            if g.rng.chance(25) {
                g.other_entry();
            }
            if turn > 1 && g.rng.chance(8) {
                g.compaction();
            }
            if g.rng.chance(4) {
                g.leaf_control();
            }
        }
        if g.rng.chance(10) {
            let last = *g.rng.pick(MODELS);
            g.model_change(last);
        }
    }
    let (iso, _) = g.tick();
    let header = match layout {
        Layout::V3 => {
            Some(json!({"type": "session", "version": 3, "id": session_id, "timestamp": iso, "cwd": "/work"}))
        }
        Layout::V2 => {
            Some(json!({"type": "session", "version": 2, "id": session_id, "timestamp": iso, "cwd": "/work"}))
        }
        Layout::V1 if g.rng.chance(50) => {
            Some(json!({"type": "session", "id": session_id, "timestamp": iso, "cwd": "/work"}))
        }
        Layout::V1 => {
            Some(json!({"type": "session", "version": 1, "id": session_id, "timestamp": iso, "cwd": "/work"}))
        }
        Layout::Headerless => None,
    };
    let crlf = g.rng.chance(5);
    let eol = if crlf { "\r\n" } else { "\n" };
    if crlf {
        g.feature("crlf");
    }
    let mut text = String::new();
    if let Some(h) = &header {
        text.push_str(&h.to_string());
        text.push_str(eol);
    }
    for (i, line) in g.lines.iter().enumerate() {
        for (_, raw) in g.raw.iter().filter(|(at, _)| *at == i) {
            text.push_str(raw);
            text.push_str(eol);
        }
        text.push_str(&line.to_string());
        text.push_str(eol);
    }
    let features = std::mem::take(&mut g.features);
    let mut features = features;
    let name = match rng.below(10) {
        0 => {
            features.push("archived-reset");
            format!("{session_id}.jsonl.reset.2026-11-0{}T10-00-00.000Z", 1 + index % 9)
        }
        1 => {
            features.push("archived-deleted");
            format!("{session_id}.jsonl.deleted.2026-11-0{}T10-00-00.000Z", 1 + index % 9)
        }
        2 => {
            features.push("checkpoint");
            format!("{session_id}.checkpoint.{}-{}.jsonl", rng.hex(8), rng.hex(4))
        }
        _ => format!("{session_id}.jsonl"),
    };
    GenSession { name, text, features }
}
