//! What a reduced session records about the case it reproduces, so that `lint small.jsonl`
//! alone replays it for the same target and rule set.
//!
//! - OpenClaw JSONL: the entries OpenClaw itself appends when the model changes, chained
//!   after the active branch's leaf: a `model_change` (`SessionManager.appendModelChange`:
//!   provider and model id, which `buildSessionContext` reads as the session's model) and a
//!   `model-snapshot` custom entry (`appendModelSnapshot` in `replay-history.ts`: provider,
//!   model API and model id), then a `custom` entry of type [`RECORD_TYPE`] naming the rule
//!   set. Custom entries are extension state: OpenClaw keeps them and never sends them.
//! - Claude Code and Codex: their formats cannot name another provider's model, so one line
//!   of type [`RECORD_TYPE`] (a type both agents skip) names the target and the rule set; the
//!   loaders read it as the session's own target ([`crate::load`]).
//! - A bare message array has no place for it: the side file's command reproduces the case.

use serde_json::{Value, json};

use crate::policy::Target;
use crate::rule_set::RuleSet;

use crate::load::session_text::Shape;

pub use crate::load::reproducer::RECORD_TYPE;

/// What the reduced session records.
#[derive(Debug, Clone)]
pub struct Stamp<'a> {
    /// The target the case reproduces for.
    pub target: &'a Target,
    /// The rule set it reproduces with.
    pub rule_set: &'static RuleSet,
    /// What it reproduces, in words.
    pub keeps: String,
}

impl Stamp<'_> {
    /// The record's data: the target, the rule set and, for a set that is not the default,
    /// the last OpenClaw release it covers (read back as the release the session records).
    fn record(&self) -> Value {
        let mut data = json!({
            "provider": self.target.provider,
            "modelApi": self.target.api,
            "modelId": self.target.model,
            "ruleSet": self.rule_set.name,
            "keeps": self.keeps,
        });
        if !self.rule_set.is_newest() {
            data["openclawRelease"] = json!(self.rule_set.last.to_string());
        }
        data
    }
}

/// The lines to append to a reduced session of shape `shape` whose rendered text is `text`
/// and whose active branch ends at `leaf`; empty for a bare message array.
pub fn lines(shape: Shape, text: &str, leaf: Option<&str>, stamp: &Stamp<'_>) -> Vec<Value> {
    let last: Option<Value> = text.lines().rev().find_map(|l| {
        serde_json::from_str::<Value>(l)
            .ok()
            .filter(|v| v.get("timestamp").is_some())
    });
    let timestamp = last
        .as_ref()
        .and_then(|v| v.get("timestamp"))
        .cloned()
        .unwrap_or(Value::Null);
    match shape {
        Shape::MessageArray => Vec::new(),
        Shape::OpenClawJsonl => {
            let mut ids = fresh_ids(text);
            let (change, snapshot, record) = (ids.next(), ids.next(), ids.next());
            let ms = last
                .as_ref()
                .and_then(|v| v.pointer("/message/timestamp"))
                .and_then(Value::as_i64)
                .unwrap_or(0);
            let t = stamp.target;
            let mut change_entry = json!({
                "type": "model_change",
                "id": change,
                "parentId": leaf,
                "timestamp": timestamp,
                "provider": t.provider,
                "modelId": t.model,
            });
            if t.provider.is_none() {
                change_entry.as_object_mut().map(|o| o.remove("provider"));
            }
            vec![
                change_entry,
                json!({
                    "type": "custom",
                    "customType": "model-snapshot",
                    "data": {"timestamp": ms, "provider": t.provider, "modelApi": t.api, "modelId": t.model},
                    "id": snapshot,
                    "parentId": change,
                    "timestamp": timestamp,
                }),
                json!({
                    "type": "custom",
                    "customType": RECORD_TYPE,
                    "data": stamp.record(),
                    "id": record,
                    "parentId": snapshot,
                    "timestamp": timestamp,
                }),
            ]
        }
        Shape::ClaudeCodeJsonl => vec![json!({"type": RECORD_TYPE, "timestamp": timestamp, "data": stamp.record()})],
        Shape::CodexRollout => vec![json!({"timestamp": timestamp, "type": RECORD_TYPE, "payload": stamp.record()})],
    }
}

/// 8-hex entry ids no line of `text` uses.
fn fresh_ids(text: &str) -> impl Iterator<Item = String> + '_ {
    (0x7e1a_0001u32..)
        .map(|n| format!("{n:08x}"))
        .filter(move |id| !text.contains(&format!("\"{id}\"")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_openclaw_session_gets_the_entries_openclaw_records_for_a_model_change() {
        let text = concat!(
            r#"{"type":"session","version":3,"id":"s"}"#,
            "\n",
            r#"{"type":"message","id":"7e1a0001","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"1","timestamp":5}}"#,
            "\n"
        );
        let target = Target {
            provider: Some("mistral".into()),
            api: Some("mistral-conversations".into()),
            model: Some("devstral-medium-2507".into()),
        };
        let stamp = Stamp {
            target: &target,
            rule_set: RuleSet::parse("2026.9.6").unwrap(),
            keeps: "x".into(),
        };
        let out = lines(Shape::OpenClawJsonl, text, Some("7e1a0001"), &stamp);
        assert_eq!(out.len(), 3);
        assert_eq!(out[0]["type"], "model_change");
        assert_eq!(out[0]["parentId"], "7e1a0001");
        assert_ne!(out[0]["id"], "7e1a0001", "a fresh id");
        assert_eq!(out[0]["modelId"], "devstral-medium-2507");
        assert_eq!(out[1]["customType"], "model-snapshot");
        assert_eq!(out[1]["data"]["modelApi"], "mistral-conversations");
        assert_eq!(out[1]["data"]["timestamp"], 5);
        assert_eq!(out[1]["parentId"], out[0]["id"]);
        assert_eq!(out[2]["parentId"], out[1]["id"]);
        let (read, release) =
            crate::load::reproducer::read_record(&crate::model::json::Value::from_serde(out[2].clone())).unwrap();
        assert_eq!(read.model.as_deref(), Some("devstral-medium-2507"));
        assert_eq!(read.api.as_deref(), Some("mistral-conversations"));
        assert_eq!(release.as_deref(), Some("2026.9.6"));
        assert!(lines(Shape::MessageArray, "[]", None, &stamp).is_empty());
    }
}
