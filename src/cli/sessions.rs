//! `replaylens sessions [PATH]`.

use std::io::Write;
use std::path::Path;

use replaylens::load::discover::{self, Listing};
use replaylens::text::escape_controls_single_line as esc;

/// List sessions at `path`, or in the default locations.
pub fn run(path: Option<&Path>, json: bool) -> anyhow::Result<()> {
    let listings = match path {
        Some(p) => discover::list_path(p)?,
        None => {
            let found = discover::list_default();
            if found.is_empty() && !json {
                let root = discover::state_dir()
                    .map(|d| d.display().to_string())
                    .unwrap_or_else(|| "~/.openclaw".into());
                eprintln!("no sessions found under {root} (set OPENCLAW_STATE_DIR, or pass a file or folder)");
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

fn print_table(out: &mut impl Write, listings: &[Listing]) -> std::io::Result<()> {
    let header = ["SESSION", "UPDATED", "MSGS", "MODEL", "FORMAT", "SKIPPED", "PATH"];
    let rows: Vec<[String; 7]> = listings
        .iter()
        .map(|l| {
            let mut id = l.id.clone();
            if let Some(a) = &l.archive {
                id.push_str(&format!(" ({a})"));
            }
            let path = l.path.display().to_string();
            match &l.error {
                Some(_) => [
                    id,
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "unreadable".into(),
                    "-".into(),
                    path,
                ],
                None => [
                    id,
                    l.updated.clone().unwrap_or_else(|| "-".into()),
                    l.messages.to_string(),
                    l.model.clone().unwrap_or_else(|| "-".into()),
                    l.format.unwrap_or("-").to_owned(),
                    l.skipped.to_string(),
                    path,
                ],
            }
            .map(|cell| esc(&cell).into_owned())
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 7]| {
        let mut text = String::new();
        for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
            let numeric = i == 2 || i == 5;
            if i == 6 {
                text.push_str(cell);
            } else if numeric {
                text.push_str(&format!("{cell:>w$}  "));
            } else {
                text.push_str(&format!("{cell:<w$}  "));
            }
        }
        text
    };
    writeln!(out, "{}", line(header))?;
    for (row, l) in rows.iter().zip(listings) {
        writeln!(out, "{}", line(row.each_ref().map(String::as_str)))?;
        if let Some(err) = &l.error {
            writeln!(out, "    {}", esc(err))?;
        }
    }
    Ok(())
}
