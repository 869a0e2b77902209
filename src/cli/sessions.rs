//! `replaylens sessions [PATH]`.

use std::io::Write;
use std::path::Path;

use replaylens::load::discover::{self, Listing};
use replaylens::model::Agent;
use replaylens::text::{cut_end, display_width, escape_controls_single_line as esc, pad_end, pad_start};

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
    print_table(&mut out, &listings, super::table_width::limit())?;
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

/// Columns that give way on a narrow terminal, in order, with their narrowest width: the
/// working folder, the model, the session id (each cut in the middle). When the row does not
/// fit whole, the format and skipped-line columns are left out, the update time is cut to the
/// minute and the path goes on a line of its own under its row.
const FLEXIBLE: [(usize, usize); 3] = [(5, 10), (4, 10), (0, 12)];
/// The UPDATED column.
const UPDATED: usize = 2;
/// The FORMAT column.
const FORMAT: usize = 6;
/// The SKIPPED column.
const SKIPPED: usize = 7;
/// The PATH column.
const PATH: usize = 8;

fn print_table(out: &mut impl Write, listings: &[Listing], limit: Option<usize>) -> std::io::Result<()> {
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
            *w = (*w).max(display_width(cell));
        }
    }
    let whole = widths.iter().sum::<usize>() + 2 * (widths.len() - 1);
    let narrow = limit.filter(|&l| whole > l);
    if let Some(limit) = narrow {
        widths[FORMAT] = 0;
        widths[SKIPPED] = 0;
        widths[PATH] = 0;
        widths[UPDATED] = widths[UPDATED].min(16);
        let mut shrunk: Vec<usize> = widths.iter().copied().filter(|&w| w > 0).collect();
        // Indices among the shown columns: SESSION 0, AGENT 1, UPDATED 2, MSGS 3, MODEL 4, CWD 5.
        super::table_width::shrink(&mut shrunk, 2, limit, &FLEXIBLE);
        for (w, narrowed) in widths.iter_mut().filter(|w| **w > 0).zip(shrunk) {
            *w = narrowed;
        }
    }
    let last = if narrow.is_some() { 5 } else { HEADER.len() - 1 };
    let line = |cells: [&str; 9]| {
        let mut text = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            if w == 0 {
                continue;
            }
            let cut = if i == UPDATED {
                cut_end(cell, w).into_owned()
            } else {
                super::table_width::cut_middle(cell, w)
            };
            let cell = cut.as_str();
            if i == last {
                text.push_str(cell.trim_end());
            } else if NUMERIC.contains(&i) {
                text.push_str(&pad_start(cell, w));
                text.push_str("  ");
            } else {
                text.push_str(&pad_end(cell, w));
                text.push_str("  ");
            }
        }
        text
    };
    writeln!(out, "{}", line(HEADER))?;
    for (row, l) in rows.iter().zip(listings) {
        writeln!(out, "{}", line(row.each_ref().map(String::as_str)))?;
        if let Some(limit) = narrow {
            writeln!(
                out,
                "  {}",
                super::table_width::cut_middle(&row[PATH], limit.saturating_sub(2))
            )?;
        }
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
        print_table(&mut out, &[listing()], None).unwrap();
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

    #[test]
    fn the_table_fits_80_columns_with_paths_cut_in_the_middle() {
        let mut long = listing();
        long.path = "/home/someone/.openclaw/agents/main/sessions/0a1b2c3d-4e5f-6789-abcd-ef0123456789.jsonl".into();
        long.cwd = Some("/home/someone/projects/a-rather-long-project-name/service".into());
        let mut out = Vec::new();
        print_table(&mut out, &[long], Some(80)).unwrap();
        let text = String::from_utf8(out).unwrap();
        for line in text.lines() {
            assert!(display_width(line) <= 80, "{} columns: {line}", display_width(line));
        }
        assert!(
            text.contains("/home/someone/.openc") && text.contains("6789.jsonl"),
            "{text}"
        );
        let mut wide = Vec::new();
        print_table(&mut wide, &[listing()], None).unwrap();
        assert!(
            String::from_utf8(wide)
                .unwrap()
                .contains("/p/u1/subagents/agent-x.jsonl")
        );
    }

    #[test]
    fn columns_line_up_by_display_width_with_cjk_and_combining_marks() {
        let mut cjk = listing();
        cjk.id = "會話-日本語".into();
        cjk.cwd = Some("/srv/プロジェクト".into());
        let mut marks = listing();
        marks.id = "cafe\u{301}-e\u{301}e\u{301}".into();
        marks.cwd = Some("/srv/re\u{301}sume\u{301}".into());
        let plain = listing();
        for limit in [None, Some(100)] {
            let mut out = Vec::new();
            print_table(&mut out, &[cjk.clone(), marks.clone(), plain.clone()], limit).unwrap();
            let text = String::from_utf8(out).unwrap();
            let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("  ")).collect();
            // The column after SESSION starts at the same display column on every line.
            let agent_at = |line: &str| {
                let at = line.find("AGENT").or_else(|| line.find("Claude Code")).unwrap();
                display_width(&line[..at])
            };
            let first = agent_at(lines[0]);
            for line in &lines {
                assert_eq!(agent_at(line), first, "{limit:?}:\n{text}");
            }
        }
    }
}
