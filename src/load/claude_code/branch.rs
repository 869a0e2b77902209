//! Which stored lines make the conversation: Claude Code's `uuid` / `parentUuid` tree,
//! walked from the leaf, or the file order when the file has no usable tree.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::model::json::Value;

use crate::model::{Diagnostic, Entry};

/// The active branch: indices into `session.entries`, root first.
#[derive(Debug, Default)]
pub(super) struct Branch {
    /// Every line on the branch (conversation or not), root first.
    pub path: Vec<usize>,
    /// The `system/compact_boundary` line the branch starts after, if any.
    pub boundary: Option<usize>,
    /// The uuid of the leaf line.
    pub leaf_id: Option<String>,
    /// Problems met while walking (dangling parents, cycles, duplicate uuids).
    pub diagnostics: Vec<Diagnostic>,
    /// Lines put back on the branch as parts of a parallel tool-call group ([`siblings`]).
    pub recovered: usize,
}

/// Whether a line is a turn of the conversation (what the model was sent or wrote).
pub(super) fn is_conversation(e: &Entry) -> bool {
    match e.type_str() {
        Some("user" | "assistant") => e.raw.get("message").is_some_and(Value::is_object),
        Some("tool_use" | "tool_result") => true,
        _ => false,
    }
}

/// Whether a line is an attachment Claude Code sends to the model (a prompt queued while the
/// agent worked can be the last line of the conversation).
pub(super) fn is_sent_attachment(e: &Entry) -> bool {
    super::attachments::attachment(e)
        .and_then(super::attachments::sent_content)
        .is_some()
}

/// Whether a line belongs to a sub-agent's conversation.
pub(super) fn is_sidechain(e: &Entry) -> bool {
    e.raw.get("isSidechain").and_then(Value::as_bool) == Some(true)
}

/// Whether a line is a compaction boundary.
pub(super) fn is_boundary(e: &Entry) -> bool {
    e.type_str() == Some("system") && e.str_field("subtype") == Some("compact_boundary")
}

pub(super) fn uuid(e: &Entry) -> Option<&str> {
    e.raw.get("uuid").and_then(Value::as_str)
}

/// Find the active branch.
pub(super) fn active_branch(path: &Path, entries: &[Entry]) -> Branch {
    let mut branch = Branch::default();
    let main_only = entries.iter().any(|e| is_conversation(e) && !is_sidechain(e));
    let Some(leaf) = entries
        .iter()
        .rposition(|e| (is_conversation(e) || is_sent_attachment(e)) && !(main_only && is_sidechain(e)))
    else {
        return branch;
    };
    branch.leaf_id = uuid(&entries[leaf]).map(str::to_owned);

    let mut by_id: HashMap<&str, usize> = HashMap::with_capacity(entries.len());
    let mut duplicated: Option<&str> = None;
    for (i, e) in entries.iter().enumerate() {
        if let Some(id) = uuid(e)
            && by_id.insert(id, i).is_some()
            && duplicated.is_none()
        {
            duplicated = Some(id);
        }
    }
    let has_tree = entries
        .iter()
        .any(|e| is_conversation(e) && e.raw.get("parentUuid").is_some_and(Value::is_string));
    if let Some(id) = duplicated {
        branch.diagnostics.push(Diagnostic::warning(
            path,
            None,
            format!("uuid {id:?} is used by more than one line, so the parentUuid tree can't be followed; the conversation is read in file order"),
        ));
    }
    if duplicated.is_some() || !has_tree {
        linear(entries, leaf, main_only, &mut branch);
    } else {
        walk(path, entries, leaf, &by_id, &mut branch);
        branch.recovered = super::siblings::recover(entries, main_only, &mut branch.path);
    }
    branch
}

/// File order: every line after the last compaction boundary up to the leaf, sub-agent
/// lines left out unless the file is one sub-agent's conversation.
fn linear(entries: &[Entry], leaf: usize, main_only: bool, branch: &mut Branch) {
    let start = entries[..leaf].iter().rposition(is_boundary);
    branch.boundary = start;
    let from = start.map_or(0, |b| b + 1);
    branch.path = (from..=leaf)
        .filter(|&i| !(main_only && is_sidechain(&entries[i])))
        .collect();
}

/// Leaf → root through `parentUuid`; a line without the field follows the line before it.
fn walk(path: &Path, entries: &[Entry], leaf: usize, by_id: &HashMap<&str, usize>, branch: &mut Branch) {
    let mut seen = HashSet::new();
    let mut cursor = Some(leaf);
    while let Some(i) = cursor {
        if !seen.insert(i) {
            branch.diagnostics.push(Diagnostic::warning(
                path,
                Some(entries[i].location),
                "the parentUuid links form a cycle; the branch stops here",
            ));
            break;
        }
        branch.path.push(i);
        let e = &entries[i];
        cursor = match e.raw.get("parentUuid") {
            None => i.checked_sub(1),
            Some(Value::String(p)) => match by_id.get(p.as_str()) {
                Some(&parent) => Some(parent),
                None => {
                    branch.diagnostics.push(Diagnostic::warning(
                        path,
                        Some(e.location),
                        format!("parentUuid {p} names no line; the branch starts here"),
                    ));
                    None
                }
            },
            Some(_) => None,
        };
    }
    branch.path.reverse();
    if let Some(&root) = branch.path.first()
        && is_boundary(&entries[root])
    {
        branch.boundary = Some(root);
    }
}
