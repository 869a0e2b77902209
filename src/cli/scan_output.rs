//! The three outputs of `scan`, each streamed row by row: a text table and summary, one JSON
//! document (`targets`, `sessions`, `summary`), or CSV with one column group per target.

use std::io::{BufWriter, Stdout, StdoutLock, Write};

use replaylens::policy::Target;
use replaylens::scan::parquet::ParquetSink;
use replaylens::scan::{SessionScan, Summary, TargetScan};
use replaylens::text::{TerminalSafeWriter, cut_end, escape_controls_single_line as esc, pad_end};

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

pub(super) type Safe = BufWriter<TerminalSafeWriter<StdoutLock<'static>>>;

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

/// The text table's layout. Fitted to a width (`COLUMNS`, else the terminal's), columns give
/// way in this order (README "Scan"): the session id is cut in the middle (down to 12
/// columns), AGENT goes, then MSGS, then the target groups after the first go to lines of
/// their own under the row (and AGENT and MSGS come back if that leaves room for them). The path is never cut: it goes on its own line under the row, broken
/// after a `/` when it is longer than the width.
#[derive(Debug, Clone, Copy)]
pub struct Columns {
    id: usize,
    agent: bool,
    msgs: bool,
    /// Target groups on the row; the rest go under it.
    inline_targets: usize,
    /// The terminal width, if output is fitted to one.
    limit: Option<usize>,
}

/// One target group: `  REWRITES LINT VERDICT`.
const TARGET_W: usize = 2 + 11 + 1 + 9 + 1 + 17;
/// LOAD: skipped lines and warnings while loading.
const LOAD_W: usize = 1 + 4;

impl Columns {
    /// Widths for `targets` target column groups within `limit` columns, if any.
    fn fit(targets: usize, limit: Option<usize>) -> Self {
        let mut c = Self {
            id: 38,
            agent: true,
            msgs: true,
            inline_targets: targets,
            limit,
        };
        let Some(limit) = limit else { return c };
        let width = |c: &Self| {
            c.id + if c.agent { 13 } else { 0 } + if c.msgs { 7 } else { 0 } + LOAD_W + c.inline_targets * TARGET_W
        };
        let fits = |c: &Self| width(&Self { id: 12, ..*c }) <= limit;
        if !fits(&c) {
            c.agent = false;
        }
        if !fits(&c) {
            c.msgs = false;
        }
        while !fits(&c) && c.inline_targets > 1 {
            c.inline_targets -= 1;
        }
        // With target groups under the row, the columns dropped before may fit again.
        if c.inline_targets < targets {
            c.msgs = fits(&Self { msgs: true, ..c });
            c.agent = c.msgs && fits(&Self { agent: true, ..c });
        }
        c.id = limit.saturating_sub(width(&Self { id: 0, ..c })).clamp(12, 38);
        c
    }

    /// The row's head: session id, agent, messages and load problems.
    fn head(&self, id: &str, agent: &str, msgs: &str, load: &str) -> String {
        let mut line = pad_end(&super::table_width::cut_middle(id, self.id), self.id);
        if self.agent {
            line.push_str(&format!(" {:<12}", agent));
        }
        if self.msgs {
            line.push_str(&format!(" {msgs:>6}"));
        }
        line.push_str(&format!(" {load:>4}"));
        line
    }
}

fn stdout() -> Safe {
    let out: &'static Stdout = Box::leak(Box::new(std::io::stdout()));
    BufWriter::with_capacity(1 << 16, TerminalSafeWriter::new(out.lock()))
}

/// The label of a target column for each session's own target.
pub(super) const OWN_TARGET: &str = "each session's own target";

/// How a target is named in headers: what was asked for, or the session's own.
fn target_label(t: &Target) -> String {
    if t.provider.is_none() && t.api.is_none() && t.model.is_none() {
        return OWN_TARGET.to_owned();
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
                let mut head = columns.head("SESSION", "AGENT", "MSGS", "LOAD");
                for i in 1..=columns.inline_targets {
                    head.push_str(&target_group(&format!("T{i} REWRITES"), "LINT s→r", "VERDICT"));
                }
                match columns.limit {
                    Some(_) => {
                        writeln!(out, "{}", head.trim_end())?;
                        for i in columns.inline_targets + 1..=labels.len() {
                            writeln!(
                                out,
                                "  {}",
                                target_group(&format!("T{i} REWRITES"), "LINT s→r", "VERDICT").trim()
                            )?;
                        }
                        writeln!(out, "  PATH")?;
                    }
                    None => writeln!(out, "{head}  PATH")?,
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
            Self::Text(out, labels, columns) => text_row(out, row, *columns, labels),
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
                super::scan_totals::text_summary(&mut out, summary, &labels, columns.limit)?;
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

pub(super) fn cut(text: &str, width: usize) -> String {
    cut_end(&esc(text), width).into_owned()
}

/// One target's columns.
fn target_group(rewrites: &str, lint: &str, verdict: &str) -> String {
    format!("  {rewrites:>11} {lint:>9} {verdict:<17}")
}

fn text_row(out: &mut impl Write, row: &SessionScan, columns: Columns, labels: &[String]) -> std::io::Result<()> {
    let load = (row.skipped + row.warnings).to_string();
    let mut line = columns.head(
        &esc(&row.id),
        row.agent.unwrap_or("-"),
        &row.messages.to_string(),
        &load,
    );
    let mut below = Vec::new();
    match &row.error {
        Some(e) => {
            let text = format!("unreadable: {}", esc(e));
            match columns.limit {
                Some(l) => below.extend(
                    super::scan_totals::wrap_list(&text, l.saturating_sub(2))
                        .lines()
                        .map(str::to_owned),
                ),
                None => line.push_str(&format!("  {}", cut(e, 90).replace('\n', " "))),
            }
        }
        None => {
            for (i, t) in row.targets.iter().enumerate() {
                let lint = format!("{}→{}", t.stored_findings, t.replay_findings);
                let group = target_group(&t.rewrites.to_string(), &lint, t.verdict.as_str());
                if i < columns.inline_targets {
                    line.push_str(&group);
                } else {
                    below.push(format!("T{}{}", i + 1, group.trim_end()));
                }
            }
        }
    }
    let path = esc(&row.path.display().to_string()).into_owned();
    let Some(limit) = columns.limit else {
        return writeln!(out, "{line}  {path}");
    };
    writeln!(out, "{}", line.trim_end())?;
    for b in below {
        writeln!(out, "  {b}")?;
    }
    for l in super::table_width::wrap_path(&path, limit.saturating_sub(2), 2) {
        writeln!(out, "  {l}")?;
    }
    // Counts for "each session's own target" name the target they are for.
    for (i, t) in row.targets.iter().enumerate().filter(|_| row.error.is_none()) {
        if labels.get(i).is_some_and(|l| l == OWN_TARGET) {
            let named = format!("T{} = {}", i + 1, esc(&target_label(&t.target)));
            for l in super::table_width::wrap_path(&named, limit.saturating_sub(2), 4) {
                writeln!(out, "  {l}")?;
            }
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
    use replaylens::text::display_width;

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
                text_row(&mut out, &row(id), columns, &[]).unwrap();
            }
            let text = String::from_utf8(out).unwrap();
            let at: Vec<usize> = text
                .lines()
                .filter_map(|l| Some(display_width(&l[..l.find("OpenClaw")?])))
                .collect();
            assert!(at.iter().all(|&a| a == at[0]), "{limit:?} {at:?}:\n{text}");
        }
    }
}
