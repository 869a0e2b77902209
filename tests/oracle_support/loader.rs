//! The loader differential's two sides and their comparison: `replaylens show --format json`
//! and OpenClaw's own session codec (`oracle/openclaw_session.mjs`) on the same file.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// What `replaylens show --format json` reads from `path`, or why it could not.
pub fn show(bin: &str, path: &Path) -> Result<Value, String> {
    show_session(bin, path, None)
}

/// What `replaylens show --format json [--session ID]` reads from `path` (a database session
/// when `session` is given), or why it could not.
pub fn show_session(bin: &str, path: &Path, session: Option<&str>) -> Result<Value, String> {
    let mut command = Command::new(bin);
    command.args(["show", "--format", "json"]).arg(path);
    if let Some(id) = session {
        command.args(["--session", id]);
    }
    let out = command.output().map_err(|e| format!("cannot run {bin}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "replaylens show failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("show's output is not JSON: {e}"))
}

/// The oracle request for one file.
pub fn request(id: usize, path: &Path) -> String {
    serde_json::json!({"id": id, "path": path}).to_string()
}

/// The oracle request for one session of an agent database.
pub fn database_request(id: usize, path: &Path, session: &str) -> String {
    serde_json::json!({"id": id, "path": path, "session": session}).to_string()
}

/// The oracle request listing an agent database's sessions (OpenClaw's reader's own list).
pub fn sessions_request(path: &Path) -> String {
    serde_json::json!({"id": 0, "path": path, "sessions": true}).to_string()
}

/// A message as both sides would send it, for comparison. Only representation is normalized:
/// - an `undefined` field is absent from OpenClaw's JSON while replaylens never writes one, so
///   a `null`-free comparison needs nothing; object key order is not compared (`Value`
///   equality ignores it);
/// - numbers are compared by value: `JSON.stringify` writes `8e-05` as `0.00008` and `1.0` as
///   `1`, while replaylens keeps each number's stored text.
fn normalized(v: &Value) -> Value {
    match v {
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => Value::from(i),
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(f as i64),
            (None, Some(f)) => Value::from(f),
            _ => v.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(normalized).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), normalized(v))).collect()),
        _ => v.clone(),
    }
}

/// Where two JSON values first differ (`$.content[0].text`), with both sides, shortened.
fn first_difference(path: &str, a: &Value, b: &Value) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys()) {
                let (va, vb) = (x.get(k).unwrap_or(&Value::Null), y.get(k).unwrap_or(&Value::Null));
                if x.contains_key(k) != y.contains_key(k) {
                    return Some(format!(
                        "{path}.{k}: replaylens {} / OpenClaw {}",
                        short(x.get(k)),
                        short(y.get(k))
                    ));
                }
                if let Some(d) = first_difference(&format!("{path}.{k}"), va, vb) {
                    return Some(d);
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (va, vb))| first_difference(&format!("{path}[{i}]"), va, vb)),
        _ if a == b => None,
        _ => Some(format!(
            "{path}: replaylens {} / OpenClaw {}",
            short(Some(a)),
            short(Some(b))
        )),
    }
}

fn short(v: Option<&Value>) -> String {
    match v {
        None => "(absent)".to_owned(),
        Some(v) => {
            let s = v.to_string();
            if s.chars().count() > 120 {
                format!("{}…", s.chars().take(120).collect::<String>())
            } else {
                s
            }
        }
    }
}

/// A transcript-only provider/model pair (OpenClaw's `isTranscriptOnlyOpenClawAssistantModel`).
fn is_pseudo_model(provider: &Value, model: &Value) -> bool {
    provider.as_str() == Some("openclaw") && matches!(model.as_str(), Some("delivery-mirror" | "gateway-injected"))
}

/// Every difference between replaylens' reading (`show`) and OpenClaw's (`oracle`) of one file.
pub fn compare(show: &Value, oracle: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(e) = oracle.get("error") {
        out.push(format!("OpenClaw could not read the file: {e}"));
        return out;
    }
    let ours: Vec<Value> = show["stored"]
        .as_array()
        .map(|a| a.iter().map(|i| normalized(&i["message"])).collect())
        .unwrap_or_default();
    let theirs: Vec<Value> = oracle["messages"]
        .as_array()
        .map(|a| a.iter().map(normalized).collect())
        .unwrap_or_default();
    if ours.len() != theirs.len() {
        let roles = |v: &[Value]| {
            v.iter()
                .map(|m| m["role"].as_str().unwrap_or("?").to_owned())
                .collect::<Vec<_>>()
                .join(",")
        };
        out.push(format!(
            "{} stored messages, OpenClaw's context has {} (replaylens {} / OpenClaw {})",
            ours.len(),
            theirs.len(),
            roles(&ours),
            roles(&theirs)
        ));
    }
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        if let Some(d) = first_difference(&format!("message #{i}"), a, b) {
            out.push(d);
            break;
        }
    }
    compare_target(show, oracle, &mut out);
    out
}

/// The session's own target against the model OpenClaw's `buildSessionContext` selects.
fn compare_target(show: &Value, oracle: &Value, out: &mut Vec<String>) {
    let target = &show["target"];
    let source = show["targetSource"].as_str();
    let (provider, model, api) = (&oracle["provider"], &oracle["modelId"], &oracle["api"]);
    let raw = &oracle["model"];
    // OpenClaw's own context reports a transcript-only pseudo-model only when the mirrors are
    // all there is: replaylens must then name no model of the session.
    if raw.is_object() && is_pseudo_model(&raw["provider"], &raw["modelId"]) && provider.is_null() && model.is_null() {
        if matches!(source, Some("model-change" | "assistant")) {
            out.push(format!(
                "target: OpenClaw's context names only the transcript-only {}/{}, replaylens takes {} from the branch",
                short(Some(&raw["provider"])),
                short(Some(&raw["modelId"])),
                short(Some(target))
            ));
        }
        return;
    }
    if provider.is_null() && model.is_null() {
        // OpenClaw's branch names no model; replaylens may fall back to the header or the
        // database's session window, never to something on the branch.
        if matches!(source, Some("model-change" | "assistant")) {
            out.push(format!(
                "target: OpenClaw's branch names no model, replaylens {} from {source:?}",
                short(Some(target))
            ));
        }
        return;
    }
    let expected_source = if api.is_null() { "model-change" } else { "assistant" };
    let same = |ours: &Value, theirs: &Value| ours.as_str() == theirs.as_str();
    if !same(&target["provider"], provider) || !same(&target["model"], model) || source != Some(expected_source) {
        out.push(format!(
            "target: replaylens {}/{} ({source:?}), OpenClaw {}/{} ({expected_source})",
            short(Some(&target["provider"])),
            short(Some(&target["model"])),
            short(Some(provider)),
            short(Some(model))
        ));
    }
    // OpenClaw records an API only on assistant turns; a model_change's API is resolved from
    // the catalog at call time, which this codec does not do.
    if !api.is_null() && !same(&target["api"], api) {
        out.push(format!(
            "target api: replaylens {}, OpenClaw {}",
            short(Some(&target["api"])),
            short(Some(api))
        ));
    }
    let level = oracle["thinkingLevel"].as_str();
    if level.is_some_and(|l| l != "off") && show["thinkingLevel"].as_str() != level {
        out.push(format!(
            "thinking level: replaylens {}, OpenClaw {level:?}",
            short(Some(&show["thinkingLevel"]))
        ));
    }
}
