//! Tool-result id rewrites of `responses-reasoning` (OpenClaw's `rewriteToolResultIds` and the
//! result side of `downgradeOpenAIFunctionCallReasoningPairs`).

use std::collections::HashMap;

use crate::model::Message;
use crate::model::json::Value;

use crate::openclaw::result_ids::{RESULT_ID_FIELDS, RESULT_ID_PRIORITY};

/// Old and new ids, for a rewrite's detail.
pub type Renames = Vec<(String, String)>;

/// `rewriteToolResultIds`: one primary id (the first non-empty string of `call_id`, `callId`,
/// `tool_call_id`, `tool_use_id`, `toolCallId`, `toolUseId`) resolved once and written into every
/// alias field holding a non-empty string, plus `toolCallId` when it is not a string.
pub fn rename_result_ids(
    m: &Message,
    mut resolve: impl FnMut(&str) -> Option<String>,
) -> Option<(Message, Vec<(String, String)>)> {
    let present = |field: &str| m.str_field(field).filter(|id| !id.is_empty());
    let primary = RESULT_ID_PRIORITY.iter().find_map(|f| present(f))?;
    let resolved = resolve(primary).unwrap_or_else(|| primary.to_owned());
    let mut next = m.clone();
    let mut renamed = Vec::new();
    // OpenClaw's `updates` follow its alias list, then a missing `toolCallId` goes last.
    for field in RESULT_ID_FIELDS {
        if let Some(old) = present(field)
            && old != resolved
        {
            next.set(field, Value::String(resolved.clone().into()));
            renamed.push((format!("{field} {old}"), resolved.clone()));
        }
    }
    if !matches!(m.get("toolCallId"), Some(Value::String(_))) && !resolved.is_empty() {
        next.set("toolCallId", Value::String(resolved.clone().into()));
        renamed.push(("toolCallId (none)".to_owned(), resolved));
    }
    (!renamed.is_empty()).then_some((next, renamed))
}

/// The result id rewrite up to 2026.7: `toolCallId` and `toolUseId`, each from its own value.
pub fn legacy_rename_result_ids(
    m: &Message,
    mut resolve: impl FnMut(&str) -> Option<String>,
) -> Option<(Message, Renames)> {
    let mut next = m.clone();
    let mut renamed = Vec::new();
    for field in ["toolCallId", "toolUseId"] {
        let Some(old) = m.str_field(field) else { continue };
        if let Some(new) = resolve(old).filter(|n| n != old) {
            next.set(field, Value::String(new.clone().into()));
            renamed.push((format!("{field} {old}"), new));
        }
    }
    (!renamed.is_empty()).then_some((next, renamed))
}

/// `downgradeOpenAIFunctionCallReasoningPairs` on a result: only `toolCallId` and `toolUseId`
/// follow their call.
pub fn downgrade_result_ids(
    m: &Message,
    pending: &HashMap<String, String>,
) -> Option<(Message, Vec<(String, String)>)> {
    let mut next = m.clone();
    let mut renamed = Vec::new();
    for field in ["toolCallId", "toolUseId"] {
        let Some(old) = m.str_field(field) else { continue };
        if let Some(new) = pending.get(old).filter(|n| *n != old) {
            next.set(field, Value::String(new.clone().into()));
            renamed.push((format!("{field} {old}"), new.clone()));
        }
    }
    (!renamed.is_empty()).then_some((next, renamed))
}
