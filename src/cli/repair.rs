//! `replaylens repair SESSION.jsonl [--dry-run]`.

use std::io::Write;
use std::path::Path;

use replaylens::repair::{RepairChange, plan_file, repair_file};
use replaylens::text::escape_controls_single_line as esc;

/// Repair a session file, or print what a repair would change.
pub fn run(path: &Path, dry_run: bool) -> anyhow::Result<()> {
    let basename = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = std::io::stdout().lock();
    let plan = if dry_run {
        plan_file(path)?
    } else {
        let (plan, outcome) = repair_file(path, None)?;
        if let Some(backup) = outcome.and_then(|o| o.leftover_backup) {
            writeln!(
                out,
                "the backup {} could not be removed",
                esc(&backup.display().to_string())
            )?;
        }
        plan
    };
    for change in &plan.changes {
        let line = match change {
            RepairChange::DroppedLine { line, reason } => format!("line {line}: drop ({reason})"),
            RepairChange::RewroteAssistant { line } => format!("line {line}: empty error turn → fallback text"),
            RepairChange::RewroteUser { line } => format!("line {line}: blank user text → removed / (continue)"),
            RepairChange::InsertedToolResult {
                after_line,
                tool_call_id,
            } => {
                format!("after line {after_line}: insert `aborted` result for {tool_call_id}")
            }
        };
        writeln!(out, "  {}", esc(&line))?;
    }
    let summary = plan.summary(&basename);
    if dry_run && !plan.is_clean() {
        writeln!(out, "dry run, nothing written: {}", esc(&summary))?;
    } else {
        writeln!(out, "{}", esc(&summary))?;
    }
    Ok(())
}
