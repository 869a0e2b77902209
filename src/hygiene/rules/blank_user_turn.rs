//! `blank-user-turn`: drop blank user turns (OpenClaw's `sanitizeUserReplayContent`, newest behaviour).

use crate::model::json::Value;

use crate::hygiene::{Action, Context, PendingRewrite, Rule, RuleInfo, Working};
use crate::model::Message;

use crate::openclaw::assistant_text::{has_persisted_media, is_blank, is_blank_text_block};

static INFO: RuleInfo = RuleInfo {
    id: "blank-user-turn",
    summary: "drop blank user turns",
    explanation: "A user turn without visible text (an empty prompt, or one whose every text block is blank) \
        gives strict providers an empty message. OpenClaw's sanitizeUserReplayContent, in the same \
        normalization pass as the assistant rules, handles every user message: string content that is \
        blank drops the message; in array content every `text` block whose string text is blank is \
        removed (other blocks, and text blocks whose `text` is not a string, stay) and a message left \
        with no blocks (including `[]`) is dropped. Newest behaviour: a blank user turn that carries \
        persisted media — a non-blank string in `MediaPath`, `MediaPaths`, `MediaUrl` or `MediaUrls` \
        (a string or an array of strings) — is kept: blank string content stays as it is and emptied \
        array content becomes `content: \"\"`. Consecutive non-blank user turns are not merged here. \
        Other content shapes and other roles are left alone.",
    families: "all",
    reference: "transcript-hygiene.md › \"Where this runs\" · sanitizeUserReplayContent",
};

/// The `blank-user-turn` rule.
pub struct BlankUserTurn;

/// What the rule does to one user message.
pub enum UserOutcome {
    /// Drop it, with the detail.
    Drop(String),
    /// Replace its content, with the detail.
    Modify(Value, String),
}

impl Rule for BlankUserTurn {
    fn info(&self) -> &'static RuleInfo {
        &INFO
    }

    fn enabled(&self, _ctx: &Context<'_>) -> bool {
        true
    }

    fn apply<'s>(&self, _ctx: &Context<'_>, work: &mut Working<'s>, rewrites: &mut Vec<PendingRewrite>) {
        let outcomes: Vec<Option<UserOutcome>> =
            work.messages.iter().map(|wm| blank_user_outcome(&wm.message)).collect();
        if outcomes.iter().all(Option::is_none) {
            return;
        }
        let old = std::mem::take(&mut work.messages);
        for (mut wm, outcome) in old.into_iter().zip(outcomes) {
            match outcome {
                None => work.messages.push(wm),
                Some(UserOutcome::Drop(detail)) => rewrites.push(PendingRewrite::dropped(INFO.id, &wm, detail)),
                Some(UserOutcome::Modify(content, detail)) => {
                    wm.message.to_mut().set("content", content);
                    rewrites.push(PendingRewrite::on(INFO.id, Action::Modify, &wm, detail));
                    work.messages.push(wm);
                }
            }
        }
    }
}

/// `sanitizeUserReplayContent` for one message: `None` when it stays as it is.
pub fn blank_user_outcome(m: &Message) -> Option<UserOutcome> {
    if !m.is_user() {
        return None;
    }
    match m.content()? {
        Value::String(s) => (is_blank(s) && !has_persisted_media(m))
            .then(|| UserOutcome::Drop("blank user turn (string content)".to_owned())),
        Value::Array(blocks) => {
            let blank: Vec<usize> = (0..blocks.len()).filter(|&i| is_blank_text_block(&blocks[i])).collect();
            if blank.len() == blocks.len() {
                let what = if blocks.is_empty() {
                    "no content blocks".to_owned()
                } else {
                    format!("only blank text ({} block(s))", blocks.len())
                };
                return Some(if has_persisted_media(m) {
                    UserOutcome::Modify(
                        Value::String(String::new().into()),
                        format!("{what}; kept with content \"\" because the turn carries persisted media"),
                    )
                } else {
                    UserOutcome::Drop(format!("blank user turn ({what})"))
                });
            }
            if blank.is_empty() {
                return None;
            }
            let kept: Vec<Value> = blocks
                .iter()
                .enumerate()
                .filter(|(i, _)| !blank.contains(i))
                .map(|(_, b)| b.clone())
                .collect();
            let list: Vec<String> = blank.iter().map(usize::to_string).collect();
            Some(UserOutcome::Modify(
                Value::Array(kept.into()),
                format!("removed blank text block(s) {}", crate::text::join_folded(&list)),
            ))
        }
        _ => None,
    }
}

/// Whether blank-user-turn will drop this message.
pub fn is_droppable_blank_user(m: &Message) -> bool {
    matches!(blank_user_outcome(m), Some(UserOutcome::Drop(_)))
}
