//! A stored transcript that owns its messages, made by moving them out of the session
//! instead of copying them: the inspector keeps the transcript and drops the session, so a
//! 100 MB session is neither copied nor held twice.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::model::json::Value;

use super::message::Message;
use super::session::Session;
use super::transcript::{StoredMessage, Transcript};

/// Where a borrowed transcript message lives in the session.
#[derive(Clone, Copy)]
enum Source {
    /// `entries[i].raw["message"]`.
    Entry(usize),
    /// `bare_messages[i].raw`.
    Bare(usize),
    /// `mapped.messages[i].message`.
    Mapped(usize),
}

impl Session {
    /// The stored transcript of the active branch ([`Session::transcript`]), owning its
    /// messages: they are moved out of the session, which is consumed.
    pub fn into_transcript(mut self) -> Transcript<'static> {
        self.take_transcript()
    }

    /// [`Session::into_transcript`] without consuming the session: its messages are moved
    /// out (left `null`), so what remains can be dropped later, off the critical path.
    pub fn take_transcript(&mut self) -> Transcript<'static> {
        let mut by_address: HashMap<*const Message, Source> = HashMap::new();
        for (i, e) in self.entries.iter().enumerate() {
            if let Some(m) = e.raw.get("message").and_then(Message::from_value_ref) {
                by_address.insert(std::ptr::from_ref(m), Source::Entry(i));
            }
        }
        for (i, b) in self.bare_messages.iter().enumerate() {
            if let Some(m) = Message::from_value_ref(&b.raw) {
                by_address.insert(std::ptr::from_ref(m), Source::Bare(i));
            }
        }
        if let Some(mapped) = &self.mapped {
            for (i, m) in mapped.messages.iter().enumerate() {
                by_address.insert(std::ptr::from_ref(&m.message), Source::Mapped(i));
            }
        }
        let (messages, mut rest) = self.transcript().into_parts();
        let pending: Vec<(StoredMessage<'static>, Option<Source>)> = messages
            .into_iter()
            .map(|m| {
                let (message, source) = match m.message {
                    Cow::Owned(owned) => (owned, None),
                    Cow::Borrowed(r) => match by_address.get(&std::ptr::from_ref(r)) {
                        Some(&source) => (Message::default(), Some(source)),
                        None => (r.clone(), None),
                    },
                };
                let stored = StoredMessage {
                    entry_id: m.entry_id,
                    location: m.location,
                    origin: m.origin,
                    message: Cow::Owned(message),
                };
                (stored, source)
            })
            .collect();
        rest.messages = pending
            .into_iter()
            .map(|(mut stored, source)| {
                let taken = match source {
                    Some(Source::Entry(i)) => self.entries[i]
                        .raw
                        .as_object_mut()
                        .and_then(|o| o.get_mut("message"))
                        .map(Value::take),
                    Some(Source::Bare(i)) => Some(self.bare_messages[i].raw.take()),
                    Some(Source::Mapped(i)) => self.mapped.as_mut().map(|m| {
                        crate::model::json::Value::Object(std::mem::take(&mut m.messages[i].message).into_map())
                    }),
                    None => None,
                };
                if let Some(message) = taken.and_then(Message::from_value) {
                    stored.message = Cow::Owned(message);
                }
                stored
            })
            .collect();
        rest
    }
}

#[cfg(test)]
mod tests {
    use crate::load::{LoadOptions, load_path};

    #[test]
    fn moving_the_messages_out_gives_the_borrowed_transcript() {
        let dir = format!("{}/sample-sessions", env!("CARGO_MANIFEST_DIR"));
        let mut checked = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let Ok(session) = load_path(&path, &LoadOptions::default()) else {
                continue;
            };
            let borrowed = format!("{:?}", session.transcript());
            let owned = format!("{:?}", session.into_transcript());
            assert_eq!(owned, borrowed, "{}", path.display());
            checked += 1;
        }
        assert!(checked >= 5, "{checked} samples");
    }
}
