//! A stored transcript that owns its messages, so it outlives the session it was built
//! from: the inspector keeps the transcript and drops the session, and a one-shot replay
//! releases the session's entries before the rules run.

use std::borrow::Cow;

use super::transcript::{StoredMessage, Transcript};

impl Transcript<'_> {
    /// The same transcript owning its messages. A borrowed message is shared with the
    /// session (a reference count), not copied: once the session (or its entries) is
    /// dropped, the transcript holds the only reference, nothing is held twice, and a rule
    /// changes the message in place.
    pub fn into_owned(self) -> Transcript<'static> {
        let (messages, mut rest) = self.into_parts();
        rest.messages = messages
            .into_iter()
            .map(|m| StoredMessage {
                entry_id: m.entry_id,
                location: m.location,
                origin: m.origin,
                message: Cow::Owned(m.message.into_owned()),
            })
            .collect();
        rest
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use crate::load::{LoadOptions, load_path};

    #[test]
    fn the_owned_transcript_equals_the_borrowed_one_and_shares_its_messages() {
        let dir = format!("{}/sample-sessions", env!("CARGO_MANIFEST_DIR"));
        let mut checked = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let Ok(session) = load_path(&path, &LoadOptions::default()) else {
                continue;
            };
            let borrowed = session.transcript();
            let owned = session.transcript().into_owned();
            assert_eq!(format!("{owned:?}"), format!("{borrowed:?}"), "{}", path.display());
            // Messages stored in the session are shared, not copied (a compaction summary
            // is built anew by each walk).
            for (o, b) in owned.messages.iter().zip(&borrowed.messages) {
                if let Cow::Borrowed(b) = &b.message {
                    assert!(o.message.as_map().shares_storage(b.as_map()), "{}", path.display());
                }
            }
            checked += 1;
        }
        assert!(checked >= 5, "{checked} samples");
    }
}
