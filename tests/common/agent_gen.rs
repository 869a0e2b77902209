//! Generated Claude Code 2.1.x sessions and Codex rollouts, and the invariant every loader
//! must keep on them: each tool result the file holds on the main conversation reaches the
//! replay projection, and no result is synthesized for an id the file answers.

use std::collections::HashSet;
use std::path::Path;

use replaylens::hygiene::ReplayOptions;
use replaylens::json;
use replaylens::lint::lint;
use replaylens::load::{LoadOptions, load_path};
use replaylens::model::json::Value;
use replaylens::model::{Role, Session};
use replaylens::policy::Target;
use replaylens::replay::{effective_target, replay};
use replaylens::wire::of_replay::stored_payload;

/// A small deterministic generator (xorshift64*), seeded by the caller.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value; 0 is moved off the fixed point).
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    /// The next value below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }

    /// True with probability `pct`/100.
    pub fn chance(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }

    /// A value in `lo..=hi`.
    pub fn between(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// Shuffle in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A generated session file: its lines, and the tool-call ids whose results are on the
/// conversation that is sent (main thread, after the last compaction).
#[derive(Debug, Default)]
pub struct Generated {
    /// The JSONL lines.
    pub lines: Vec<Value>,
    /// Ids whose result line the loader must carry into the projection.
    pub expected: Vec<String>,
    /// Ids answered anywhere in the file (sub-agents and before compaction included).
    pub answered: HashSet<String>,
    /// Queued prompts typed on the sent conversation.
    pub queued: Vec<String>,
}

struct Claude<'r> {
    rng: &'r mut Rng,
    out: Generated,
    next: usize,
    /// The line the next main-thread line hangs from.
    tip: Option<String>,
    clock: usize,
}

impl Claude<'_> {
    fn id(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{:04}", self.next)
    }

    fn push(&mut self, ty: &str, parent: Option<&str>, sidechain: bool, extra: Value) -> String {
        let uuid = self.id("u-");
        self.clock += 1;
        let mut v = json!({"type": ty, "uuid": uuid, "parentUuid": parent, "sessionId": "gen",
            "isSidechain": sidechain, "cwd": "/w", "version": "2.1.86", "userType": "external",
            "timestamp": format!("2026-04-01T10:{:02}:{:02}.000Z", self.clock / 60 % 60, self.clock % 60)});
        for (k, x) in extra.as_object().unwrap() {
            v[k.as_str()] = x.clone();
        }
        self.out.lines.push(v);
        uuid
    }

    fn user_text(&mut self, parent: Option<&str>, sidechain: bool, text: &str) -> String {
        self.push(
            "user",
            parent,
            sidechain,
            json!({"message": {"role": "user", "content": text}}),
        )
    }

    fn assistant(
        &mut self,
        parent: Option<&str>,
        sidechain: bool,
        msg: &str,
        block: Value,
        stop: Option<&str>,
    ) -> String {
        self.push(
            "assistant",
            parent,
            sidechain,
            json!({"message": {"id": msg, "type": "message", "role": "assistant", "model": "claude-opus-4-6",
                "content": [block], "stop_reason": stop, "usage": {"input_tokens": 3, "output_tokens": 9}}}),
        )
    }

    fn result(&mut self, parent: &str, sidechain: bool, call: &str) -> String {
        self.out.answered.insert(call.to_owned());
        self.push(
            "user",
            Some(parent),
            sidechain,
            json!({"message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": call, "content": format!("output of {call}")}]},
                "toolUseResult": {"stdout": "…"}}),
        )
    }

    fn call_block(&mut self) -> (String, Value) {
        let id = self.id("toolu_01Gen");
        let name = ["Read", "Bash", "Grep", "Glob"][self.rng.below(4)];
        (
            id.clone(),
            json!({"type": "tool_use", "id": id, "name": name, "input": {"path": "x"}}),
        )
    }

    /// One API response with `n` tool calls, written as Claude Code 2.1.x does: an optional
    /// thinking line, then one assistant line per call, each hanging from the line before;
    /// then the results, each hanging from its own call's line, in a random order (or, when
    /// `streamed`, each result written right after its call and the next call hanging from it).
    fn tool_round(&mut self, sidechain: bool, parent: Option<String>, n: usize, streamed: bool) -> Option<String> {
        let msg = self.id("msg_01Gen");
        let mut tip = parent;
        if self.rng.chance(50) {
            let t = json!({"type": "thinking", "thinking": "plan", "signature": "EqQBCkYIBxgCKkB"});
            tip = Some(self.assistant(tip.as_deref(), sidechain, &msg, t, None));
        }
        let mut calls = Vec::new();
        for k in 0..n {
            let (id, block) = self.call_block();
            let stop = (k + 1 == n).then_some("tool_use");
            let line = self.assistant(tip.as_deref(), sidechain, &msg, block, stop);
            tip = Some(line.clone());
            if streamed {
                tip = Some(self.result(&line, sidechain, &id));
            }
            calls.push((id, line));
        }
        if !streamed {
            self.rng.shuffle(&mut calls);
            for (id, line) in &calls {
                tip = Some(self.result(line, sidechain, id));
                if !sidechain && self.rng.chance(15) {
                    let hook = json!({"attachment": {"type": "hook_success", "hookName": "PostToolUse:Read",
                        "hookEvent": "PostToolUse", "toolUseID": id, "content": "", "stdout": "", "stderr": "", "exitCode": 0}});
                    tip = Some(self.push("attachment", tip.as_deref(), false, hook));
                }
            }
        }
        if !sidechain {
            self.out.expected.extend(calls.into_iter().map(|(id, _)| id));
        }
        tip
    }

    fn sidechain(&mut self) {
        let root = self.user_text(None, true, "sub-agent task");
        let n = self.rng.between(1, 4);
        let tip = self.tool_round(true, Some(root), n, false);
        let msg = self.id("msg_01Side");
        self.assistant(
            tip.as_deref(),
            true,
            &msg,
            json!({"type": "text", "text": "sub-agent done"}),
            Some("end_turn"),
        );
    }

    fn compaction(&mut self) {
        let logical = self.tip.clone();
        let boundary = self.push(
            "system",
            None,
            false,
            json!({"subtype": "compact_boundary", "content": "Conversation compacted", "logicalParentUuid": logical,
                "compactMetadata": {"trigger": "auto", "preTokens": 1000}}),
        );
        self.out.expected.clear();
        self.out.queued.clear();
        let summary = self.push(
            "user",
            Some(&boundary),
            false,
            json!({"isCompactSummary": true, "message": {"role": "user", "content": "Summary of the earlier conversation."}}),
        );
        self.tip = Some(summary);
    }

    fn queued(&mut self) {
        let text = format!("also check {}", self.id("item-"));
        let att = json!({"attachment": {"type": "queued_command", "prompt": text, "commandMode": "prompt"}});
        self.tip = Some(self.push("attachment", self.tip.clone().as_deref(), false, att));
        self.out.queued.push(text);
    }
}

/// A Claude Code 2.1.x session: parallel groups of 2–8 calls, single and streamed calls,
/// sub-agent (`isSidechain`) lines, compactions, queued prompts and hook attachments.
pub fn claude_session(rng: &mut Rng) -> Generated {
    let mut g = Claude {
        rng,
        out: Generated::default(),
        next: 0,
        tip: None,
        clock: 0,
    };
    g.tip = Some(g.user_text(None, false, "start"));
    let rounds = g.rng.between(1, 6);
    for r in 0..rounds {
        match g.rng.below(10) {
            0 => g.compaction(),
            1 => g.sidechain(),
            2 | 3 => g.queued(),
            _ => {}
        }
        let n = if g.rng.chance(70) { g.rng.between(2, 8) } else { 1 };
        let streamed = n > 1 && g.rng.chance(20);
        let parent = g.tip.clone();
        g.tip = g.tool_round(false, parent, n, streamed);
        let ended_on_results = r + 1 == rounds && g.rng.chance(30);
        if !ended_on_results {
            let msg = g.id("msg_01Txt");
            let tip = g.tip.clone();
            g.tip = Some(g.assistant(
                tip.as_deref(),
                false,
                &msg,
                json!({"type": "text", "text": "ok"}),
                Some("end_turn"),
            ));
            if r + 1 < rounds {
                let tip = g.tip.clone();
                g.tip = Some(g.user_text(tip.as_deref(), false, "next"));
            }
        }
    }
    if g.rng.chance(20) {
        g.sidechain();
    }
    g.out
}

/// A Codex rollout: function calls, custom tool calls and local shell calls, answered in a
/// random order after each turn's calls.
pub fn codex_rollout(rng: &mut Rng) -> Generated {
    let mut out = Generated::default();
    let mut clock = 0;
    let mut line = |out: &mut Generated, ty: &str, payload: Value| {
        clock += 1;
        out.lines.push(
            json!({"timestamp": format!("2026-04-15T18:{:02}:{:02}.000Z", clock / 60 % 60, clock % 60),
            "type": ty, "payload": payload}),
        );
    };
    line(
        &mut out,
        "session_meta",
        json!({"id": "019d0000-0000-7000-8000-000000000001", "timestamp": "2026-04-15T18:00:00.000Z",
            "cwd": "/w", "originator": "codex_cli_rs", "cli_version": "0.119.0", "model_provider": "openai"}),
    );
    let mut next = 0;
    for _ in 0..rng.between(1, 5) {
        line(
            &mut out,
            "turn_context",
            json!({"cwd": "/w", "model": "gpt-5.4", "approval_policy": "never"}),
        );
        line(
            &mut out,
            "response_item",
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]}),
        );
        let mut calls = Vec::new();
        for _ in 0..rng.between(1, 8) {
            next += 1;
            let id = format!("call_gen{next:04}");
            let (call, output) = match rng.below(3) {
                0 => (
                    json!({"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"ls\"]}", "call_id": id}),
                    json!({"type": "function_call_output", "call_id": id, "output": format!("out {id}")}),
                ),
                1 => (
                    json!({"type": "custom_tool_call", "status": "completed", "call_id": id, "name": "apply_patch", "input": "*** Begin Patch\n*** End Patch"}),
                    json!({"type": "custom_tool_call_output", "call_id": id, "output": format!("patched {id}")}),
                ),
                _ => (
                    json!({"type": "local_shell_call", "id": format!("lsh_{next}"), "call_id": id, "status": "completed",
                        "action": {"type": "exec", "command": ["ls"]}}),
                    json!({"type": "function_call_output", "call_id": id, "output": format!("listed {id}")}),
                ),
            };
            line(&mut out, "response_item", call);
            calls.push((id, output));
        }
        rng.shuffle(&mut calls);
        for (id, output) in calls {
            line(&mut out, "response_item", output);
            out.answered.insert(id.clone());
            out.expected.push(id);
        }
        line(
            &mut out,
            "response_item",
            json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]}),
        );
    }
    out
}

/// Write lines to a temporary `.jsonl` file.
pub fn write(lines: &[Value]) -> tempfile::NamedTempFile {
    use std::io::Write;
    let mut file = tempfile::Builder::new().suffix(".jsonl").tempfile().unwrap();
    for l in lines {
        writeln!(file, "{l}").unwrap();
    }
    file.flush().unwrap();
    file
}

/// What the replay of a loaded session did with tool results.
#[derive(Debug, Default)]
pub struct ResultsSeen {
    /// `toolCallId`s of results carried from the file into the projection.
    pub carried: HashSet<String>,
    /// `toolCallId`s of results the rules synthesized (no stored source; the synthetic marker
    /// or not).
    pub synthesized: Vec<String>,
    /// Texts of the user turns in the projection.
    pub user_texts: Vec<String>,
    /// Constraint ids the stored transcript, sent as is, breaks (`lint --stage stored`).
    pub stored_findings: Vec<&'static str>,
}

/// The id a file gave a call: the Codex loader names a call that has an item id as
/// `call_id|item_id`, as OpenClaw stores Responses calls.
fn file_id(id: &str) -> &str {
    id.split('|').next().unwrap_or(id)
}

/// Replay `session` for its own target and collect what happened to tool results.
pub fn results_seen(session: &Session) -> ResultsSeen {
    let r = replay(session, &Target::default(), &ReplayOptions::default());
    let stored = &r.transcript.messages;
    let mut seen = ResultsSeen::default();
    let target = effective_target(&Target::default(), &r.transcript.model);
    if let Ok(payload) = stored_payload(stored, &target) {
        seen.stored_findings = lint(&payload).iter().map(|f| f.constraint).collect();
    }
    for m in &r.projection.messages {
        let msg = &m.message;
        match msg.role() {
            Role::ToolResult if m.source.is_empty() => {
                seen.synthesized
                    .push(file_id(msg.tool_call_id().unwrap_or_default()).to_owned());
            }
            Role::ToolResult => {
                for &s in &m.source {
                    if let Some(id) = stored[s].message.tool_call_id() {
                        seen.carried.insert(file_id(id).to_owned());
                    }
                }
            }
            Role::User => {
                if let Some(Value::Array(blocks)) = msg.get("content") {
                    for b in blocks.iter() {
                        if let Some(t) = b.get("text").and_then(Value::as_str) {
                            seen.user_texts.push(t.to_owned());
                        }
                    }
                } else if let Some(Value::String(t)) = msg.get("content") {
                    seen.user_texts.push(t.to_string());
                }
            }
            _ => {}
        }
    }
    seen
}

/// Load a file with the default options.
pub fn load(path: &Path) -> Session {
    load_path(path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Ids the file answers on its main conversation: `tool_result` blocks of Claude Code user
/// lines that are not sub-agent lines (all lines when the file is one sub-agent's), and Codex
/// `*_output` items' `call_id`s.
pub fn answered_in_file(path: &Path) -> HashSet<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .collect();
    let main_only = lines.iter().any(|l| {
        matches!(l.get("type").and_then(Value::as_str), Some("user" | "assistant"))
            && l.get("isSidechain").and_then(Value::as_bool) != Some(true)
    });
    let mut ids = HashSet::new();
    for l in &lines {
        if main_only && l.get("isSidechain").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        let blocks = l
            .get("message")
            .and_then(|m| m.get("content"))
            .and_then(Value::as_array);
        for b in blocks.into_iter().flatten() {
            if b.get("type").and_then(Value::as_str) == Some("tool_result")
                && let Some(id) = b.get("tool_use_id").and_then(Value::as_str)
            {
                ids.insert(id.to_owned());
            }
        }
        let payload = l.get("payload").unwrap_or(l);
        if payload
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.ends_with("_output"))
            && let Some(id) = payload.get("call_id").and_then(Value::as_str)
        {
            ids.insert(id.to_owned());
        }
    }
    ids
}
