//! `y`: the selected message, or the payload item in the wire view, as pretty JSON on the
//! terminal's clipboard through OSC 52 (works over SSH and in tmux with `set-clipboard on`);
//! `Y`: one id of the selected row (its tool-call ids, its entry id, the session id; pressed
//! again, the next). No terminal confirms OSC 52, so the status says so, and what was copied
//! last is printed when the inspector closes.

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
        let what = format!("{what}, {} bytes of JSON", json.len());
        self.send_to_clipboard(what, json);
    }

    /// Queue `text` for the clipboard; the status says it was sent, not that it arrived.
    fn send_to_clipboard(&mut self, what: String, text: String) {
        let tmux = std::env::var_os("TMUX").is_some();
        self.status = Some(format!("{what}: {}", sent_note(tmux)));
        self.effects.push(Effect::Copy(text.clone()));
        self.last_copy = Some((what, text));
    }

    /// `Y`: the next id of the selected row to the clipboard.
    pub(super) fn copy_id(&mut self) {
        let row = self.view.get(self.selected).copied();
        let ids = self.ids_of_selected();
        let (Some(row), false) = (row, ids.is_empty()) else {
            self.status = Some("no id here".into());
            return;
        };
        let k = match self.copy_id_next {
            Some((r, k)) if r == row => k % ids.len(),
            _ => 0,
        };
        self.copy_id_next = Some((row, k + 1));
        let (kind, id) = ids[k].clone();
        let more = if ids.len() > 1 {
            format!(", {} of {}: Y for the next", k + 1, ids.len())
        } else {
            String::new()
        };
        self.send_to_clipboard(format!("{kind} {id}{more}"), id);
    }

    /// The ids of the selected row: tool-call ids (calls and results, replay then stored),
    /// the stored entry ids, the session id.
    fn ids_of_selected(&self) -> Vec<(&'static str, String)> {
        let mut ids: Vec<(&'static str, String)> = Vec::new();
        let mut push = |kind: &'static str, id: &str| {
            if !id.is_empty() && !ids.iter().any(|(_, i)| i == id) {
                ids.push((kind, id.to_owned()));
            }
        };
        let Some(insp) = &self.insp else { return ids };
        let Some(row) = self.selected_row() else { return ids };
        let messages = row
            .replay
            .and_then(|j| insp.replayed(j))
            .into_iter()
            .chain(row.stored.iter().filter_map(|&s| insp.stored(s)));
        for m in messages {
            for call in m.tool_calls() {
                if let Some(id) = call.tool_call_id() {
                    push("call id", id);
                }
            }
            if let Some(id) = m.tool_call_id() {
                push("call id", id);
            }
        }
        for &s in &row.stored {
            if let Some(id) = insp.transcript.messages.get(s).and_then(|m| m.entry_id.as_deref()) {
                push("entry id", id);
            }
        }
        push("session id", &insp.session.id);
        ids
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

/// The status's words after what was copied: sent, never confirmed; in tmux, the setting that
/// makes it pass the sequence on; printed when the inspector closes.
fn sent_note(tmux: bool) -> &'static str {
    if tmux {
        "sent by OSC 52, unconfirmed (tmux passes it on with `set -g set-clipboard on`); printed on quit"
    } else {
        "sent by OSC 52, unconfirmed (the terminal may drop it); printed on quit"
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
