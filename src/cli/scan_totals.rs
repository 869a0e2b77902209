//! The totals under `scan`'s text table: sessions read, per target the verdicts, rewrites by
//! rule and findings by constraint, and the worst sessions with their paths whole.

use std::io::Write;

use replaylens::scan::Summary;
use replaylens::text::{display_width, escape_controls_single_line as esc};

use super::scan_output::{Safe, cut};

fn counts(map: &std::collections::BTreeMap<&'static str, usize>) -> String {
    let mut pairs: Vec<(&&str, &usize)> = map.iter().collect();
    pairs.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    pairs
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A `name n, name n, …` line broken after commas to fit `limit` columns, continued four
/// spaces in.
pub(super) fn wrap_list(text: &str, limit: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for (i, part) in text.split(", ").enumerate() {
        let piece = if i == 0 { part.to_owned() } else { format!(", {part}") };
        if !line.is_empty() && display_width(&line) + display_width(&piece) + 1 > limit {
            out.push_str(&line);
            out.push_str(",\n");
            line = format!("    {}", piece.trim_start_matches(", "));
        } else {
            line.push_str(&piece);
        }
    }
    out.push_str(&line);
    out
}

/// `N refused by OpenClaw, ` when any session's replay was refused, and `N without a route in
/// OpenClaw, ` when its target has none.
fn refused(n: usize, no_route: usize) -> String {
    let mut out = String::new();
    if n != 0 {
        out.push_str(&format!("{n} refused by OpenClaw, "));
    }
    if no_route != 0 {
        out.push_str(&format!("{no_route} without a route in OpenClaw, "));
    }
    out
}

pub(super) fn text_summary(
    out: &mut Safe,
    s: &Summary,
    labels: &[String],
    limit: Option<usize>,
) -> std::io::Result<()> {
    writeln!(out)?;
    let line = format!(
        "scanned {} sessions ({} unreadable, {} with load problems), {} messages, {:.1} MB",
        s.sessions,
        s.errors,
        s.with_load_problems,
        s.messages,
        s.bytes as f64 / 1e6
    );
    let fitted = |text: String| match limit {
        Some(l) => wrap_list(&text, l),
        None => text,
    };
    writeln!(out, "{}", fitted(line))?;
    for (i, t) in s.targets.iter().enumerate() {
        let label = labels.get(i).map_or("", String::as_str);
        let verdicts = format!(
            "T{} ({}): {} would be rejected, {}{} accepted, {} without a payload",
            i + 1,
            esc(label),
            t.would_be_rejected,
            refused(t.refused, t.no_route),
            t.accepted,
            t.no_payload
        );
        writeln!(out, "{}", fitted(verdicts))?;
        let none = |s: String| if s.is_empty() { "none".to_owned() } else { s };
        writeln!(
            out,
            "{}",
            fitted(format!("  rewrites by rule: {}", none(counts(&t.rewrites_by_rule))))
        )?;
        writeln!(
            out,
            "{}",
            fitted(format!(
                "  replay findings by constraint: {}",
                none(counts(&t.findings_by_constraint))
            ))
        )?;
        writeln!(
            out,
            "{}",
            fitted(format!(
                "  stored-payload findings (what a client without hygiene would send): {}",
                t.stored_findings
            ))
        )?;
    }
    if !s.worst.is_empty() {
        writeln!(out, "worst sessions:")?;
        for w in &s.worst {
            let head = format!("  {:>4} findings {:>6} rewrites  ", w.replay_findings, w.rewrites);
            let shown_path = w.path.display().to_string();
            let (id, path) = (esc(&w.id), esc(&shown_path));
            match limit {
                // The id after the counts, cut in the middle; the path whole under it.
                Some(l) => {
                    let id_w = l.saturating_sub(display_width(&head)).clamp(8, 38);
                    writeln!(out, "{head}{}", super::table_width::cut_middle(&id, id_w))?;
                    for p in super::table_width::wrap_path(&path, l.saturating_sub(4), 2) {
                        writeln!(out, "    {p}")?;
                    }
                }
                None => writeln!(out, "{head}{}  {path}", cut(&w.id, 38))?,
            }
        }
    }
    Ok(())
}
