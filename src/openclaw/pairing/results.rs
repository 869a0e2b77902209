//! Tool results as `tool-result-pairing` reads and rewrites them: ids, legacy id adoption,
//! name normalisation, and how ids and names appear in detail lines.

use crate::model::json::Value;

use super::classify::Call;
use crate::model::Message;

pub use crate::openclaw::result_ids::RESULT_ID_FIELDS;

/// The primary result id: the first alias field that is a string non-empty after trimming.
pub fn primary_result_id(m: &Message) -> Option<&str> {
    RESULT_ID_FIELDS
        .iter()
        .filter_map(|f| m.str_field(f))
        .map(str::trim)
        .find(|s| !s.is_empty())
}

/// A non-empty trimmed string, or `None`.
fn trimmed(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|s| !s.is_empty())
}

/// An id as shown in a detail line: bare when it is plain, quoted when it is empty or carries
/// surrounding whitespace (so `" a "` and `a` stay distinguishable).
fn show_id(id: &str) -> String {
    if id.is_empty() || id != id.trim() {
        format!("{id:?}")
    } else {
        id.to_owned()
    }
}

/// `call_1 (read)`, or `call_1` when the name is missing or blank.
pub fn describe(id: &str, name: Option<&str>) -> String {
    match trimmed(name) {
        Some(n) => format!("{} ({n})", show_id(id)),
        None => show_id(id),
    }
}

/// Name normalisation (`sanitizeToolUseResultPairing`): the trimmed `toolName` if non-empty, else the trimmed
/// call name if non-empty, else `unknown` when `toolName` was a string; `None` when the
/// result keeps its `toolName` as it is.
fn normalised_tool_name(m: &Message, call_name: Option<&str>) -> Option<String> {
    let raw = m.tool_name();
    let target = trimmed(raw)
        .or_else(|| trimmed(call_name))
        .or_else(|| raw.map(|_| "unknown"))?;
    (raw != Some(target)).then(|| target.to_owned())
}

/// The `toolName` of a synthesized result: the trimmed call name, else `unknown` (already in
/// the form name normalisation keeps, so a second pass leaves it alone).
pub fn synthetic_tool_name(call_name: Option<&str>) -> String {
    trimmed(call_name).unwrap_or("unknown").to_owned()
}

/// Why `toolName` changed to `name`, for a detail line.
fn rename_note(m: &Message, name: &str) -> String {
    match m.tool_name() {
        Some(raw) if !raw.trim().is_empty() => format!("trimmed toolName {raw:?} to `{name}`"),
        Some(_) if name == "unknown" => "set blank toolName to `unknown`".to_owned(),
        Some(_) => format!("set blank toolName to `{name}` from its call"),
        None => format!("set missing toolName to `{name}` from its call"),
    }
}

/// `for x (read)` / `without a tool-call id`, for a result in a detail line.
pub fn result_label(m: &Message) -> String {
    match primary_result_id(m) {
        Some(id) => format!("for {}", describe(id, m.tool_name())),
        None => "without a tool-call id".to_owned(),
    }
}

/// Legacy id adoption (normalizeLegacyToolResultId): a result without any id, in a frame with
/// exactly one call whose name does not conflict, gets that call's id and `isError: true`.
pub fn adopt(m: &Message, calls: &[Call<'_>]) -> Result<Option<Message>, String> {
    if primary_result_id(m).is_some() {
        return Ok(None);
    }
    let [call] = calls else {
        return Err(format!(
            "its assistant turn has {} tool calls, so the result cannot be assigned",
            calls.len()
        ));
    };
    let trimmed = |s: Option<&str>| s.map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
    if let (Some(r), Some(c)) = (trimmed(m.tool_name()), trimmed(call.name))
        && r != c
    {
        return Err(format!(
            "its toolName `{r}` conflicts with `{c}`, the only tool call of its assistant turn"
        ));
    }
    let mut next = m.clone();
    next.set("toolCallId", Value::from(call.id));
    next.set("isError", Value::Bool(true));
    Ok(Some(next))
}

/// The id a result is matched by: its trimmed primary id. Call ids are not trimmed, so a
/// synthetic result for a call id with surrounding whitespace never matches again: like
/// OpenClaw's pass, a second run drops it as an orphan and synthesizes a fresh one.
pub fn match_key(m: &Message) -> Option<String> {
    primary_result_id(m).map(str::to_owned)
}

/// The final form of a result assigned to `call`: legacy adoption and name normalisation.
pub fn finalize(original: &Message, adopted: Option<&Message>, call: &Call<'_>) -> Option<(Message, String)> {
    let base = adopted.unwrap_or(original);
    let mut notes = Vec::new();
    if adopted.is_some() {
        notes.push(format!(
            "adopted id {} of the only tool call of its turn and set isError:true (legacy result without an id)",
            describe(call.id, None)
        ));
    }
    let renamed = normalised_tool_name(base, call.name);
    if let Some(name) = &renamed {
        notes.push(rename_note(base, name));
    }
    if adopted.is_none() && renamed.is_none() {
        return None;
    }
    let mut next = base.clone();
    if let Some(name) = renamed {
        next.set("toolName", Value::String(name.into()));
    }
    (next != *original).then(|| (next, notes.join("; ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn result(name: crate::model::json::Value) -> Message {
        Message::from_value(json!({"role": "toolResult", "toolName": name})).unwrap()
    }

    #[test]
    fn name_normalisation_order() {
        assert_eq!(
            normalised_tool_name(&result(json!(" read ")), Some("x")),
            Some("read".into())
        );
        assert_eq!(normalised_tool_name(&result(json!("read")), Some("x")), None);
        assert_eq!(
            normalised_tool_name(&result(json!("  ")), Some(" exec ")),
            Some("exec".into())
        );
        assert_eq!(normalised_tool_name(&result(json!("")), None), Some("unknown".into()));
        assert_eq!(normalised_tool_name(&result(json!(3)), None), None);
        assert_eq!(
            normalised_tool_name(&result(json!(3)), Some("read")),
            Some("read".into())
        );
    }

    #[test]
    fn ids_with_whitespace_are_quoted() {
        assert_eq!(describe("call_1", Some("read")), "call_1 (read)");
        assert_eq!(describe(" a ", None), "\" a \"");
        assert_eq!(describe("a", Some("  ")), "a");
        assert_eq!(synthetic_tool_name(Some(" ")), "unknown");
    }
}
