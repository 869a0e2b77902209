//! The three outputs of `scan`, each streamed row by row: a text table and summary, one JSON
//! document (`targets`, `sessions`, `summary`), or CSV with one column group per target.

use std::io::{BufWriter, Stdout, StdoutLock, Write};

use replaylens::policy::Target;
use replaylens::scan::parquet::ParquetSink;
use replaylens::scan::{SessionScan, Summary, TargetScan};
use replaylens::text::{TerminalSafeWriter, cut_end, display_width, escape_controls_single_line as esc, pad_end};

/// Output format of `scan` (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// A table, then the totals.
    Text,
    /// One JSON document: targets, one row per session, totals.
    Json,
    /// One CSV row per session, one column group per target.
    Csv,
    /// One JSON object per session per line, written as each session finishes (the totals
    /// go to stderr), for engines that read JSON lines.
    Ndjson,
    /// Parquet files (`-o DIR` or `-o FILE.parquet`): one row per session × target with
    /// typed columns (docs/scan-parquet.md); the totals go to stderr.
    Parquet,
}

type Safe = BufWriter<TerminalSafeWriter<StdoutLock<'static>>>;

/// A scan's output being written.
pub enum Output {
    /// Text table: the target labels and the column widths.
    Text(Safe, Vec<String>, Columns),
    /// JSON document; the flag says whether a row was written yet.
    Json(Safe, bool),
    /// CSV rows ([`super::scan_csv`]); the number of targets.
    Csv(Safe, usize),
    /// JSON lines.
    Ndjson(Safe),
    /// Parquet files.
    Parquet(Box<ParquetSink>),
}

/// Widths of the text table's session id and path columns (the others are fixed); a
/// terminal narrower than the whole row cuts the id in the middle and puts the path on a
/// line of its own under the row.
#[derive(Debug, Clone, Copy)]
pub struct Columns {
    id: usize,
    path: Option<usize>,
    /// The path goes under its row.
    path_below: bool,
    /// The terminal width, if output is fitted to one.
    limit: Option<usize>,
}

impl Columns {
    /// Widths for `targets` target column groups within `limit` columns, if any.
    fn fit(targets: usize, limit: Option<usize>) -> Self {
        // AGENT and MSGS with their spaces, then each target's three columns.
        let fixed = 1 + 12 + 1 + 6 + targets * (2 + 11 + 1 + 15 + 1 + 17) + 2;
        let Some(limit) = limit else {
            return Self {
                id: 38,
                path: None,
                path_below: false,
                limit: None,
            };
        };
        let id = limit.saturating_sub(fixed + 24).clamp(12, 38);
        let room = limit.saturating_sub(fixed + id);
        Self {
            id,
            path: Some(if room >= 24 { room } else { limit.saturating_sub(2) }),
            path_below: room < 24,
            limit: Some(limit),
        }
    }
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
    /// Write the head of the output for these targets (Parquet, which goes to files, is
    /// started with its sink instead).
    pub fn start(format: OutputFormat, targets: &[Target]) -> std::io::Result<Self> {
        let labels: Vec<String> = targets.iter().map(target_label).collect();
        let mut out = stdout();
        Ok(match format {
            OutputFormat::Text => {
                for (i, l) in labels.iter().enumerate() {
                    writeln!(out, "T{} = {}", i + 1, esc(l))?;
                }
                let columns = Columns::fit(labels.len(), super::table_width::limit());
                let mut head = format!("{:<w$} {:<12} {:>6}", "SESSION", "AGENT", "MSGS", w = columns.id);
                for i in 1..=labels.len() {
                    head.push_str(&format!(
                        "  {:>11} {:>15} {:<17}",
                        format!("T{i} REWRITES"),
                        "LINT stor→repl",
                        "VERDICT"
                    ));
                }
                if columns.path_below {
                    writeln!(out, "{}", head.trim_end())?;
                    writeln!(out, "  PATH")?;
                } else {
                    writeln!(out, "{head}  PATH")?;
                }
                Self::Text(out, labels, columns)
            }
            OutputFormat::Json => {
                write!(out, "{{\n  \"targets\": ")?;
                serde_json::to_writer(&mut out, &labels).map_err(std::io::Error::from)?;
                write!(out, ",\n  \"sessions\": [")?;
                Self::Json(out, false)
            }
            OutputFormat::Ndjson => Self::Ndjson(out),
            OutputFormat::Parquet => {
                return Err(std::io::Error::other(
                    "--format parquet writes files: give -o DIR or -o FILE.parquet",
                ));
            }
            OutputFormat::Csv => {
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
                super::scan_csv::write_record(&mut out, &head)?;
                Self::Csv(out, labels.len())
            }
        })
    }

    /// Write one session's row.
    pub fn row(&mut self, row: &SessionScan) -> std::io::Result<()> {
        match self {
            Self::Text(out, _, columns) => text_row(out, row, *columns),
            Self::Json(out, any) => {
                write!(out, "{}\n    ", if *any { "," } else { "" })?;
                *any = true;
                serde_json::to_writer(&mut *out, row).map_err(std::io::Error::from)
            }
            Self::Csv(w, targets) => csv_row(w, row, *targets),
            Self::Ndjson(out) => {
                serde_json::to_writer(&mut *out, row).map_err(std::io::Error::from)?;
                out.write_all(b"\n")
            }
            Self::Parquet(sink) => sink.push(row).map_err(std::io::Error::other),
        }
    }

    /// Write the totals and close the output.
    pub fn finish(self, summary: &Summary) -> std::io::Result<()> {
        match self {
            Self::Text(mut out, labels, columns) => {
                text_summary(&mut out, summary, &labels, columns.limit)?;
                out.flush()
            }
            Self::Json(mut out, any) => {
                write!(out, "{}],\n  \"summary\": ", if any { "\n  " } else { "" })?;
                serde_json::to_writer(&mut out, summary).map_err(std::io::Error::from)?;
                writeln!(out, "\n}}")?;
                out.flush()
            }
            Self::Csv(mut w, _) => w.flush(),
            Self::Ndjson(mut out) => out.flush(),
            Self::Parquet(sink) => {
                let (files, rows) = sink.finish().map_err(std::io::Error::other)?;
                let names: Vec<String> = files
                    .iter()
                    .map(|f| esc(&f.display().to_string()).into_owned())
                    .collect();
                eprintln!(
                    "wrote {rows} rows to {} Parquet file{}: {}",
                    files.len(),
                    if files.len() == 1 { "" } else { "s" },
                    names.join(", ")
                );
                Ok(())
            }
        }
    }
}

fn cut(text: &str, width: usize) -> String {
    cut_end(&esc(text), width).into_owned()
}

fn text_row(out: &mut impl Write, row: &SessionScan, columns: Columns) -> std::io::Result<()> {
    use super::table_width::cut_middle;
    let mut line = format!(
        "{} {:<12} {:>6}",
        pad_end(&cut_middle(&esc(&row.id), columns.id), columns.id),
        row.agent.unwrap_or("-"),
        row.messages,
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
    let path = esc(&row.path.display().to_string()).into_owned();
    let path = match columns.path {
        Some(w) => cut_middle(&path, w),
        None => path,
    };
    if columns.path_below {
        writeln!(out, "{}", line.trim_end())?;
        return writeln!(out, "  {path}");
    }
    writeln!(out, "{line}  {path}")
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

/// A `name n, name n, …` line broken after commas to fit `limit` columns, continued four
/// spaces in.
fn wrap_list(text: &str, limit: usize) -> String {
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

fn text_summary(out: &mut Safe, s: &Summary, labels: &[String], limit: Option<usize>) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "scanned {} sessions ({} unreadable), {} messages, {:.1} MB",
        s.sessions,
        s.errors,
        s.messages,
        s.bytes as f64 / 1e6
    )?;
    let fitted = |text: String| match limit {
        Some(l) => wrap_list(&text, l),
        None => text,
    };
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
            "  stored-payload findings (what a client without hygiene would send): {}",
            t.stored_findings
        )?;
    }
    if !s.worst.is_empty() {
        writeln!(out, "worst sessions:")?;
        for w in &s.worst {
            let head = format!("  {:>4} findings {:>6} rewrites  ", w.replay_findings, w.rewrites);
            let shown_path = w.path.display().to_string();
            let (id, path) = (esc(&w.id), esc(&shown_path));
            let line = match limit {
                // The id and the path share what the counts leave, each cut in the middle.
                Some(l) => {
                    let room = l.saturating_sub(display_width(&head) + 2);
                    let id_w = (room / 3).clamp(8, 38);
                    let id = super::table_width::cut_middle(&id, id_w);
                    let path_w = room.saturating_sub(display_width(&id)).max(12);
                    format!("{head}{id}  {}", super::table_width::cut_middle(&path, path_w))
                }
                None => format!("{head}{}  {path}", cut(&w.id, 38)),
            };
            writeln!(out, "{line}")?;
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

fn csv_row(w: &mut Safe, row: &SessionScan, targets: usize) -> std::io::Result<()> {
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
    super::scan_csv::write_record(w, &record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_line_up_by_display_width_with_cjk_and_combining_marks() {
        let row = |id: &str| SessionScan {
            path: "/s/x.jsonl".into(),
            agent: Some("OpenClaw"),
            id: id.to_owned(),
            session_key: None,
            format: None,
            bytes: None,
            messages: 3,
            skipped: 0,
            warnings: 0,
            notes: 0,
            error: None,
            rule_set: None,
            targets: Vec::new(),
        };
        for limit in [None, Some(120)] {
            let columns = Columns::fit(1, limit);
            let mut out = Vec::new();
            for id in [
                "plain-id",
                "會話-日本語",
                "cafe\u{301}-e\u{301}e\u{301}",
                "會話會話會話會話會話會話會話會話會話會話會話會話",
            ] {
                text_row(&mut out, &row(id), columns).unwrap();
            }
            let text = String::from_utf8(out).unwrap();
            let at: Vec<usize> = text
                .lines()
                .map(|l| display_width(&l[..l.find("OpenClaw").unwrap()]))
                .collect();
            assert!(at.iter().all(|&a| a == at[0]), "{limit:?} {at:?}:\n{text}");
        }
    }
}
