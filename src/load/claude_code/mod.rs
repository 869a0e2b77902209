//! Claude Code sessions (`~/.claude/projects`, `docs/internals.md`), mapped into the common model.
//!
//! Every line stays in `session.entries` as stored. The mapping walks the active branch
//! ([`branch`]), turns its conversation lines into OpenClaw messages ([`messages`]) that
//! name the lines they came from, and notes every line and block it kept without mapping.

mod attachments;
mod blocks;
mod branch;
mod messages;
#[cfg(test)]
mod parallel_tests;
mod siblings;
#[cfg(test)]
mod tests;

use std::collections::HashSet;

use crate::model::json::Value;

use crate::model::{AppliedCompaction, Entry, Mapped, ModelRef, Session};

/// Map a Claude Code session's stored lines into `session.mapped`.
pub fn map(session: &mut Session) {
    let entries = &session.entries;
    let branch = branch::active_branch(&session.path, entries);
    let mut builder = messages::Builder::new(entries);
    let mut sent = HashSet::new();
    for &i in &branch.path {
        let attachment = attachments::attachment(&entries[i]);
        if let Some(content) = attachment.and_then(attachments::sent_content) {
            let kind = attachment.and_then(attachments::kind).unwrap_or_default();
            builder.notes.note(
                &format!("`attachment/{kind}` line (sent)"),
                "Claude Code sends it to the model as a user message (`normalizeAttachmentForAPI`); mapped as user content",
                entries[i].location,
            );
            builder.attachment(&entries[i], content);
            sent.insert(i);
        } else if branch::is_conversation(&entries[i]) {
            builder.push(&entries[i]);
            if entries[i].raw.get("toolUseResult").is_some() {
                builder.notes.note(
                    "`toolUseResult` payload",
                    "Claude Code's structured tool result for its own display; the model is sent the `tool_result` block, which is mapped; kept as stored",
                    entries[i].location,
                );
            }
        }
    }
    let on_branch: HashSet<usize> = branch.path.iter().copied().collect();
    let main_only = entries
        .iter()
        .any(|e| branch::is_conversation(e) && !branch::is_sidechain(e));
    let mut notes = std::mem::take(&mut builder.notes);
    for (i, e) in entries.iter().enumerate() {
        if on_branch.contains(&i) && branch::is_conversation(e) || sent.contains(&i) {
            continue;
        }
        let (kind, what) = describe_unmapped(e, Some(i) == branch.boundary, main_only);
        notes.note(&kind, what, e.location);
    }

    let compaction = branch.boundary.map(|b| AppliedCompaction {
        entry_id: entries[b].str_field("uuid").map(Into::into),
        kind: "compaction",
        first_kept_entry_id: None,
        entries_cut: entries[..b].iter().filter(|e| branch::is_conversation(e)).count(),
    });
    let model = ModelRef {
        provider: Some("anthropic".into()),
        api: Some("anthropic-messages".into()),
        model: latest_model(&builder.messages).or_else(|| any_model(entries)),
    };
    let cwd = branch
        .path
        .iter()
        .rev()
        .copied()
        .chain(0..entries.len())
        .find_map(|i| entries[i].str_field("cwd"))
        .map(str::to_owned);
    if let Some(id) = entries.iter().find_map(|e| e.str_field("sessionId")) {
        session.id = id.to_owned();
    }
    let mut diagnostics = branch.diagnostics;
    if branch.recovered > 0 {
        diagnostics.push(crate::model::Diagnostic::note(
            &session.path,
            None,
            format!(
                "{} line(s) of parallel tool calls hang off the parentUuid chain (calls sharing `message.id` with a line on it, and their results); they are on the active branch, as Claude Code reads it",
                branch.recovered
            ),
        ));
    }
    if !entries.iter().any(branch::is_conversation) {
        let stub = if entries.iter().any(|e| e.type_str() == Some("teleported-from")) {
            " (a `teleported-from` stub: the conversation stayed in the cloud session it names)"
        } else {
            ""
        };
        diagnostics.push(crate::model::Diagnostic::note(
            &session.path,
            None,
            format!("an empty Claude Code session: no user or assistant line{stub}"),
        ));
    }
    diagnostics.extend(notes.into_diagnostics(&session.path));
    session.mapped = Some(Mapped {
        messages: builder.messages,
        model,
        cwd,
        leaf_id: branch.leaf_id,
        branch_len: branch.path.len(),
        compaction,
        diagnostics,
    });
}

/// The kind and the sentence a line that is not a mapped turn is noted with.
/// `main_only`: the file holds main-conversation lines (a sub-agent's own file does not, and
/// its lines off the branch are not "sub-agent lines" of another conversation).
fn describe_unmapped(e: &Entry, boundary: bool, main_only: bool) -> (String, &'static str) {
    if branch::is_conversation(e) {
        return if main_only && branch::is_sidechain(e) {
            (
                "sub-agent (`isSidechain`) line".into(),
                "a sub-agent's own conversation, not this one's; kept as stored",
            )
        } else {
            (
                "conversation line off the active branch".into(),
                "before a compaction boundary, or on an abandoned rewind branch; not sent with the latest request; kept as stored",
            )
        };
    }
    if boundary {
        return (
            "`system/compact_boundary` line (applied)".into(),
            "the compaction the active branch starts after; earlier turns are not sent",
        );
    }
    if matches!(e.type_str(), Some("user" | "assistant")) {
        return (
            format!("`{}` line without a message object", e.type_str().unwrap_or_default()),
            "there is no message in it to map; kept as stored",
        );
    }
    if let Some(a) = attachments::attachment(e) {
        return (
            format!("`attachment/{}` line", attachments::kind(a).unwrap_or("?")),
            "an attachment Claude Code does not send to the model (or one off the active branch); kept as stored",
        );
    }
    let kind = match (e.type_str(), e.str_field("subtype")) {
        (Some(t), Some(sub)) => format!("`{t}/{sub}` line"),
        (Some(t), None) => format!("`{t}` line"),
        (None, _) => "untyped line".into(),
    };
    let what = match e.type_str() {
        Some("summary") => "a session title for `--resume`, not a compaction; not sent to the model",
        _ => "Claude Code bookkeeping, not sent to the model; kept as stored",
    };
    (kind, what)
}

/// The model of the latest assistant reply that came from a real model.
fn latest_model(messages: &[crate::model::MappedMessage]) -> Option<String> {
    messages
        .iter()
        .rev()
        .filter_map(|m| m.message.model())
        .find(|m| !m.starts_with('<') && *m != "unknown")
        .map(str::to_owned)
}

/// Any real model named in the file, latest first (for sessions whose branch has none).
fn any_model(entries: &[Entry]) -> Option<String> {
    entries
        .iter()
        .rev()
        .filter_map(|e| {
            e.raw
                .get("message")
                .and_then(|m| m.get("model"))
                .and_then(Value::as_str)
        })
        .find(|m| !m.starts_with('<') && !m.starts_with('['))
        .map(str::to_owned)
}
