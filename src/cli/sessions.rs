//! `replaylens sessions [PATH]`.

use std::io::Write;
use std::path::Path;

use replaylens::load::discover::{self, Listing};
use replaylens::model::Agent;
use replaylens::text::escape_controls_single_line as esc;

/// List sessions at `path`, or in every agent's default location (newest first).
pub fn run(path: Option<&Path>, json: bool) -> anyhow::Result<()> {
    let listings = match path {
        Some(p) => discover::list_path(p)?,
        None => {
            let found = discover::list_default();
            if found.is_empty() && !json {
                eprintln!("{}", nothing_found());
                return Ok(());
            }
            found
        }
    };
    let mut out = std::io::stdout().lock();
    if json {
        super::print_json(&listings)?;
        return Ok(());
    }
    print_table(&mut out, &listings)?;
    Ok(())
}

/// The message when the default locations hold no session: every root searched, and the
/// variable that moves it.
fn nothing_found() -> String {
    let roots = discover::default_roots();
    let searched: Vec<String> = [Agent::OpenClaw, Agent::ClaudeCode, Agent::Codex]
        .into_iter()
        .map(|agent| {
            let var = discover::root_env_var(agent).unwrap_or_default();
            match roots.iter().find(|(a, _)| *a == agent) {
                Some((_, root)) => format!("{} ({}, ${var})", esc(&root.display().to_string()), agent.name()),
                None => format!("{} (no home folder; set ${var})", agent.name()),
            }
        })
        .collect();
    format!(
        "no sessions found under {}; set those variables, or pass a file or folder",
        searched.join(", ")
    )
}

/// The SESSION cell: the id, then what the row is besides a live session.
fn session_cell(l: &Listing) -> String {
    let mut id = l.id.clone();
    if let Some(parent) = &l.parent {
        let short: String = parent.chars().take(8).collect();
        id.push_str(&format!(" (sub-agent of {short})"));
    }
    if let Some(a) = &l.archive {
        id.push_str(&format!(" ({a})"));
    }
    id
}

const HEADER: [&str; 9] = [
    "SESSION", "AGENT", "UPDATED", "MSGS", "MODEL", "CWD", "FORMAT", "SKIPPED", "PATH",
];
const NUMERIC: [usize; 2] = [3, 7];

fn print_table(out: &mut impl Write, listings: &[Listing]) -> std::io::Result<()> {
    let dash = || "-".to_owned();
    let rows: Vec<[String; 9]> = listings
        .iter()
        .map(|l| {
            let agent = l.agent.map_or_else(dash, str::to_owned);
            let path = l.path.display().to_string();
            match &l.error {
                Some(_) => [
                    session_cell(l),
                    agent,
                    dash(),
                    dash(),
                    dash(),
                    dash(),
                    "unreadable".into(),
                    dash(),
                    path,
                ],
                None => [
                    session_cell(l),
                    agent,
                    l.updated.clone().unwrap_or_else(dash),
                    l.messages.to_string(),
                    l.model.clone().unwrap_or_else(dash),
                    l.cwd.clone().unwrap_or_else(dash),
                    l.format.unwrap_or("-").to_owned(),
                    l.skipped.to_string(),
                    path,
                ],
            }
            .map(|cell| esc(&cell).into_owned())
        })
        .collect();
    let mut widths = HEADER.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let last = HEADER.len() - 1;
    let line = |cells: [&str; 9]| {
        let mut text = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            if i == last {
                text.push_str(cell);
            } else if NUMERIC.contains(&i) {
                text.push_str(&format!("{cell:>w$}  "));
            } else {
                text.push_str(&format!("{cell:<w$}  "));
            }
        }
        text
    };
    writeln!(out, "{}", line(HEADER))?;
    for (row, l) in rows.iter().zip(listings) {
        writeln!(out, "{}", line(row.each_ref().map(String::as_str)))?;
        if let Some(err) = &l.error {
            writeln!(out, "    {}", esc(err))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing() -> Listing {
        Listing {
            path: "/p/u1/subagents/agent-x.jsonl".into(),
            id: "agent-x".into(),
            format: Some("claude-code-jsonl"),
            agent: Some("Claude Code"),
            cwd: Some("/home/u/\u{1b}]0;x\u{7}app".into()),
            updated: Some("2026-01-02T03:04:05Z".into()),
            messages: 3,
            model: None,
            skipped: 0,
            session_key: None,
            archive: None,
            parent: Some("0a1b2c3d-4e5f".into()),
            error: None,
        }
    }

    #[test]
    fn table_has_agent_and_cwd_escaped() {
        let mut out = Vec::new();
        print_table(&mut out, &[listing()]).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        assert!(header.starts_with("SESSION"));
        assert!(header.contains("AGENT") && header.contains("CWD"));
        let row = lines.next().unwrap();
        assert!(row.contains("agent-x (sub-agent of 0a1b2c3d)"), "{row}");
        assert!(row.contains("Claude Code"), "{row}");
        assert!(row.contains("/home/u/\\e]0;x\\x07app"), "{row}");
        assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{text:?}");
    }
}
