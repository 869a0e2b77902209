//! The three outputs of `scan`, each streamed row by row: a text table and summary, one JSON
//! document (`targets`, `sessions`, `summary`), or CSV with one column group per target.

use std::io::{BufWriter, Stdout, StdoutLock, Write};

use replaylens::policy::Target;
use replaylens::scan::{SessionScan, Summary, TargetScan};
use replaylens::text::{TerminalSafeWriter, escape_controls_single_line as esc};

/// Output format of `scan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// A table, then the totals.
    Text,
    /// One JSON document.
    Json,
    /// One CSV row per session.
    Csv,
}

type Safe = BufWriter<TerminalSafeWriter<StdoutLock<'static>>>;

/// A scan's output being written.
pub enum Output {
    /// Text table.
    Text(Safe, Vec<String>),
    /// JSON document; the flag says whether a row was written yet.
    Json(Safe, bool),
    /// CSV rows.
    Csv(Box<csv::Writer<Safe>>, usize),
}

fn stdout() -> Safe {
    let out: &'static Stdout = Box::leak(Box::new(std::io::stdout()));
    BufWriter::with_capacity(1 << 16, TerminalSafeWriter::new(out.lock()))
}

/// How a target is named in headers: what was asked for, or the session's own.
fn target_label(t: &Target) -> String {
    if t.provider.is_none() && t.api.is_none() && t.model.is_none() {
        return "each session's own target".to_owned();
    }
    let part = |p: &Option<String>| p.clone().unwrap_or_else(|| "-".into());
    format!("{}/{}/{}", part(&t.provider), part(&t.api), part(&t.model))
}

impl Output {
    /// Write the head of the output for these targets.
    pub fn start(format: OutputFormat, targets: &[Target]) -> std::io::Result<Self> {
        let labels: Vec<String> = targets.iter().map(target_label).collect();
        let mut out = stdout();
        Ok(match format {
            OutputFormat::Text => {
                for (i, l) in labels.iter().enumerate() {
                    writeln!(out, "T{} = {}", i + 1, esc(l))?;
                }
                let mut head = format!("{:<38} {:<12} {:>6}", "SESSION", "AGENT", "MSGS");
                for i in 1..=labels.len() {
                    head.push_str(&format!(
                        "  {:>11} {:>15} {:<17}",
                        format!("T{i} REWRITES"),
                        "LINT stor→repl",
                        "VERDICT"
                    ));
                }
                writeln!(out, "{head}  PATH")?;
                Self::Text(out, labels)
            }
            OutputFormat::Json => {
                write!(out, "{{\n  \"targets\": ")?;
                serde_json::to_writer(&mut out, &labels).map_err(std::io::Error::from)?;
                write!(out, ",\n  \"sessions\": [")?;
                Self::Json(out, false)
            }
            OutputFormat::Csv => {
                let mut w = csv::Writer::from_writer(out);
                let mut head: Vec<String> = [
                    "path",
                    "agent",
                    "id",
                    "session_key",
                    "format",
                    "bytes",
                    "messages",
                    "skipped",
                    "warnings",
                    "notes",
                    "error",
                ]
                .map(str::to_owned)
                .to_vec();
                for i in 1..=labels.len() {
                    for col in [
                        "target",
                        "family",
                        "rewrites",
                        "rewrites_by_rule",
                        "stored_findings",
                        "replay_findings",
                        "findings_by_constraint",
                        "verdict",
                    ] {
                        head.push(format!("t{i}_{col}"));
                    }
                }
                w.write_record(&head)?;
                Self::Csv(Box::new(w), labels.len())
            }
        })
    }

    /// Write one session's row.
    pub fn row(&mut self, row: &SessionScan) -> std::io::Result<()> {
        match self {
            Self::Text(out, _) => text_row(out, row),
            Self::Json(out, any) => {
                write!(out, "{}\n    ", if *any { "," } else { "" })?;
                *any = true;
                serde_json::to_writer(&mut *out, row).map_err(std::io::Error::from)
            }
            Self::Csv(w, targets) => csv_row(w, row, *targets),
        }
    }

    /// Write the totals and close the output.
    pub fn finish(self, summary: &Summary) -> std::io::Result<()> {
        match self {
            Self::Text(mut out, labels) => {
                text_summary(&mut out, summary, &labels)?;
                out.flush()
            }
            Self::Json(mut out, any) => {
                write!(out, "{}],\n  \"summary\": ", if any { "\n  " } else { "" })?;
                serde_json::to_writer(&mut out, summary).map_err(std::io::Error::from)?;
                writeln!(out, "\n}}")?;
                out.flush()
            }
            Self::Csv(mut w, _) => w.flush(),
        }
    }
}

fn cut(text: &str, width: usize) -> String {
    let text = esc(text);
    if text.chars().count() <= width {
        return text.into_owned();
    }
    let mut s: String = text.chars().take(width.saturating_sub(1)).collect();
    s.push('…');
    s
}

fn text_row(out: &mut Safe, row: &SessionScan) -> std::io::Result<()> {
    let mut line = format!(
        "{:<38} {:<12} {:>6}",
        cut(&row.id, 38),
        row.agent.unwrap_or("-"),
        row.messages
    );
    match &row.error {
        Some(e) => line.push_str(&format!("  unreadable: {}", cut(e, 90))),
        None => {
            for t in &row.targets {
                let lint = format!("{}→{}", t.stored_findings, t.replay_findings);
                line.push_str(&format!("  {:>11} {:>15} {:<17}", t.rewrites, lint, t.verdict.as_str()));
            }
        }
    }
    writeln!(out, "{line}  {}", esc(&row.path.display().to_string()))
}

fn counts(map: &std::collections::BTreeMap<&'static str, usize>) -> String {
    let mut pairs: Vec<(&&str, &usize)> = map.iter().collect();
    pairs.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    pairs
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn text_summary(out: &mut Safe, s: &Summary, labels: &[String]) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "scanned {} sessions ({} unreadable), {} messages, {:.1} MB",
        s.sessions,
        s.errors,
        s.messages,
        s.bytes as f64 / 1e6
    )?;
    for (i, t) in s.targets.iter().enumerate() {
        let label = labels.get(i).map_or("", String::as_str);
        writeln!(
            out,
            "T{} ({}): {} would be rejected, {} accepted, {} without a payload",
            i + 1,
            esc(label),
            t.would_be_rejected,
            t.accepted,
            t.no_payload
        )?;
        let none = |s: String| if s.is_empty() { "none".to_owned() } else { s };
        writeln!(out, "  rewrites by rule: {}", none(counts(&t.rewrites_by_rule)))?;
        writeln!(
            out,
            "  replay findings by constraint: {}",
            none(counts(&t.findings_by_constraint))
        )?;
        writeln!(
            out,
            "  stored-payload findings (what a client without hygiene would send): {}",
            t.stored_findings
        )?;
    }
    if !s.worst.is_empty() {
        writeln!(out, "worst sessions:")?;
        for w in &s.worst {
            writeln!(
                out,
                "  {:>4} findings {:>6} rewrites  {}  {}",
                w.replay_findings,
                w.rewrites,
                cut(&w.id, 38),
                esc(&w.path.display().to_string())
            )?;
        }
    }
    Ok(())
}

fn target_cells(t: &TargetScan) -> [String; 8] {
    let pairs = |m: &std::collections::BTreeMap<&'static str, usize>| {
        m.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(";")
    };
    [
        target_label(&t.target),
        t.family.to_owned(),
        t.rewrites.to_string(),
        pairs(&t.rewrites_by_rule),
        t.stored_findings.to_string(),
        t.replay_findings.to_string(),
        pairs(&t.findings_by_constraint),
        t.verdict.as_str().to_owned(),
    ]
}

fn csv_row(w: &mut csv::Writer<Safe>, row: &SessionScan, targets: usize) -> std::io::Result<()> {
    let opt = |v: Option<String>| v.unwrap_or_default();
    let mut record: Vec<String> = vec![
        row.path.display().to_string(),
        opt(row.agent.map(str::to_owned)),
        row.id.clone(),
        opt(row.session_key.clone()),
        opt(row.format.map(str::to_owned)),
        opt(row.bytes.map(|b| b.to_string())),
        row.messages.to_string(),
        row.skipped.to_string(),
        row.warnings.to_string(),
        row.notes.to_string(),
        opt(row.error.clone()),
    ];
    for i in 0..targets {
        match row.targets.get(i) {
            Some(t) => record.extend(target_cells(t)),
            None => record.extend(std::iter::repeat_n(String::new(), 8)),
        }
    }
    w.write_record(record.iter().map(|cell| spreadsheet_safe(cell).into_owned()))?;
    Ok(())
}

/// A cell a spreadsheet will not run: text that starts like a formula (`=`, `+`, `-`, `@`, a
/// tab or a carriage return) gets a leading `'`, as OWASP recommends for CSV; a session id
/// `=HYPERLINK(…)` stays text when the scan is opened in a spreadsheet.
fn spreadsheet_safe(cell: &str) -> std::borrow::Cow<'_, str> {
    match cell.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{cell}").into(),
        _ => cell.into(),
    }
}
