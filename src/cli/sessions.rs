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
        serde_json::to_writer_pretty(&mut out, &listings)?;
        writeln!(out)?;
        return Ok(());
    }
    print_table(&mut out, &listings)?;
    Ok(())
}

fn print_table(out: &mut impl Write, listings: &[Listing]) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<38} {:<24} {:>5} {:<32} {:<16} {:>7}  PATH",
        "SESSION", "UPDATED", "MSGS", "MODEL", "FORMAT", "SKIPPED"
    )?;
    for l in listings {
        let mut id = l.id.clone();
        if let Some(a) = &l.archive {
            id.push_str(&format!(" ({a})"));
        }
        let path = l.path.display().to_string();
        match &l.error {
            Some(err) => writeln!(
                out,
                "{:<38} {:<24} {:>5} {:<32} {:<16} {:>7}  {}\n    {}",
                esc(&id),
                "-",
                "-",
                "-",
                "unreadable",
                "-",
                esc(&path),
                esc(err)
            )?,
            None => writeln!(
                out,
                "{:<38} {:<24} {:>5} {:<32} {:<16} {:>7}  {}",
                esc(&id),
                esc(l.updated.as_deref().unwrap_or("-")),
                l.messages,
                esc(l.model.as_deref().unwrap_or("-")),
                l.format.unwrap_or("-"),
                l.skipped,
                esc(&path)
            )?,
        }
    }
    Ok(())
}
