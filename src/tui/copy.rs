//! `y`: the selected message, or the payload item in the wire view, as pretty JSON on the
//! terminal's clipboard through OSC 52 (works over SSH and in tmux with `set-clipboard on`).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use super::app::{App, DetailView, Effect};

/// Most bytes of JSON copied: terminals drop larger OSC 52 payloads (xterm's default limit is
/// about 100 KB of base64).
pub const MAX_COPY_BYTES: usize = 74 * 1024;

/// The OSC 52 sequence that sets the clipboard to `text`.
pub fn osc52(text: &str) -> String {
    format!("\u{1b}]52;c;{}\u{7}", STANDARD.encode(text))
}

impl App {
    /// Queue the selected message (replay side, else stored) or, in the wire view, its first
    /// payload item, as JSON for the clipboard; the status says what was copied.
    pub(super) fn copy_selected(&mut self) {
        let Some((what, json)) = self.selected_json() else {
            self.status = Some("nothing to copy".into());
            return;
        };
        if json.len() > MAX_COPY_BYTES {
            self.status = Some(format!(
                "{what} is {} KB of JSON, more than a terminal clipboard takes ({} KB): export it instead (e)",
                json.len() / 1024,
                MAX_COPY_BYTES / 1024
            ));
            return;
        }
        self.status = Some(format!("copied {what} ({} bytes of JSON)", json.len()));
        self.effects.push(Effect::Copy(json));
    }

    fn selected_json(&self) -> Option<(String, String)> {
        let insp = self.insp.as_ref()?;
        let row = self.selected_row()?;
        if self.detail_view == DetailView::Payload
            && let Some(j) = row.replay
            && let Some(&item) = insp.wire.items_of_replay.get(j).and_then(|items| items.first())
            && let Some(value) = insp.wire.items.get(item)
        {
            let json = serde_json::to_string_pretty(&value.value).ok()?;
            return Some((format!("payload item {item}"), json));
        }
        let (what, message) = match row.replay.and_then(|j| insp.replayed(j).map(|m| (j, m))) {
            Some((j, m)) => (format!("replay message #{j}"), m),
            None => {
                let s = *row.stored.first()?;
                (format!("stored message #{s}"), insp.stored(s)?)
            }
        };
        Some((what, serde_json::to_string_pretty(message.as_map()).ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_wraps_base64_in_the_clipboard_sequence() {
        assert_eq!(osc52("{\"a\":1}"), "\u{1b}]52;c;eyJhIjoxfQ==\u{7}");
    }
}
