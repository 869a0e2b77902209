//! An early look at a large session: the session as read so far, handed to a callback once
//! the first entries are parsed, so a viewer can draw its first screen while the rest of the
//! file is still being read.
//!
//! The preview is the session of the lines read so far: its active branch ends at the last
//! entry read, which for a session that never branched is the start of the final active
//! branch. Viewers must present it as provisional until the whole file is read.

use std::fmt;
use std::sync::Arc;

use crate::model::Session;

/// Entries read before the preview is taken (a few screens of rows).
pub const PREVIEW_ENTRIES: usize = 256;

/// Bytes read before the preview is taken, whatever the entry count (sessions of
/// screenshots hold few entries per MiB).
pub const PREVIEW_BYTES: u64 = 8 << 20;

/// A callback given the session read so far, once, after [`PREVIEW_ENTRIES`] entries or
/// [`PREVIEW_BYTES`] bytes of an OpenClaw JSONL file.
#[derive(Clone)]
pub struct Preview(Arc<dyn Fn(Session) + Send + Sync>);

impl Preview {
    /// Wrap a callback.
    pub fn new(report: impl Fn(Session) + Send + Sync + 'static) -> Self {
        Self(Arc::new(report))
    }

    /// Hand the partial session to the callback.
    pub(crate) fn report(&self, partial: Session) {
        (self.0)(partial);
    }
}

impl fmt::Debug for Preview {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Preview(..)")
    }
}

/// Whether enough has been read for the preview.
pub(crate) fn due(entries: usize, bytes_read: u64) -> bool {
    entries >= PREVIEW_ENTRIES || bytes_read >= PREVIEW_BYTES
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Mutex;

    use super::*;
    use crate::load::jsonl::load_jsonl_previewed;
    use crate::load::limits::Limits;

    /// Load `text` with a preview; the partial sessions it was given.
    fn previews(text: &str) -> Vec<Session> {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let preview = Preview::new(move |s| log.lock().unwrap().push(s));
        load_jsonl_previewed(
            Path::new("s.jsonl"),
            text.as_bytes(),
            &Limits::default(),
            Some(preview),
            crate::load::Keep::Everything,
        )
        .unwrap();
        std::mem::take(&mut *seen.lock().unwrap())
    }

    fn entries(n: usize, ids: bool) -> String {
        (0..n)
            .map(|i| {
                let id = if ids {
                    format!(r#""id":"e{i}","parentId":null,"#)
                } else {
                    String::new()
                };
                format!(r#"{{"type":"message",{id}"message":{{"role":"user","content":"hi {i}"}}}}"#) + "\n"
            })
            .collect()
    }

    #[test]
    fn the_preview_is_the_session_read_so_far_given_once() {
        let header = r#"{"type":"session","version":3,"id":"s"}"#.to_owned() + "\n";
        let seen = previews(&(header.clone() + &entries(PREVIEW_ENTRIES * 2, true)));
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].entries.len(), PREVIEW_ENTRIES);
        assert_eq!(seen[0].id, "s");
        assert!(
            previews(&(header + &entries(PREVIEW_ENTRIES - 1, true))).is_empty(),
            "too small"
        );
    }

    #[test]
    fn layouts_finished_only_at_the_end_get_no_preview() {
        let v1 = r#"{"type":"session","version":1,"id":"s"}"#.to_owned() + "\n";
        assert!(
            previews(&(v1 + &entries(PREVIEW_ENTRIES * 2, false))).is_empty(),
            "v1 ids are assigned at the end"
        );
    }

    #[test]
    fn the_preview_is_due_after_enough_entries_or_bytes() {
        assert!(!due(PREVIEW_ENTRIES - 1, PREVIEW_BYTES - 1));
        assert!(due(PREVIEW_ENTRIES, 0));
        assert!(due(3, PREVIEW_BYTES));
    }
}
