//! `blank-text`: remove blank text blocks; drop assistant turns left empty; give user and
//! tool-result turns left empty the `[empty content omitted]` placeholder (hygiene-b §2.9).

use crate::json;
use crate::model::json::Value;

use crate::hygiene::{Change, Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::{Message, Role};

use crate::openclaw::assistant_text::{EMPTY_CONTENT_PLACEHOLDER, is_blank_text_block};

static INFO: RuleInfo = RuleInfo {
    id: "blank-text",
    summary: "remove blank text blocks; drop assistant turns left empty; give user and tool-result turns left empty the `[empty content omitted]` placeholder",
    explanation: "Providers reject empty text blocks and empty messages. While OpenClaw's image pass walks \
        the replay content it removes every `text` block whose string text is blank (JavaScript `trim()`; \
        a text block without a string `text` stays), keeping the order of the other blocks. Then: an \
        assistant message with array content that is empty is dropped — whether it became empty here or \
        already was (empty `toolUse`/`length`/billed `stop` turns that the earlier rules kept), for \
        `stopReason` `error` and every other stop reason alike; a user message with array content that is \
        empty gets `[{type:\"text\", text:\"[empty content omitted]\"}]`; a tool result always ends up \
        with array content: its blank text blocks are removed and, when nothing is left, it gets the same \
        placeholder. A tool result whose content is not an \
        array (a string, null or missing) is treated as `[]` and so receives the placeholder, even when \
        the string held text. String user content and assistant content that is not an array are left \
        alone, as are other roles. The published page exempts assistant turns that \"own opaque provider \
        replay state\" (in OpenClaw's code: an emptied turn whose `providerReplay` field is set); this rule \
        does not reproduce that exemption and drops such a turn too. Images themselves are \
        handled by image-sanitize.",
    families: "all",
    reference: "transcript-hygiene.md › \"Global rule: image sanitization\" · sanitizeSessionMessagesImages",
};

/// The `blank-text` rule.
pub struct BlankText;

impl Rule for BlankText {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, _ctx: &Context<'_>) -> bool {
        true
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        work.change_each(INFO.id, rewrites, |_, m| blank_text_outcome(m));
    }
}

/// The placeholder content of a user or tool-result turn left empty.
pub fn empty_content_placeholder() -> Vec<Value> {
    vec![json!({"type": "text", "text": EMPTY_CONTENT_PLACEHOLDER})]
}

fn describe_removed(removed: &[usize]) -> String {
    let list: Vec<String> = removed.iter().map(usize::to_string).collect();
    format!("removed blank text block(s) {}", list.join(", "))
}

fn blank_text_outcome(m: &Message) -> Option<Change> {
    let role = m.role();
    let blocks = match (role, m.content()) {
        (Role::Assistant | Role::User | Role::ToolResult, Some(Value::Array(blocks))) => blocks,
        (Role::ToolResult, other) => {
            let what = match other {
                None => "no content".to_owned(),
                Some(Value::String(s)) => format!("string content ({} chars)", s.chars().count()),
                Some(Value::Null) => "null content".to_owned(),
                Some(_) => "non-array content".to_owned(),
            };
            return Some(Change::Content(
                empty_content_placeholder(),
                format!("{what} treated as empty; set the `{EMPTY_CONTENT_PLACEHOLDER}` placeholder"),
            ));
        }
        _ => return None,
    };
    let removed: Vec<usize> = (0..blocks.len()).filter(|&i| is_blank_text_block(&blocks[i])).collect();
    let kept: Vec<Value> = blocks
        .iter()
        .enumerate()
        .filter(|(i, _)| !removed.contains(i))
        .map(|(_, b)| b.clone())
        .collect();
    if !kept.is_empty() {
        return (!removed.is_empty()).then(|| Change::Content(kept, describe_removed(&removed)));
    }
    let what = if removed.is_empty() {
        "empty content".to_owned()
    } else {
        describe_removed(&removed)
    };
    Some(if role == Role::Assistant {
        Change::Drop(format!("assistant turn without content: {what}"))
    } else {
        Change::Content(
            empty_content_placeholder(),
            format!("{what}; set the `{EMPTY_CONTENT_PLACEHOLDER}` placeholder"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hygiene::Action;
    use crate::hygiene::rules::normalize_test_support::assert_untouched;
    use crate::hygiene::rules::test_support::{apply_rule, msgs};

    fn summary(rw: &[PendingRewrite]) -> Vec<(Action, Vec<usize>, String)> {
        rw.iter()
            .map(|r| (r.action, r.stored.clone(), r.detail.to_string()))
            .collect()
    }

    #[test]
    fn blank_blocks_are_removed_keeping_order() {
        let work = msgs(json!([
            {"role": "assistant", "content": [
                {"type": "text", "text": " "},
                {"type": "toolCall", "id": "c1", "name": "read", "arguments": {}},
                {"type": "text", "text": "\n"},
                {"type": "text", "text": "ok"}
            ], "stopReason": "toolUse"}
        ]));
        let (out, rw) = apply_rule(&BlankText, work);
        assert_eq!(
            out[0].content(),
            Some(&json!([
                {"type": "toolCall", "id": "c1", "name": "read", "arguments": {}},
                {"type": "text", "text": "ok"}
            ]))
        );
        assert_eq!(
            summary(&rw),
            vec![(Action::Modify, vec![0], "removed blank text block(s) 0, 2".to_owned())]
        );
    }

    #[test]
    fn assistant_turns_left_empty_are_dropped() {
        let work = msgs(json!([
            {"role": "assistant", "content": [{"type": "text", "text": "  "}], "stopReason": "error"},
            {"role": "assistant", "content": [], "stopReason": "toolUse"},
            {"role": "assistant", "content": [], "stopReason": "stop", "usage": {"output": 5}}
        ]));
        let (out, rw) = apply_rule(&BlankText, work);
        assert!(out.is_empty());
        assert_eq!(
            summary(&rw),
            vec![
                (
                    Action::Drop,
                    vec![0],
                    "assistant turn without content: removed blank text block(s) 0".to_owned()
                ),
                (
                    Action::Drop,
                    vec![1],
                    "assistant turn without content: empty content".to_owned()
                ),
                (
                    Action::Drop,
                    vec![2],
                    "assistant turn without content: empty content".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn user_and_tool_result_turns_left_empty_get_the_placeholder() {
        let work = msgs(json!([
            {"role": "user", "content": [{"type": "text", "text": " "}], "timestamp": 3},
            {"role": "toolResult", "toolCallId": "c1", "toolName": "read", "content": [{"type": "text", "text": ""}], "isError": false},
            {"role": "toolResult", "toolCallId": "c2", "toolName": "read", "content": [], "isError": false}
        ]));
        let (out, rw) = apply_rule(&BlankText, work);
        let placeholder = json!([{"type": "text", "text": "[empty content omitted]"}]);
        assert_eq!(
            out[0].as_map(),
            json!({"role": "user", "content": placeholder, "timestamp": 3})
                .as_object()
                .unwrap()
        );
        assert_eq!(
            serde_json::to_string(&out[1]).unwrap(),
            r#"{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"[empty content omitted]"}],"isError":false}"#
        );
        assert_eq!(out[2].content(), Some(&placeholder));
        assert_eq!(
            summary(&rw),
            vec![
                (
                    Action::Modify,
                    vec![0],
                    "removed blank text block(s) 0; set the `[empty content omitted]` placeholder".to_owned()
                ),
                (
                    Action::Modify,
                    vec![1],
                    "removed blank text block(s) 0; set the `[empty content omitted]` placeholder".to_owned()
                ),
                (
                    Action::Modify,
                    vec![2],
                    "empty content; set the `[empty content omitted]` placeholder".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn non_array_tool_results_are_treated_as_empty() {
        let work = msgs(json!([
            {"role": "toolResult", "toolCallId": "c1", "content": "done"},
            {"role": "toolResult", "toolCallId": "c2"}
        ]));
        let (out, rw) = apply_rule(&BlankText, work);
        assert_eq!(
            out[0].content(),
            Some(&json!([{"type": "text", "text": "[empty content omitted]"}]))
        );
        assert_eq!(
            serde_json::to_string(&out[1]).unwrap(),
            r#"{"role":"toolResult","toolCallId":"c2","content":[{"type":"text","text":"[empty content omitted]"}]}"#
        );
        assert_eq!(
            summary(&rw),
            vec![
                (
                    Action::Modify,
                    vec![0],
                    "string content (4 chars) treated as empty; set the `[empty content omitted]` placeholder"
                        .to_owned()
                ),
                (
                    Action::Modify,
                    vec![1],
                    "no content treated as empty; set the `[empty content omitted]` placeholder".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn everything_else_is_untouched() {
        assert_untouched(
            &BlankText,
            json!([
                {"role": "user", "content": " "},
                {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "text"}]},
                {"role": "assistant", "content": " "},
                {"role": "assistant", "content": [{"type": "thinking", "thinking": ""}]},
                {"role": "toolResult", "toolCallId": "c", "content": [{"type": "text", "text": "x"}]},
                {"role": "compactionSummary", "summary": "", "content": []},
                {"role": "custom", "content": [{"type": "text", "text": " "}]}
            ]),
        );
    }
}
