//! The working transcript that flows through the rules, with provenance on every message.

use std::borrow::Cow;
use std::collections::HashSet;

use super::rewrite::{Action, PendingRewrite};
use crate::model::{Message, StoredMessage};

/// What a rule does to one message, for [`Working::change_each`].
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Remove the message from the replay, with a detail.
    Drop(String),
    /// Replace its content with these blocks, with a detail.
    Content(Vec<crate::model::json::Value>, String),
    /// Replace the whole message, with a detail.
    Replace(Message, String),
}

/// A stable identity for a working message, kept while rules run so that rewrites can be
/// mapped to final replay indices at the end.
pub type Uid = u32;

/// One message of the working transcript.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkingMessage<'s> {
    /// Identity across rules.
    pub uid: Uid,
    /// The message; borrowed from the session until a rule changes it.
    pub message: Cow<'s, Message>,
    /// Indices of the stored messages it came from (`[]` when synthesized, several for a merge).
    pub source: Vec<usize>,
}

/// The working transcript: messages plus the allocator of fresh identities.
#[derive(Debug, Clone, Default)]
pub struct Working<'s> {
    /// Messages, in order.
    pub messages: Vec<WorkingMessage<'s>>,
    /// Assistant turns that OpenClaw's `normalizeAssistantReplayContent` finishes early: it
    /// converts a turn whose stored content was a string (`internal-metadata`), or, up to
    /// 2026.9.2, replaces an empty failed turn by the placeholder (`stream-error-turn`), and moves
    /// on, so the checks later in its loop (the bare-duplicate check) never see it.
    pub moved_on_turns: HashSet<Uid>,
    /// Why OpenClaw would refuse to build this replay at all (it throws before the model
    /// call), set by the check that finds it.
    pub refusal: Option<String>,
    next_uid: Uid,
}

impl<'s> Working<'s> {
    /// Start from the stored transcript: message `i` has source `[i]`; messages stay
    /// borrowed (or shared) until a rule changes them.
    pub fn from_stored(stored: &[StoredMessage<'s>]) -> Self {
        Self::from_owned(stored.to_vec())
    }

    /// Start from a stored transcript the working transcript takes over: message `i` has
    /// source `[i]`, and a message the transcript owned is changed in place, not copied.
    pub fn from_owned(stored: Vec<StoredMessage<'s>>) -> Self {
        let n = stored.len();
        let messages = stored
            .into_iter()
            .enumerate()
            .map(|(i, m)| WorkingMessage {
                uid: i as Uid,
                message: m.message,
                source: vec![i],
            })
            .collect();
        Self {
            messages,
            moved_on_turns: HashSet::new(),
            refusal: None,
            next_uid: n as Uid,
        }
    }

    /// Start from bare messages (used by rule unit tests).
    pub fn from_messages(messages: Vec<Message>) -> Self {
        let n = messages.len();
        let messages = messages
            .into_iter()
            .enumerate()
            .map(|(i, m)| WorkingMessage {
                uid: i as Uid,
                message: Cow::Owned(m),
                source: vec![i],
            })
            .collect();
        Self {
            messages,
            moved_on_turns: HashSet::new(),
            refusal: None,
            next_uid: n as Uid,
        }
    }

    /// A fresh identity for a message a rule creates.
    pub fn fresh_uid(&mut self) -> Uid {
        let uid = self.next_uid;
        self.next_uid += 1;
        uid
    }

    /// A synthesized message (no stored source).
    pub fn synthesized(&mut self, message: Message) -> WorkingMessage<'s> {
        WorkingMessage {
            uid: self.fresh_uid(),
            message: Cow::Owned(message),
            source: Vec::new(),
        }
    }

    /// Number of messages.
    pub fn len(&self) -> usize {
        self.messages.len()
    }

    /// True when there are no messages.
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }

    /// The plain messages, in order.
    pub fn iter_messages(&self) -> impl Iterator<Item = &Message> {
        self.messages.iter().map(|m| m.message.as_ref())
    }

    /// Drop every message for which `why` returns a detail, recording one `drop` rewrite
    /// per message for `rule`. `why` sees the message and its index in the current list.
    pub fn drop_where(
        &mut self,
        rule: &'static str,
        rewrites: &mut Vec<PendingRewrite>,
        mut why: impl FnMut(usize, &Message) -> Option<String>,
    ) {
        let verdicts: Vec<Option<String>> = self
            .messages
            .iter()
            .enumerate()
            .map(|(i, m)| why(i, &m.message))
            .collect();
        if verdicts.iter().all(Option::is_none) {
            return;
        }
        let old = std::mem::take(&mut self.messages);
        for (m, verdict) in old.into_iter().zip(verdicts) {
            match verdict {
                Some(detail) => PendingRewrite::dropped(rule, &m, detail).record(rewrites),
                None => self.messages.push(m),
            }
        }
    }

    /// Replace every message for which `change` returns a new message and a detail,
    /// recording one `modify` rewrite each. Unchanged messages keep their borrows.
    pub fn modify_each(
        &mut self,
        rule: &'static str,
        rewrites: &mut Vec<PendingRewrite>,
        mut change: impl FnMut(usize, &Message) -> Option<(Message, String)>,
    ) {
        for (i, wm) in self.messages.iter_mut().enumerate() {
            if let Some((next, detail)) = change(i, &wm.message) {
                wm.message = Cow::Owned(next);
                PendingRewrite::on(rule, Action::Modify, wm, detail).record(rewrites);
            }
        }
    }

    /// Drop or change every message for which `change` says so, recording one `drop` or
    /// `modify` rewrite each. When nothing changes the messages are left untouched.
    pub fn change_each(
        &mut self,
        rule: &'static str,
        rewrites: &mut Vec<PendingRewrite>,
        mut change: impl FnMut(usize, &Message) -> Option<Change>,
    ) {
        let changes: Vec<Option<Change>> = self
            .messages
            .iter()
            .enumerate()
            .map(|(i, m)| change(i, &m.message))
            .collect();
        if changes.iter().all(Option::is_none) {
            return;
        }
        let old = std::mem::take(&mut self.messages);
        for (mut wm, c) in old.into_iter().zip(changes) {
            let detail = match c {
                None => {
                    self.messages.push(wm);
                    continue;
                }
                Some(Change::Drop(detail)) => {
                    PendingRewrite::dropped(rule, &wm, detail).record(rewrites);
                    continue;
                }
                Some(Change::Content(blocks, detail)) => {
                    wm.message.to_mut().set_content(blocks);
                    detail
                }
                Some(Change::Replace(next, detail)) => {
                    wm.message = Cow::Owned(next);
                    detail
                }
            };
            PendingRewrite::on(rule, Action::Modify, &wm, detail).record(rewrites);
            self.messages.push(wm);
        }
    }
}
