//! The active branch of a session's entry tree, walked as OpenClaw's session codec
//! (`buildSessionContext`) walks it: from the leaf its leaf controls select, from the leaf a
//! SQLite store or a pi core v4 file records, else from the last line, up the parent links.

use std::collections::{HashMap, HashSet};

use crate::model::json::Value;

use super::diagnostic::Diagnostic;
use super::entry::{Entry, EntryKind};
use super::leaf_controls::{has_leaf_control, selected as leaf_controls_selected};
use super::session::Session;
use super::transcript::Transcript;

impl Session {
    /// Walk leaf → root and return the path root → leaf.
    pub(super) fn active_path(&self, t: &mut Transcript<'_>) -> Vec<&Entry> {
        let mut by_id: HashMap<&str, &Entry> = HashMap::with_capacity(self.entries.len());
        let mut last_tree_id: Option<&str> = None;
        // The first few reused ids are warned about one by one; the rest are counted into one
        // warning, so a file of a million reused ids is not a million lines on stderr.
        const LISTED_REUSES: usize = 5;
        let (mut reused, mut more_at) = (0usize, Vec::new());
        for e in &self.entries {
            if let Some(id) = e.id.as_deref() {
                if let Some(prev) = by_id.insert(id, e) {
                    reused += 1;
                    if reused <= LISTED_REUSES {
                        t.diagnostics.push(Diagnostic::warning(
                            &self.path,
                            Some(e.location),
                            format!(
                                "entry id {id} is used again (first at {}); the later entry wins",
                                prev.location
                            ),
                        ));
                    } else if more_at.len() < LISTED_REUSES {
                        more_at.push(e.location.to_string());
                    }
                }
                if e.kind() != EntryKind::Leaf && !e.is_side_append() {
                    last_tree_id = Some(id);
                }
            }
        }
        if reused > LISTED_REUSES {
            let more = reused - LISTED_REUSES;
            let rest = if more > more_at.len() { ", …" } else { "" };
            t.diagnostics.push(Diagnostic::warning(
                &self.path,
                None,
                format!(
                    "{more} more entries reuse an earlier entry's id ({}{rest}); the later entry wins each time",
                    more_at.join(", ")
                ),
            ));
        }
        // OpenClaw's codec (`buildSessionContext`): in a file holding leaf controls, the entries
        // and parents `leaf_controls::selected` keeps, walked from the last one; in any other
        // file, the raw parent links walked from the last line. A SQLite store's rows are read
        // the same way (its `transcript_events` in `seq` order are the lines; the loader
        // differential holds it against `ReadOnlySqliteTranscriptReader` + the codec). A pi
        // core v4 file keeps the leaf its lane lines record (a format OpenClaw's codec does
        // not read).
        let mut normalized: Option<HashMap<*const Entry, Option<String>>> = None;
        let leaf = if self.format == super::session::SessionFormat::PiCoreV4 {
            match &self.explicit_leaf {
                Some(explicit) => explicit.as_deref(),
                None => last_tree_id,
            }
        } else if let Some(selected) = has_leaf_control(&self.entries)
            .then(|| leaf_controls_selected(&self.entries))
            .flatten()
        {
            by_id.clear();
            let mut parents = HashMap::with_capacity(selected.len());
            for (i, parent) in &selected {
                let e = &self.entries[*i];
                if let Some(id) = e.id.as_deref() {
                    by_id.insert(id, e);
                }
                parents.insert(e as *const Entry, parent.clone());
            }
            normalized = Some(parents);
            match selected.last() {
                Some((i, _)) => self.entries[*i].id.as_deref(),
                None => None,
            }
        } else {
            match self.entries.last() {
                Some(last) if last.id.is_some() => last.id.as_deref(),
                // A last line without an id: OpenClaw walks from it, and it has no parent
                // (`parentId` aside) on any branch.
                Some(last) => {
                    t.leaf_id = None;
                    let mut path = vec![last];
                    if let Some(parent) = last.parent_id.as_deref().and_then(|p| by_id.get(p)) {
                        path.extend(self.walk(parent, &by_id, None, t));
                    }
                    path.reverse();
                    return path;
                }
                None => None,
            }
        };
        t.leaf_id = leaf.map(str::to_owned);
        let Some(start) = leaf.and_then(|id| {
            let found = by_id.get(id).copied();
            if found.is_none() {
                t.diagnostics.push(Diagnostic::warning(
                    &self.path,
                    None,
                    format!("the leaf {id} names no entry; the active branch is empty"),
                ));
            }
            found
        }) else {
            return Vec::new();
        };
        let mut path = self.walk(start, &by_id, normalized.as_ref(), t);
        path.reverse();
        path
    }

    /// The entries from `start` up its parent links (leaf first); `normalized` replaces each
    /// entry's parent when given.
    fn walk<'e>(
        &'e self,
        start: &'e Entry,
        by_id: &HashMap<&str, &'e Entry>,
        normalized: Option<&HashMap<*const Entry, Option<String>>>,
        t: &mut Transcript<'_>,
    ) -> Vec<&'e Entry> {
        let mut path = Vec::new();
        let mut seen = HashSet::new();
        let mut cursor = Some(start);
        while let Some(e) = cursor {
            if !seen.insert(e.id.as_deref()) {
                t.diagnostics.push(Diagnostic::warning(
                    &self.path,
                    Some(e.location),
                    "the parent links form a cycle; the branch stops here",
                ));
                break;
            }
            path.push(e);
            let parent = match normalized {
                Some(parents) => parents.get(&(e as *const Entry)).cloned().flatten(),
                None => e.parent_id.as_deref().map(str::to_owned),
            };
            cursor = match parent.as_deref() {
                None => None,
                Some(p) => match by_id.get(p) {
                    Some(parent) => Some(*parent),
                    None => {
                        if self.header.as_ref().and_then(|h| h.get("id")).and_then(Value::as_str) != Some(p) {
                            t.diagnostics.push(Diagnostic::warning(
                                &self.path,
                                Some(e.location),
                                format!("parentId {p} names no entry; the active branch starts here"),
                            ));
                        }
                        None
                    }
                },
            };
        }
        path
    }
}
