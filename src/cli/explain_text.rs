//! The text form of an `--explain` answer.

use std::io::Write;

use replaylens::lint::explain::Explanation;
use replaylens::text::escape_controls_single_line as esc;

/// Write the explanation block.
pub fn write(out: &mut impl Write, e: &Explanation) -> std::io::Result<()> {
    writeln!(out, "\nthe error: {}", esc(&e.message))?;
    match (e.provider, e.constraint) {
        (Some(provider), Some(constraint)) => writeln!(out, "  recognised: {provider}, constraint {constraint}")?,
        // A context-length text: recognised, but no payload constraint checks it.
        (Some(provider), None) => writeln!(out, "  recognised: {provider}")?,
        _ => {}
    }
    if let Some(i) = e.index {
        writeln!(out, "  index named by the provider: {i}")?;
    }
    if !e.ids.is_empty() {
        writeln!(out, "  ids named: {}", esc(&e.ids.join(", ")))?;
    }
    if !e.stored.is_empty() {
        let list = e.stored.iter().map(|s| format!("s{s}")).collect::<Vec<_>>().join(", ");
        writeln!(out, "  stored messages: {list}")?;
    }
    writeln!(out, "  {}", esc(&e.summary))
}
