//! Parallel tool calls put back on the branch.
//!
//! Claude Code 2.1.x writes one API response as a chain of assistant lines, one per content
//! block, all sharing `message.id`; the result of each parallel call names its own call's
//! line as `parentUuid`. The `parentUuid` walk from the leaf therefore passes through only
//! one chain of the group: the other calls' lines and their results hang off it. Claude
//! Code's own reader (`buildConversationChain` in its session storage, and its post-pass
//! `recoverOrphanedParallelToolResults`) adds them back: every line that shares `message.id`
//! with an assistant line on the branch, and every tool-result line whose `parentUuid` is one
//! of the group's lines. This module does the same (docs/internals.md, "Claude Code").

use std::collections::{HashMap, HashSet};

use crate::model::Entry;
use crate::model::json::Value;

use super::branch::{is_sidechain, uuid};

/// The Anthropic `message.id` of an assistant line.
fn response_id(e: &Entry) -> Option<&str> {
    if e.type_str() != Some("assistant") {
        return None;
    }
    e.raw.get("message")?.get("id")?.as_str()
}

/// Whether a line is a user line carrying a `tool_result` block.
fn is_tool_result_line(e: &Entry) -> bool {
    e.type_str() == Some("user")
        && e.raw
            .get("message")
            .and_then(|m| m.get("content"))
            .and_then(Value::as_array)
            .is_some_and(|c| {
                c.iter()
                    .any(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
            })
}

/// Add the parallel-call lines that hang off `path` (indices into `entries`, root first)
/// and return how many were added. Each group's missing lines go right after the group's
/// last line on the branch: its assistant lines first, then its tool-result lines merged
/// with the tool-result lines that follow on the branch, each in file order. Sub-agent lines
/// stay out when `main_only`.
pub(super) fn recover(entries: &[Entry], main_only: bool, path: &mut Vec<usize>) -> usize {
    let on_branch: HashSet<usize> = path.iter().copied().collect();
    let eligible = |i: usize| !(on_branch.contains(&i) || main_only && is_sidechain(&entries[i]));
    let mut group_of: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut results_of: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        if let Some(id) = response_id(e) {
            group_of.entry(id).or_default().push(i);
        } else if is_tool_result_line(e)
            && let Some(parent) = e.raw.get("parentUuid").and_then(Value::as_str)
        {
            results_of.entry(parent).or_default().push(i);
        }
    }
    // The last line of each group on the branch: where its missing lines go.
    let mut anchor: HashMap<&str, usize> = HashMap::new();
    for (at, &i) in path.iter().enumerate() {
        if let Some(id) = response_id(&entries[i]) {
            anchor.insert(id, at);
        }
    }
    let mut taken: HashSet<usize> = HashSet::new();
    let mut inserts: HashMap<usize, (Vec<usize>, Vec<usize>)> = HashMap::new();
    let mut groups: Vec<(&str, usize)> = anchor.iter().map(|(&id, &at)| (id, at)).collect();
    groups.sort_by_key(|&(_, at)| at);
    for (id, at) in groups {
        let members = group_of.get(id).map_or(&[][..], Vec::as_slice);
        let lines: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&i| eligible(i) && taken.insert(i))
            .collect();
        let mut results = Vec::new();
        for &m in members {
            let Some(u) = uuid(&entries[m]) else { continue };
            for &r in results_of.get(u).map_or(&[][..], Vec::as_slice) {
                if eligible(r) && taken.insert(r) {
                    results.push(r);
                }
            }
        }
        if !lines.is_empty() || !results.is_empty() {
            inserts.insert(at, (lines, results));
        }
    }
    if inserts.is_empty() {
        return 0;
    }
    let old = std::mem::take(path);
    let mut at = 0;
    while at < old.len() {
        path.push(old[at]);
        let Some((lines, mut results)) = inserts.remove(&at) else {
            at += 1;
            continue;
        };
        path.extend(lines);
        at += 1;
        while at < old.len() && is_tool_result_line(&entries[old[at]]) && !inserts.contains_key(&at) {
            results.push(old[at]);
            at += 1;
        }
        results.sort_unstable();
        path.extend(results);
    }
    taken.len()
}
