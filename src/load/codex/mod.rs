//! Codex CLI rollouts (`RolloutLine` of `openai/codex`'s `codex-rs/protocol`), every era, mapped into the common model.
//!
//! Every line stays in `session.entries` as stored. The walk reads them in file order:
//! `session_meta` and `turn_context` set the session id, provider, model and cwd;
//! response items (wrapped in `response_item`, bare in the pre-envelope era, or in the
//! envelope-less drift shapes) become OpenClaw messages ([`turns`], [`items`]); a
//! `compacted` line replaces the transcript so far with its `replacement_history` (or its
//! summary). Everything else is kept as stored and noted once per kind ([`NoteTally`](crate::load::note_tally::NoteTally)).

mod calls;
mod items;
#[cfg(test)]
mod items_tests;
#[cfg(test)]
mod small_tests;
#[cfg(test)]
mod tests;
mod turns;
#[cfg(test)]
mod walk_tests;

use std::path::PathBuf;

use crate::model::json::{Map, Value};

use crate::load::note_tally::NoteTally as Tally;
use crate::model::time::iso_to_ms;
use crate::model::{AppliedCompaction, Diagnostic, Entry, Location, Mapped, MappedMessage, ModelRef, Session};
use calls::Calls;
use turns::Draft;

/// The API every mapped assistant turn is recorded under.
const API: &str = "openai-responses";

/// Map a Codex rollout's stored lines into `session.mapped` (and its id into `session.id`).
pub fn map(session: &mut Session) {
    let mut walk = Walk::new(session.path.clone());
    for (i, entry) in session.entries.iter().enumerate() {
        walk.line(i, entry);
    }
    let (id, mapped) = walk.finish();
    if let Some(id) = id {
        session.id = id;
    }
    session.mapped = Some(mapped);
}

/// Where and when the item being mapped was stored.
#[derive(Debug, Clone, Copy)]
struct At {
    /// The line (a `compacted` line for items of its replacement history).
    loc: Location,
    /// The line's time in Unix ms (the last readable time before it when it has none).
    ms: i64,
    /// The index inside a `compacted` replacement history.
    sub: Option<usize>,
}

/// The state of the walk over a rollout's lines.
struct Walk {
    path: PathBuf,
    /// Whether the session's own `session_meta` (or bare-era header) was read.
    meta_seen: bool,
    session_id: Option<String>,
    provider: Option<String>,
    meta_cwd: Option<String>,
    turn_cwd: Option<String>,
    env_cwd: Option<String>,
    /// The model of the latest `turn_context` (or drift line) so far.
    model: Option<String>,
    messages: Vec<MappedMessage>,
    /// The assistant turn being built from consecutive assistant-side items.
    draft: Option<Draft>,
    calls: Calls,
    /// Lines that fed the transcript, and how many of them are in it now.
    fed: usize,
    live: usize,
    /// Lines whose messages compactions replaced, and how many compactions applied.
    cut: usize,
    compactions: usize,
    last_ms: Option<i64>,
    tally: Tally,
}

impl Walk {
    fn new(path: PathBuf) -> Self {
        Self {
            path,
            meta_seen: false,
            session_id: None,
            provider: None,
            meta_cwd: None,
            turn_cwd: None,
            env_cwd: None,
            model: None,
            messages: Vec::new(),
            draft: None,
            calls: Calls::default(),
            fed: 0,
            live: 0,
            cut: 0,
            compactions: 0,
            last_ms: None,
            tally: Tally::default(),
        }
    }

    /// Read one stored line.
    fn line(&mut self, index: usize, entry: &Entry) {
        let Some(obj) = entry.raw.as_object() else { return };
        let loc = entry.location;
        let stamp = obj.get("timestamp").or_else(|| obj.get("created_at"));
        let ms = stamp
            .and_then(Value::as_str)
            .and_then(iso_to_ms)
            .filter(|ms| ms.is_finite())
            .map(|ms| ms as i64);
        if ms.is_some() {
            self.last_ms = ms;
        }
        let at = At {
            loc,
            ms: ms.or(self.last_ms).unwrap_or(0),
            sub: None,
        };
        let fed_before = self.fed;
        match (obj.get("type").and_then(Value::as_str), obj.get("payload")) {
            (Some(ty), Some(payload)) => self.wrapped(ty, payload, at),
            _ => self.bare(index, obj, at),
        }
        if stamp.is_some() && ms.is_none() && self.fed > fed_before {
            self.tally.warn(
                "line with an unreadable `timestamp`",
                "its messages take the last readable time before it (0 when there is none)",
                loc,
            );
        }
    }

    /// A `{timestamp, type, payload}` line (the wrapped era).
    fn wrapped(&mut self, ty: &str, payload: &Value, at: At) {
        match ty {
            "session_meta" => self.session_meta(payload, at.loc),
            "turn_context" => {
                if let Some(model) = payload.get("model").and_then(Value::as_str) {
                    self.model = Some(model.to_owned());
                }
                if self.turn_cwd.is_none() {
                    self.turn_cwd = payload.get("cwd").and_then(Value::as_str).map(str::to_owned);
                }
                self.tally.note(
                    "`turn_context` line",
                    "per-turn settings (model, cwd, sandbox and approval policies), read here for the model and cwd; not a message; kept as stored",
                    at.loc,
                );
            }
            "response_item" => match payload.as_object() {
                Some(item) => self.response_item(at, item),
                None => self.bad_payload(ty, at.loc),
            },
            "compacted" => match payload.as_object() {
                Some(p) => self.compacted(at, p),
                None => self.bad_payload(ty, at.loc),
            },
            "event_msg" => {
                let sub = payload.get("type").and_then(Value::as_str).unwrap_or("(untyped)");
                self.tally.note_detail(
                    "`event_msg` line",
                    "Codex UI and telemetry events: what the UI showed (`user_message` echoes the input for display), not what the model was sent; kept as stored",
                    at.loc,
                    sub,
                );
            }
            "world_state" => self.tally.note(
                "`world_state` line",
                "an AGENTS.md / environment snapshot Codex renders into its own context; not a message; kept as stored",
                at.loc,
            ),
            t if t.starts_with("inter_agent_") => self.tally.note(
                &format!("`{t}` line"),
                "multi-agent plumbing, not sent to the model; kept as stored",
                at.loc,
            ),
            t => self.tally.note(
                &format!("`{t}` line"),
                "a rollout line type replaylens does not know; not mapped; kept as stored",
                at.loc,
            ),
        }
    }

    /// A line without an envelope: the bare-era header, state markers, bare response
    /// items, and the drift shapes (`created_at`, `role` + `message`, `function_call`…).
    fn bare(&mut self, index: usize, obj: &Map, at: At) {
        let header = index == 0 && !obj.contains_key("type") && !obj.contains_key("role") && obj.contains_key("id");
        if header {
            self.meta_seen = true;
            self.session_id = obj.get("id").and_then(Value::as_str).map(str::to_owned);
            return;
        }
        if let Some(rt) = obj.get("record_type") {
            self.tally.note_detail(
                "bare-era `record_type` line",
                "a state marker of the pre-envelope era, not sent to the model; kept as stored",
                at.loc,
                rt.as_str().unwrap_or("(not a string)"),
            );
            return;
        }
        if let Some(model) = obj.get("model").and_then(Value::as_str) {
            self.model = Some(model.to_owned());
        }
        if obj.contains_key("type") || obj.contains_key("role") {
            self.response_item(at, obj);
        } else {
            self.tally.note(
                "unrecognised line",
                "neither a rollout line nor a response item; not mapped; kept as stored",
                at.loc,
            );
        }
    }

    fn bad_payload(&mut self, ty: &str, at: Location) {
        self.tally.warn(
            &format!("`{ty}` line whose `payload` is not an object"),
            "there is no item in it to map; kept as stored",
            at,
        );
    }

    /// The session's first `session_meta` sets its id, provider and cwd; later ones
    /// (forks, resumes, sub-agent threads) are noted.
    fn session_meta(&mut self, payload: &Value, at: Location) {
        if self.meta_seen {
            self.tally.note(
                "further `session_meta` line",
                "a fork, resume or sub-agent thread recorded in this rollout; only the first `session_meta` describes this session; kept as stored",
                at,
            );
            return;
        }
        self.meta_seen = true;
        let text = |k: &str| payload.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
        self.session_id = text("id").or_else(|| text("session_id")).map(str::to_owned);
        self.provider = text("model_provider").map(str::to_owned);
        self.meta_cwd = text("cwd").map(str::to_owned);
    }

    /// A top-level response item: counted as a line that fed the transcript when mapped.
    fn response_item(&mut self, at: At, item: &Map) {
        if self.item(at, item) {
            self.fed += 1;
            self.live += 1;
        }
    }

    /// A `compacted` line: the transcript so far is replaced by its `replacement_history`,
    /// or, without one, by its `message` summary as one user turn.
    fn compacted(&mut self, at: At, payload: &Map) {
        self.flush();
        self.messages.clear();
        self.cut += self.live;
        self.live = 1;
        self.fed += 1;
        self.compactions += 1;
        self.tally.note(
            "`compacted` line (applied)",
            "replaces the transcript before it with its `replacement_history` (or, without one, its summary as a user turn); earlier lines are kept as stored but no longer sent",
            at.loc,
        );
        match payload.get("replacement_history").and_then(Value::as_array) {
            Some(history) => {
                for (i, item) in history.iter().enumerate() {
                    let at = At { sub: Some(i), ..at };
                    match item.as_object() {
                        Some(obj) => {
                            self.item(at, obj);
                        }
                        None => self.tally.warn(
                            "`replacement_history` entry that is not an object",
                            "not mapped; kept as stored",
                            at.loc,
                        ),
                    }
                }
            }
            None => {
                let summary = payload.get("message").and_then(Value::as_str).unwrap_or_default();
                if summary.is_empty() {
                    self.tally.warn(
                        "`compacted` line with neither `replacement_history` nor a summary",
                        "the transcript before it is replaced by an empty user turn",
                        at.loc,
                    );
                }
                self.summary_turn(at, summary);
            }
        }
    }

    /// Close the walk: the open assistant turn, the model, cwd, compaction and notes.
    fn finish(mut self) -> (Option<String>, Mapped) {
        self.flush();
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        if self.messages.is_empty() {
            diagnostics.push(Diagnostic::note(
                &self.path,
                None,
                "no `response_item` or `compacted` line records what was sent to the model, so the mapped transcript is empty (`event_msg` lines are what the UI showed)",
            ));
        }
        diagnostics.extend(std::mem::take(&mut self.tally).into_diagnostics(&self.path));
        let compaction = (self.compactions > 0).then_some(AppliedCompaction {
            entry_id: None,
            kind: "compaction",
            first_kept_entry_id: None,
            entries_cut: self.cut,
        });
        let mapped = Mapped {
            messages: self.messages,
            model: ModelRef {
                provider: Some(self.provider.unwrap_or_else(|| "openai".to_owned())),
                api: Some(API.to_owned()),
                model: self.model,
            },
            cwd: self.meta_cwd.or(self.turn_cwd).or(self.env_cwd),
            leaf_id: None,
            branch_len: self.fed,
            compaction,
            diagnostics,
        };
        (self.session_id, mapped)
    }
}
