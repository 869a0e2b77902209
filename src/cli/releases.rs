//! `replaylens releases SESSION [TARGET]`: the session under every OpenClaw rule set, and the
//! releases at which its verdict changes.

use std::io::Write;
use std::path::Path;

use replaylens::hygiene::ReplayOptions;
use replaylens::load::LoadOptions;
use replaylens::policy::Target;
use replaylens::scan::Verdict;
use replaylens::scan::releases::{Matrix, matrix};
use replaylens::text::escape_controls_single_line as esc;

/// Load, replay and lint under every rule set, and print the matrix.
pub fn run(path: &Path, load: LoadOptions, target: &Target, options: &ReplayOptions, json: bool) -> anyhow::Result<()> {
    let session = super::load_transcript_only(path, load)?;
    super::report(&session.diagnostics);
    let transcript = session.transcript();
    super::report(&transcript.diagnostics);
    super::report_target(target, &transcript.model, !json);
    drop(transcript);
    let m = matrix(&session, target, options);
    if json {
        return super::print_json(&serde_json::json!({
            "session": session.id,
            "format": session.format.as_str(),
            "matrix": m,
        }));
    }
    print_text(&session.id, session.format.as_str(), &m)
}

fn mark(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Accepted => "✓",
        Verdict::WouldBeRejected => "✗",
        Verdict::Refused | Verdict::NoRoute => "⊘",
        Verdict::NoPayload => "·",
    }
}

fn print_text(id: &str, format: &str, m: &Matrix) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if let Some(row) = m.rows.first() {
        let t = &row.scan.target;
        writeln!(
            out,
            "session {} ({format}) → {} / {} / {}  [{}]\n",
            esc(id),
            esc(t.provider.as_deref().unwrap_or("?")),
            esc(t.api.as_deref().unwrap_or("?")),
            esc(t.model.as_deref().unwrap_or("?")),
            row.scan.family
        )?;
    }
    for row in &m.rows {
        let s = &row.scan;
        writeln!(out, "{:<9} {}", row.rule_set, row.releases)?;
        let findings: Vec<String> = s
            .findings_by_constraint
            .iter()
            .map(|(c, n)| if *n == 1 { (*c).to_owned() } else { format!("{c} ×{n}") })
            .collect();
        let verdict = s.verdict.as_str();
        if findings.is_empty() {
            writeln!(out, "  {} {verdict}", mark(s.verdict))?;
        } else {
            writeln!(out, "  {} {verdict}: {}", mark(s.verdict), findings.join(", "))?;
        }
        let rules: Vec<String> = s.rewrites_by_rule.iter().map(|(r, n)| format!("{r} {n}")).collect();
        let noun = if s.rewrites == 1 { "rewrite" } else { "rewrites" };
        let sent = if matches!(s.verdict, Verdict::Refused | Verdict::NoRoute) {
            format!("nothing sent ({} messages built)", s.replay_messages)
        } else {
            format!("{} messages sent", s.replay_messages)
        };
        if rules.is_empty() {
            writeln!(out, "  0 rewrites, {sent}")?;
        } else {
            writeln!(out, "  {} {noun} ({}), {sent}", s.rewrites, rules.join(", "),)?;
        }
    }
    writeln!(out, "\nverdict: {}", m.summary)?;
    for b in &m.boundaries {
        writeln!(
            out,
            "  {} → {} between {} (rule set {}) and {} (rule set {})",
            b.from.as_str(),
            b.to.as_str(),
            b.last_before,
            b.before,
            b.first_after,
            b.after
        )?;
    }
    Ok(())
}
