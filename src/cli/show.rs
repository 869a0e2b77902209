//! `replaylens show SESSION`: the stored active-branch messages.

use std::io::Write;
use std::path::Path;

use replaylens::export::json::stored_array;
use replaylens::load::LoadOptions;
use replaylens::text::escape_controls_single_line as esc;

use super::describe;

/// Print the stored transcript of one session.
pub fn run(path: &Path, load: LoadOptions, json_out: bool) -> anyhow::Result<()> {
    // Only the transcript is shown: the rest of each message entry is not held.
    let s = super::load_transcript_only(path, load)?;
    let t = s.transcript();
    super::report(&s.diagnostics);
    super::report(&t.diagnostics);
    let mut out = std::io::stdout().lock();
    if json_out {
        super::print_json(&stored_array(&t.messages))?;
        return Ok(());
    }
    writeln!(
        out,
        "session {} ({}), {} stored messages",
        esc(&s.id),
        s.format.as_str(),
        t.messages.len()
    )?;
    if let Some(c) = &t.compaction {
        writeln!(
            out,
            "{} {} applied: {} earlier branch entries replaced",
            esc(c.kind),
            esc(c.entry_id.as_deref().unwrap_or("?")),
            c.entries_cut
        )?;
    }
    for (i, m) in t.messages.iter().enumerate() {
        let head = format!("#{i:<4}");
        describe::write_message(&mut out, &head, m.entry_id.as_deref().unwrap_or("-"), &m.message)?;
    }
    Ok(())
}
