//! The active branch of a file holding leaf controls (`type: "leaf"` entries), as OpenClaw's
//! codec selects it: a port of `scanSessionTranscriptNavigation`,
//! `selectSessionTranscriptActiveEntries` and `selectSessionTranscriptLeafControlledPath`
//! (`src/config/sessions/transcript-tree.ts`). Once a file holds a leaf control, every entry's
//! parent is normalized while the file is scanned: a canonical entry without a `parentId`
//! field, or whose parent is unknown, continues the current leaf; after a `reset`, an entry
//! whose parent is not a descendant of the reset continues the current leaf; a parent that is
//! a leaf control stands for that control's target. A leaf control naming an entry not seen
//! before it is ignored.

use std::collections::{HashMap, HashSet};

use crate::model::json::Value;

use super::entry::{Entry, EntryKind};

/// One node of the scanned tree.
#[derive(Debug, Clone)]
struct Node {
    id: String,
    parent: Option<String>,
    /// `Some(leaf)` when the node moves the leaf (`Some(None)`: to no entry).
    leaf: Option<Option<String>>,
    append_parent: Option<String>,
    side: bool,
    index: usize,
    control: bool,
}

/// `readNonBlankString`: a string with something besides whitespace.
fn non_blank(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .map(str::to_owned)
}

/// `isCanonicalSessionEntryType`.
fn is_canonical(e: &Entry) -> bool {
    matches!(
        e.kind(),
        EntryKind::Message
            | EntryKind::ThinkingLevelChange
            | EntryKind::ModelChange
            | EntryKind::Compaction
            | EntryKind::Reset
            | EntryKind::BranchSummary
            | EntryKind::Custom
            | EntryKind::CustomMessage
            | EntryKind::Label
            | EntryKind::SessionInfo
    )
}

/// An entry's `parentId` field.
enum ParentField {
    /// No such field.
    Absent,
    /// `null`.
    Null,
    /// A non-blank string.
    Id(String),
    /// Anything else (`readNonBlankString` refuses it).
    Invalid,
}

fn parent_field(e: &Entry) -> ParentField {
    if e.message_only {
        // Only entries stored with a `parentId` field are kept message-only
        // (`Entry::keep_message_only`); its string value is `parent_id`.
        return match e.parent_id.as_deref() {
            Some(p) if !p.trim().is_empty() => ParentField::Id(p.to_owned()),
            Some(_) => ParentField::Invalid,
            None => ParentField::Null,
        };
    }
    match e.raw.get("parentId") {
        None => ParentField::Absent,
        Some(Value::Null) => ParentField::Null,
        other => non_blank(other).map_or(ParentField::Invalid, ParentField::Id),
    }
}

/// `parseSessionTranscriptTreeEntry`.
fn tree_entry(e: &Entry, index: usize) -> Option<Node> {
    if e.kind() == EntryKind::Session {
        return None;
    }
    let parent = match parent_field(e) {
        ParentField::Absent | ParentField::Invalid => return None,
        ParentField::Null => None,
        ParentField::Id(p) => Some(p),
    };
    let id = e.id.as_deref().filter(|s| !s.trim().is_empty())?.to_owned();
    if e.kind() == EntryKind::Leaf {
        let target = match e.raw.get("targetId") {
            Some(Value::Null) => None,
            other => Some(non_blank(other)?),
        };
        let append_parent = match e.raw.get("appendParentId") {
            None => target.clone(),
            Some(Value::Null) => None,
            other => Some(non_blank(other)?),
        };
        let side = match e.raw.get("appendMode") {
            None => false,
            Some(v) if v.as_str() == Some("side") => true,
            Some(_) => return None,
        };
        return Some(Node {
            id,
            parent: target.clone(),
            leaf: Some(target),
            append_parent,
            side,
            index,
            control: true,
        });
    }
    let side = e.is_side_append();
    Some(Node {
        leaf: (is_canonical(e) && !side).then(|| Some(id.clone())),
        append_parent: Some(id.clone()),
        id,
        parent,
        side,
        index,
        control: false,
    })
}

/// `isSessionTranscriptLeafControl`.
fn is_control(e: &Entry, index: usize) -> bool {
    e.kind() == EntryKind::Leaf && tree_entry(e, index).is_some()
}

/// Whether the file holds a leaf control: only then does OpenClaw select the branch this way.
pub(crate) fn has_leaf_control(entries: &[Entry]) -> bool {
    entries.iter().enumerate().any(|(i, e)| is_control(e, i))
}

/// `resolveCanonicalParentId`: a parent that is a leaf control stands for its target.
fn canonical_parent(parent: Option<String>, by_id: &HashMap<String, Node>) -> Option<String> {
    let mut seen = HashSet::new();
    let mut current = parent;
    while let Some(id) = current.clone() {
        if !seen.insert(id.clone()) {
            return Some(id);
        }
        match by_id.get(&id) {
            Some(node) if node.control => current = node.parent.clone(),
            _ => return Some(id),
        }
    }
    None
}

/// The entries OpenClaw's codec keeps for a file holding leaf controls, in order, each with
/// its normalized parent; `buildSessionContext` then walks them from the last one. `None`
/// when no leaf control names an entry seen before it: the file is then read as one without
/// (`selectSessionTranscriptLeafControlledPath`).
pub(crate) fn selected(entries: &[Entry]) -> Option<Vec<(usize, Option<String>)>> {
    let mut by_id: HashMap<String, Node> = HashMap::new();
    let mut invalid: HashSet<String> = HashSet::new();
    let mut reset_descendants: HashSet<String> = HashSet::new();
    let mut leaf: Option<String> = None;
    let mut append_parent: Option<String> = None;
    let mut explicit_update = false;
    let mut latest_reset: Option<String> = None;
    let mut any_control = false;
    for (index, e) in entries.iter().enumerate() {
        let mut explicit = tree_entry(e, index);
        let control = e.kind() == EntryKind::Leaf && explicit.is_some();
        if let Some(node) = explicit.as_mut()
            && latest_reset.is_some()
            && leaf.is_some()
            && control
            && node
                .leaf
                .as_ref()
                .is_some_and(|l| l.as_ref().is_none_or(|l| !reset_descendants.contains(l)))
        {
            node.parent = leaf.clone();
            node.leaf = Some(leaf.clone());
            node.append_parent = leaf.clone();
        }
        let known = |id: &Option<String>| {
            id.as_ref()
                .is_none_or(|id| by_id.contains_key(id) && !invalid.contains(id))
        };
        if let Some(node) = &explicit
            && control
            && (!known(node.leaf.as_ref().unwrap_or(&None)) || !known(&node.append_parent))
        {
            invalid.insert(node.id.clone());
            let raw_parent = e.parent_id.as_deref().map(str::to_owned);
            let node = Node {
                parent: raw_parent,
                leaf: None,
                append_parent: append_parent.clone(),
                ..node.clone()
            };
            by_id.insert(node.id.clone(), node.clone());
            continue;
        }
        let from_file = explicit.is_some();
        let mut node = match explicit {
            Some(n) => n,
            None if is_canonical(e) && matches!(parent_field(e), ParentField::Absent) => {
                let Some(id) = e.id.as_deref().filter(|s| !s.trim().is_empty()) else {
                    continue;
                };
                let side = e.is_side_append();
                Node {
                    id: id.to_owned(),
                    parent: leaf.clone(),
                    leaf: (!side).then(|| Some(id.to_owned())),
                    append_parent: Some(id.to_owned()),
                    side,
                    index,
                    control: false,
                }
            }
            None => continue,
        };
        if is_canonical(e) {
            let stale = from_file && node.parent.as_ref().is_some_and(|p| !by_id.contains_key(p)) && leaf.is_some();
            // After a reset, a parent outside the reset's descendants; a parent not seen yet; or
            // the append parent while the leaf moved elsewhere: the entry continues the leaf.
            let after_reset =
                latest_reset.is_some() && node.parent.as_ref().is_none_or(|p| !reset_descendants.contains(p));
            let moved = from_file && node.parent == append_parent && leaf != append_parent;
            let wanted = if !node.side && (after_reset || stale || moved) {
                leaf.clone()
            } else {
                node.parent.clone()
            };
            node.parent = canonical_parent(wanted, &by_id);
        }
        if e.kind() == EntryKind::Reset {
            latest_reset = Some(node.id.clone());
            reset_descendants.clear();
            reset_descendants.insert(node.id.clone());
        } else if latest_reset.is_some() && node.parent.as_ref().is_some_and(|p| reset_descendants.contains(p)) {
            reset_descendants.insert(node.id.clone());
        }
        append_parent = node.append_parent.clone();
        if let Some(l) = &node.leaf {
            leaf = l.clone();
            if from_file {
                explicit_update = true;
            }
        }
        any_control |= control;
        by_id.insert(node.id.clone(), node.clone());
    }
    if !any_control {
        return None;
    }
    let normalized = |i: usize| -> Option<String> {
        let e = &entries[i];
        match e.id.as_deref().and_then(|id| by_id.get(id)) {
            Some(node) => node.parent.clone(),
            None => e.parent_id.as_deref().map(str::to_owned),
        }
    };
    if !explicit_update {
        return Some((0..entries.len()).map(|i| (i, normalized(i))).collect());
    }
    let path = tree_path(&by_id, leaf);
    let mut out: Vec<usize> = path.iter().map(|n| n.index).collect();
    let first = path.first().map_or(0, |n| n.index);
    for index in (0..first).rev() {
        let e = &entries[index];
        match e.kind() {
            EntryKind::Compaction => {
                out.insert(0, index);
                break;
            }
            EntryKind::Reset => {
                let kept =
                    e.id.as_deref()
                        .zip(e.first_kept_entry_id.as_deref())
                        .and_then(|(reset, first_kept)| {
                            let reset_path = tree_path(&by_id, Some(reset.to_owned()));
                            let start = reset_path.iter().position(|n| n.id == first_kept)?;
                            Some(reset_path[start..].iter().map(|n| n.index).collect::<Vec<_>>())
                        });
                match kept {
                    Some(kept) => {
                        out.splice(0..0, kept);
                    }
                    None => out.insert(0, index),
                }
                break;
            }
            _ => {}
        }
    }
    Some(out.into_iter().map(|i| (i, normalized(i))).collect())
}

/// `selectSessionTranscriptTreePathNodes`: root → `leaf`, leaf controls left out; empty on a
/// cycle.
fn tree_path(by_id: &HashMap<String, Node>, leaf: Option<String>) -> Vec<Node> {
    let mut path = Vec::new();
    let mut seen = HashSet::new();
    let mut current = leaf;
    while let Some(id) = current {
        if !seen.insert(id.clone()) {
            return Vec::new();
        }
        let Some(node) = by_id.get(&id) else { break };
        if !node.control {
            path.push(node.clone());
        }
        current = node.parent.clone();
    }
    path.reverse();
    path
}
