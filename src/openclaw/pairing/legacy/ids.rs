//! Result ids and names as OpenClaw 2026.7 reads them (JavaScript `trim()`, legacy id adoption).

use crate::model::json::Value;

use crate::model::Message;
use crate::openclaw::js::js_trim;

use super::super::classify::Call;
use super::super::results::{RESULT_ID_FIELDS, describe};

/// JavaScript `normalizeOptionalString` for a string field: trimmed (JS `trim()`), non-empty.
pub(super) fn opt_str(s: Option<&str>) -> Option<&str> {
    s.map(js_trim).filter(|s| !s.is_empty())
}

/// `extractToolResultId`: the first id field that is a string non-empty after JS `trim()`.
pub(super) fn result_id(m: &Message) -> Option<&str> {
    RESULT_ID_FIELDS.iter().find_map(|f| opt_str(m.str_field(f)))
}

/// `for x (read)` / `without a tool-call id`, for a result in a detail line.
pub(super) fn result_label(m: &Message) -> String {
    match result_id(m) {
        Some(id) => format!("for {}", describe(id, m.tool_name())),
        None => "without a tool-call id".to_owned(),
    }
}

/// `normalizeLegacyToolResultId`: a result without an id, in a turn with exactly one call whose
/// name does not conflict, gets that call's id and `isError: true`; `None` when it does not apply.
pub(super) fn adopt_legacy(m: &Message, calls: &[Call<'_>]) -> Option<Message> {
    if result_id(m).is_some() {
        return None;
    }
    let [call] = calls else { return None };
    if let (Some(r), Some(c)) = (opt_str(m.tool_name()), opt_str(call.name))
        && r != c
    {
        return None;
    }
    let mut next = m.clone();
    next.set("toolCallId", Value::from(call.id));
    next.set("isError", Value::Bool(true));
    Some(next)
}

/// `normalizeToolResultName`: the new `toolName` when it changes (trimmed name, else the
/// trimmed fallback, else `unknown` when `toolName` is a string).
pub(super) fn normalized_name(m: &Message, fallback: Option<&str>) -> Option<String> {
    let raw = m.tool_name();
    if let Some(name) = opt_str(raw) {
        return (raw != Some(name)).then(|| name.to_owned());
    }
    if let Some(name) = opt_str(fallback) {
        return Some(name.to_owned());
    }
    raw.map(|_| "unknown".to_owned())
}

pub(super) fn role_name(m: &Message) -> &str {
    match m.role().as_str() {
        "" => "role-less",
        r => r,
    }
}
