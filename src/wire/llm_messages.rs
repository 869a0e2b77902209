//! The agent loop's last message step before a transport: OpenClaw's `convertToLlm`
//! (agent-core `session`), preceded by the turn-aborted marker fix of
//! `normalizeCoreContextMessages`. Only `user`, `assistant` and `toolResult` messages reach a
//! provider; summaries, shell runs and custom messages become user turns, everything else
//! is left out.

use std::borrow::Cow;

use crate::json;
use crate::model::json::{Map, Value};

use super::WireInput;
use crate::model::Message;
use crate::openclaw::js;

const COMPACTION_SUMMARY_PREFIX: &str =
    "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
const COMPACTION_SUMMARY_SUFFIX: &str = "\n</summary>";
const BRANCH_SUMMARY_PREFIX: &str =
    "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
const BRANCH_SUMMARY_SUFFIX: &str = "</summary>";
const TURN_ABORTED: &str = "openclaw:turn-aborted";

/// What the message step makes of one message.
enum LlmForm {
    /// Sent as it is.
    Keep,
    /// Sent as this user turn.
    Replace(Message),
    /// Left out.
    Drop,
}

/// The messages a provider can be sent, as converter inputs whose source is the index of
/// the message each came from. A message sent as it is is moved, not copied, when the caller
/// hands it over owned.
pub fn to_llm<'a>(messages: impl IntoIterator<Item = Cow<'a, Message>>) -> Vec<WireInput> {
    let messages = messages.into_iter();
    let mut out = Vec::with_capacity(messages.size_hint().0);
    for (i, m) in messages.enumerate() {
        let message = match llm_form(&m) {
            LlmForm::Keep => m.into_owned(),
            LlmForm::Replace(converted) => converted,
            LlmForm::Drop => continue,
        };
        out.push(WireInput {
            message,
            source: smallvec::smallvec![i],
        });
    }
    out
}

fn llm_form(m: &Message) -> LlmForm {
    let role = m.str_field("role");
    let excluded = m.get("excludeFromContext").and_then(Value::as_bool) == Some(true);
    match role {
        Some("user" | "assistant" | "toolResult") => LlmForm::Keep,
        Some("custom") if m.str_field("customType") == Some(TURN_ABORTED) => {
            LlmForm::Replace(user(content_blocks(m), m.get("timestamp"), false))
        }
        Some("custom") if !excluded => {
            let carrier = m
                .get("details")
                .and_then(|d| d.get("runtimeContextCarrier"))
                .and_then(Value::as_bool)
                == Some(true);
            LlmForm::Replace(user(content_blocks(m), m.get("timestamp"), carrier))
        }
        Some("bashExecution") if !excluded => {
            LlmForm::Replace(user(text_block(&bash_execution_text(m)), m.get("timestamp"), false))
        }
        Some("branchSummary") => LlmForm::Replace(user(
            text_block(&format!("{BRANCH_SUMMARY_PREFIX}{}{BRANCH_SUMMARY_SUFFIX}", summary(m))),
            m.get("timestamp"),
            false,
        )),
        Some("compactionSummary") => LlmForm::Replace(user(
            text_block(&format!(
                "{COMPACTION_SUMMARY_PREFIX}{}{COMPACTION_SUMMARY_SUFFIX}",
                summary(m)
            )),
            m.get("timestamp"),
            false,
        )),
        _ => LlmForm::Drop,
    }
}

/// JavaScript's string conversion of the `summary` field (`undefined` when absent).
fn summary(m: &Message) -> String {
    js::string(m.get("summary"))
}

fn content_blocks(m: &Message) -> Value {
    match m.content() {
        Some(Value::String(s)) => text_block(s),
        Some(other) => other.clone(),
        None => Value::Null,
    }
}

fn text_block(text: &str) -> Value {
    json!([{ "type": "text", "text": text }])
}

fn user(content: Value, timestamp: Option<&Value>, carrier: bool) -> Message {
    let mut map = Map::new();
    map.insert("role".into(), json!("user"));
    if !content.is_null() {
        map.insert("content".into(), content);
    }
    if let Some(t) = timestamp {
        map.insert("timestamp".into(), t.clone());
    }
    if carrier {
        map.insert("runtimeContextCarrier".into(), json!(true));
    }
    Message::from_map(map)
}

/// `bashExecutionToText`: the command, its output (or `(no output)`), and how it ended.
fn bash_execution_text(m: &Message) -> String {
    let truthy = |k: &str| match m.get(k) {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Number(n)) => n.as_f64() != Some(0.0),
        Some(_) => true,
    };
    let mut text = format!("Ran `{}`\n", js::string(m.get("command")));
    if truthy("output") {
        text.push_str(&format!("```\n{}\n```", js::string(m.get("output"))));
    } else {
        text.push_str("(no output)");
    }
    let exit_code = m.get("exitCode").filter(|v| !v.is_null());
    if truthy("cancelled") {
        text.push_str("\n\n(command cancelled)");
    } else if let Some(code) = exit_code
        && code.as_f64() != Some(0.0)
    {
        text.push_str(&format!("\n\nCommand exited with code {}", js::string(Some(code))));
    }
    if truthy("truncated") && truthy("fullOutputPath") {
        text.push_str(&format!(
            "\n\n[Output truncated. Full output: {}]",
            js::string(m.get("fullOutputPath"))
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(v: Value) -> Message {
        Message::from_value(v).unwrap()
    }

    #[test]
    fn summaries_shell_runs_and_custom_messages_become_user_turns() {
        let input = [
            msg(json!({"role": "compactionSummary", "summary": "S", "timestamp": 1})),
            msg(json!({"role": "bashExecution", "command": "ls", "output": "a", "exitCode": 2, "timestamp": 2})),
            msg(json!({"role": "custom", "customType": "x", "content": "note", "timestamp": 3})),
            msg(json!({"role": "custom", "customType": "x", "content": "hidden", "excludeFromContext": true})),
            msg(json!({"role": "system", "content": "dropped"})),
            msg(json!({"role": "user", "content": "hi"})),
        ];
        let out = to_llm(input.iter().map(Cow::Borrowed));
        let sources: Vec<&[usize]> = out.iter().map(|i| i.source.as_slice()).collect();
        assert_eq!(sources, [[0], [1], [2], [5]]);
        assert_eq!(
            out[0].message.blocks().next().unwrap().text(),
            Some(
                "The conversation history before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>"
            )
        );
        assert_eq!(
            out[1].message.blocks().next().unwrap().text(),
            Some("Ran `ls`\n```\na\n```\n\nCommand exited with code 2")
        );
        assert_eq!(out[2].message.blocks().next().unwrap().text(), Some("note"));
        assert_eq!(out[3].message, input[5]);
    }
}
