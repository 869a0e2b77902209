//! Tool turns of generated transcripts: an assistant turn with tool calls and the results that
//! follow it, paired normally or missing, duplicated, displaced, mismatched, padded, renamed,
//! reordered or stored as an earlier synthetic repair.

use replaylens::json;
use replaylens::model::json::Value;

use super::blocks::{self, Text};
use super::compare::LEGACY_MISSING_TEXT;
use super::generate::Generator;
use super::images::image_block;

impl Generator {
    pub(super) fn tool_turn(&mut self) {
        let origin_responses = self.rng.chance(30);
        let mut content = self.reasoning_prefix(origin_responses);
        if self.rng.chance(30) {
            content.push(blocks::text(&mut self.rng, Text::Phrase));
        }
        // Ids repeat across turns, and now and then within one: OpenClaw refuses a Responses
        // replay with a repeated id inside one turn (invalid_replay_transcript), and replaylens
        // must report the same refusal.
        let earlier = self.used_ids.clone();
        let mut calls: Vec<(String, String)> = Vec::new();
        for n in 0..self.rng.range(1, 3) {
            let mut id = blocks::tool_call_id(&mut self.rng, &earlier);
            if calls.iter().any(|(other, _)| *other == id) && !self.rng.chance(10) {
                id = format!("call_{n}_{}", self.rng.alnum(8));
            }
            let name = blocks::tool_name(&mut self.rng);
            self.used_ids.push(id.clone());
            content.push(blocks::tool_call(&mut self.rng, &id, &name));
            calls.push((id, name));
        }
        if origin_responses && self.rng.chance(20) {
            content.push(blocks::responses_reasoning(&mut self.rng));
        }
        let stop = *self.rng.pick(&[
            "toolUse", "toolUse", "toolUse", "toolUse", "toolUse", "stop", "error", "aborted", "length",
        ]);
        let msg = self.assistant(Value::Array(content.into()), stop);
        self.messages.push(msg);
        let mut results = Vec::new();
        for (id, name) in calls {
            self.results_for(&id, &name, &mut results);
        }
        if results.len() > 1 && self.rng.chance(15) {
            results.reverse();
        }
        self.messages.extend(results);
    }

    fn results_for(&mut self, id: &str, name: &str, out: &mut Vec<Value>) {
        match self.rng.below(100) {
            0..62 => out.push(self.result(id, name)),
            62..70 => {}
            70..75 => {
                out.push(self.result(id, name));
                out.push(self.result(id, name));
            }
            75..81 => {
                let parked = std::mem::take(out);
                self.messages.extend(parked);
                self.user_turn();
                out.push(self.result(id, name));
            }
            81..85 => {
                let other = format!("call_{}", self.rng.alnum(8));
                out.push(self.result(&other, name));
            }
            85..89 => out.push(self.result(&format!(" {id}\t"), name)),
            89..94 => {
                let renamed = match name {
                    "exec" => "bash",
                    "bash" => "exec",
                    "read" => "Read",
                    _ => "write",
                };
                out.push(self.result(id, renamed));
            }
            _ => {
                let mut synthetic = self.result(id, name);
                synthetic["isError"] = json!(true);
                synthetic["content"] = json!([{"type": "text", "text": LEGACY_MISSING_TEXT}]);
                if self.rng.chance(50) {
                    synthetic["details"] = json!({"openclawSyntheticMissingToolResult": true});
                }
                out.push(synthetic);
            }
        }
    }

    pub(super) fn result(&mut self, id: &str, name: &str) -> Value {
        let rng = &mut self.rng;
        let content = match rng.below(12) {
            0 => json!(blocks::phrase(rng)),
            1 => json!([]),
            2 => Value::from(vec![
                json!({"type": "text", "text": blocks::phrase(rng)}),
                image_block(rng),
            ]),
            3 => Value::from(vec![image_block(rng)]),
            4 => json!([{"type": "text", "text": blocks::blank(rng)}]),
            _ => json!([{"type": "text", "text": blocks::phrase(rng)}]),
        };
        // Placed, not interpolated: `json!` would copy a megabyte image through serde_json.
        let mut msg = json!({"role": "toolResult", "toolCallId": id, "toolName": name});
        msg["content"] = content;
        match self.rng.below(10) {
            0 => {}
            1 | 2 => msg["isError"] = json!(true),
            _ => msg["isError"] = json!(false),
        }
        if self.rng.chance(30) {
            msg["details"] = json!({"exitCode": self.rng.below(2), "diff": "-a\n+b"});
        }
        msg["timestamp"] = json!(self.tick());
        self.maybe_result_aliases(&mut msg, id);
        msg
    }
}
