//! The record `replaylens reduce` writes into a reduced session (`src/reduce/stamp.rs`): the
//! target and rule set the case reproduces for, so the file alone replays it. In an OpenClaw
//! session it is a `custom` entry (extension state OpenClaw keeps and never sends) next to the
//! `model_change` and `model-snapshot` entries that name the model; in a Claude Code or Codex
//! file, whose formats cannot name another provider's model, a line of its own type that both
//! agents skip, and it names the session's target.

use crate::model::json::Value;

use crate::model::{Diagnostic, ModelRef, Session};

/// The `customType` (OpenClaw) or line `type` (Claude Code, Codex) of the record.
pub const RECORD_TYPE: &str = "replaylens-reproducer";

/// The model and the OpenClaw release a record names (its `data`, or a Codex line's `payload`).
pub fn read_record(raw: &Value) -> Option<(ModelRef, Option<String>)> {
    let data = raw.get("data").or_else(|| raw.get("payload"))?;
    let field = |k: &str| data.get(k).and_then(Value::as_str).map(str::to_owned);
    let model = ModelRef {
        provider: field("provider"),
        api: field("modelApi"),
        model: field("modelId"),
    };
    Some((model, field("openclawRelease")))
}

/// Whether a stored line is a record.
fn is_record(raw: &Value) -> bool {
    let ty = raw.get("type").and_then(Value::as_str);
    ty == Some(RECORD_TYPE)
        || ty == Some("custom") && raw.get("customType").and_then(Value::as_str) == Some(RECORD_TYPE)
}

/// Apply the session's last record, if any: the release it names becomes the release the
/// session records (unless the file records one itself), and in another agent's file the
/// model it names becomes the session's model.
pub(crate) fn apply(session: &mut Session) {
    let Some((at, (model, release))) = session
        .entries
        .iter()
        .rev()
        .find(|e| is_record(&e.raw))
        .and_then(|e| Some((e.location, read_record(&e.raw)?)))
    else {
        return;
    };
    if session.openclaw_version.is_none() {
        session.openclaw_version = release;
    }
    let mapped = session.mapped.is_some() && !model.is_empty();
    if let Some(m) = session.mapped.as_mut().filter(|_| mapped) {
        m.model = model;
    }
    session.diagnostics.push(Diagnostic::note(
        &session.path,
        Some(at),
        "a reduced case (`replaylens reduce`): it records the target and rule set it reproduces for",
    ));
}
