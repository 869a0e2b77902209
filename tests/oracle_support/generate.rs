//! The seeded random transcript generator: message sequences built to reach every hygiene
//! rule (turn order, thinking and signatures, tool-call ids and names, tool-result pairing,
//! failed turns, silent replies, metadata, mirrors, compaction, provenance, images).

use replaylens::json;
use replaylens::model::json::Value;

use super::blocks::{self, TOOL_NAMES, Text};
use super::images::image_block;
use super::rng::Rng;
use super::targets::TargetSpec;

/// One generated case: the stored messages and an optional tool allow-list.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The message array, as a session would store it.
    pub messages: Vec<Value>,
    /// The `--tools` allow-list, when the case uses one.
    pub tools: Option<Vec<String>>,
}

/// Generate case `index` of a run seeded with `seed`, for `target`.
pub fn generate(seed: u64, index: u64, target: &TargetSpec) -> Generated {
    let mut g = Generator {
        rng: Rng::for_case(seed, index),
        target: target.clone(),
        ts: 1_767_000_000_000,
        used_ids: Vec::new(),
        messages: Vec::new(),
    };
    g.ts += g.rng.below(1_000_000) as u64;
    g.run();
    let tools = g.tools();
    Generated {
        messages: g.messages,
        tools,
    }
}

/// The generator's state while one case is built.
pub(super) struct Generator {
    pub(super) rng: Rng,
    pub(super) target: TargetSpec,
    pub(super) ts: u64,
    pub(super) used_ids: Vec<String>,
    pub(super) messages: Vec<Value>,
}

impl Generator {
    fn run(&mut self) {
        match self.rng.below(100) {
            0..70 => self.user_turn(),
            70..88 => self.assistant_text_turn(),
            88..93 => self.tool_turn(),
            93..97 => self.compaction_summary(),
            _ => self.orphan_result(),
        }
        let steps = if self.rng.chance(12) {
            self.rng.range(12, 30)
        } else {
            self.rng.range(2, 14)
        };
        for _ in 0..steps {
            match self.rng.below(100) {
                0..22 => self.user_turn(),
                22..42 => self.assistant_text_turn(),
                42..70 => self.tool_turn(),
                70..77 => self.failed_turn(),
                77..81 => self.delivery_mirror(),
                81..84 => self.duplicate_mirror(),
                84..87 => self.compaction_summary(),
                87..90 => self.orphan_result(),
                90..93 => self.custom_role(),
                _ => {
                    self.user_turn();
                    self.user_turn();
                }
            }
        }
    }

    pub(super) fn tick(&mut self) -> u64 {
        self.ts += self.rng.range(1, 90_000) as u64;
        self.ts
    }

    fn tools(&mut self) -> Option<Vec<String>> {
        if !self.rng.chance(25) {
            return None;
        }
        let list = TOOL_NAMES[..6]
            .iter()
            .filter(|_| self.rng.chance(60))
            .map(|s| (*s).to_owned())
            .collect();
        Some(list)
    }

    pub(super) fn user_turn(&mut self) {
        let rng = &mut self.rng;
        let content = match rng.below(14) {
            0..4 => json!(blocks::phrase(rng)),
            4 => json!(blocks::blank(rng)),
            5 => json!(blocks::metadata_text(rng)),
            6 | 7 => json!([blocks::text(rng, Text::Phrase)]),
            8 => Value::from(vec![blocks::text(rng, Text::Phrase), image_block(rng)]),
            9 => Value::from(vec![image_block(rng)]),
            10 => json!([blocks::text(rng, Text::Blank)]),
            11 => json!([blocks::text(rng, Text::Metadata)]),
            12 => json!([blocks::text(rng, Text::Metadata), blocks::text(rng, Text::Phrase)]),
            _ => json!([]),
        };
        // Placed, not interpolated: `json!` would copy a megabyte image through serde_json.
        let mut msg = json!({"role": "user"});
        msg["content"] = content;
        if self.rng.chance(6) {
            msg["provenance"] = json!({
                "kind": "inter_session",
                "sourceSessionKey": format!("agent:main:subagent:{}", self.rng.hex(6)),
                "sourceTool": "sessions_send"
            });
        }
        msg["timestamp"] = json!(self.tick());
        self.messages.push(msg);
    }

    fn usage(&mut self) -> Option<Value> {
        match self.rng.below(10) {
            0 => None,
            1 | 2 => Some(json!({
                "input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}
            })),
            3 => Some(json!({})),
            _ => {
                let (input, output) = (self.rng.range(10, 90_000), self.rng.range(1, 4_000));
                Some(json!({
                    "input": input, "output": output, "cacheRead": self.rng.below(50_000), "cacheWrite": 0,
                    "totalTokens": input + output,
                    "cost": {"input": 0.01, "output": 0.02, "cacheRead": 0, "cacheWrite": 0, "total": 0.03}
                }))
            }
        }
    }

    pub(super) fn assistant(&mut self, content: Value, stop: &str) -> Value {
        let origin = self.wide_origin();
        let mut msg = json!({"role": "assistant"});
        msg["content"] = content;
        msg["api"] = json!(origin.api);
        msg["provider"] = json!(origin.provider);
        msg["model"] = json!(origin.model);
        if let Some(usage) = self.usage() {
            msg["usage"] = usage;
        }
        msg["stopReason"] = json!(stop);
        if stop == "error" || (stop == "aborted" && self.rng.chance(50)) {
            let text = *self
                .rng
                .pick(&["529 overloaded_error", "rate limit exceeded", "Request was aborted", ""]);
            msg["errorMessage"] = json!(text);
        }
        msg["timestamp"] = json!(self.tick());
        self.maybe_provider_replay(&mut msg);
        msg
    }

    pub(super) fn reasoning_prefix(&mut self, origin_is_responses: bool) -> Vec<Value> {
        let mut out = Vec::new();
        if origin_is_responses || self.rng.chance(10) {
            if self.rng.chance(60) {
                out.push(blocks::responses_reasoning(&mut self.rng));
            }
        } else if self.rng.chance(45) {
            out.push(blocks::thinking_block(&mut self.rng));
            if self.rng.chance(15) {
                out.push(blocks::thinking_block(&mut self.rng));
            }
        }
        out
    }

    fn assistant_text_turn(&mut self) {
        let responses = self.rng.chance(30);
        let mut content = self.reasoning_prefix(responses);
        let rng = &mut self.rng;
        match rng.below(12) {
            0 | 1 => content.push(blocks::text(rng, Text::NoReply)),
            2 => content.push(blocks::text(rng, Text::Blank)),
            3 => content.push(blocks::text(rng, Text::Metadata)),
            4 => {}
            5 => content.push(blocks::text(
                rng,
                Text::Fixed("[assistant turn failed before producing content]"),
            )),
            _ => {
                for _ in 0..rng.range(1, 2) {
                    content.push(blocks::text(rng, Text::Phrase));
                }
            }
        }
        let stop = *self.rng.pick(&["stop", "stop", "stop", "stop", "length", "error"]);
        let msg = if self.rng.chance(4) {
            let text = content
                .iter()
                .find_map(|b| b.get("text").cloned())
                .unwrap_or(json!("ok"));
            let mut m = self.assistant(json!([]), stop);
            m["content"] = text;
            m
        } else {
            self.assistant(Value::Array(content.into()), stop)
        };
        self.messages.push(msg);
    }

    fn failed_turn(&mut self) {
        let rng = &mut self.rng;
        let content = match rng.below(5) {
            0 | 1 => json!([]),
            2 => json!([blocks::text(rng, Text::Fixed("Partial answ"))]),
            3 => {
                let id = blocks::tool_call_id(rng, &[]);
                json!([{"type": "toolCall", "id": id, "name": "read", "arguments": {}, "partialJson": "{\"pa"}])
            }
            _ => json!([blocks::thinking_block(rng)]),
        };
        let stop = if self.rng.chance(60) { "error" } else { "aborted" };
        let msg = self.assistant(content, stop);
        self.messages.push(msg);
    }

    fn delivery_mirror(&mut self) {
        let text = blocks::phrase(&mut self.rng);
        let mut msg = json!({
            "role": "assistant",
            "content": [{"type": "text", "text": text}],
            "api": "openai-responses",
            "provider": "openclaw",
            "model": "delivery-mirror",
            "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0},
            "stopReason": "stop",
        });
        match self.rng.below(4) {
            0 => {
                msg["provider"] = json!(self.target.provider);
                msg["model"] = json!(self.target.model);
                msg["openclawDeliveryMirror"] = json!({"kind": "channel-final", "channel": "discord"});
            }
            1 => msg["openclawDeliveryMirror"] = json!({"kind": "cron-direct-delivery-context"}),
            2 => msg["model"] = json!("gateway-injected"),
            _ => {}
        }
        msg["timestamp"] = json!(self.tick());
        self.messages.push(msg);
    }

    fn duplicate_mirror(&mut self) {
        let Some(prev) = self.messages.iter().rev().find(|m| m["role"] == "assistant").cloned() else {
            return self.assistant_text_turn();
        };
        let mut copy = prev;
        copy["usage"] = json!({"input": 0, "output": 0, "totalTokens": 0});
        copy["stopReason"] = json!("stop");
        copy["timestamp"] = json!(self.tick());
        self.messages.push(copy);
    }

    fn compaction_summary(&mut self) {
        let msg = json!({
            "role": "compactionSummary",
            "summary": "The user asked to fix the loader; tests were run twice.",
            "tokensBefore": self.rng.range(1_000, 180_000),
            "timestamp": self.tick(),
        });
        self.messages.push(msg);
    }

    fn orphan_result(&mut self) {
        let id = blocks::tool_call_id(&mut self.rng, &self.used_ids);
        let name = blocks::tool_name(&mut self.rng);
        let msg = self.result(&id, &name);
        self.messages.push(msg);
    }

    fn custom_role(&mut self) {
        let ts = self.tick();
        let msg = match self.rng.below(3) {
            0 => {
                json!({"role": "custom", "customType": "note", "content": "remember the port", "display": true, "timestamp": ts})
            }
            1 => {
                json!({"role": "branchSummary", "summary": "Tried the other approach first.", "fromId": "a1b2c3d4", "timestamp": ts})
            }
            _ => {
                json!({"role": "bashExecution", "command": "ls", "output": "src\n", "exitCode": 0, "cancelled": false, "truncated": false, "timestamp": ts})
            }
        };
        self.messages.push(msg);
    }
}
