//! `replaylens lint SESSION [TARGET] [--stage stored|replay|both] [--explain TEXT]`: would
//! the provider accept the payload, and if not, which message is to blame.

use std::io::Write;
use std::path::Path;

use replaylens::hygiene::ReplayOptions;
use replaylens::lint::explain::{Explanation, explain};
use replaylens::lint::{Finding, lint};
use replaylens::load::LoadOptions;
use replaylens::policy::Target;
use replaylens::text::escape_controls_single_line as esc;
use replaylens::wire::{WirePayload, WireStage, payload_of};
use serde::Serialize;

/// Which payloads to check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stages {
    /// The stored transcript converted as is.
    Stored,
    /// The replay projection.
    Replay,
    /// Both, stored first.
    Both,
}

impl Stages {
    fn list(self) -> &'static [WireStage] {
        match self {
            Stages::Stored => &[WireStage::Stored],
            Stages::Replay => &[WireStage::Replay],
            Stages::Both => &[WireStage::Stored, WireStage::Replay],
        }
    }
}

/// The lint found something at a checked stage that counts: exit status 1, nothing more
/// to print.
#[derive(Debug, thiserror::Error)]
#[error("the provider would reject the payload")]
pub struct Rejected;

#[derive(Serialize)]
struct LintDocument<'a> {
    session: &'a str,
    target: &'a Target,
    api: &'static str,
    rule_set: &'static str,
    /// `accepted` or `would be rejected`, for the replay stage when it was checked.
    verdict: &'static str,
    stages: Vec<StageReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    explain: Option<Explanation>,
}

#[derive(Serialize)]
struct StageReport {
    stage: WireStage,
    items: usize,
    body_bytes: usize,
    findings: Vec<Finding>,
}

/// Lint one session for a target and print the findings.
pub fn run(
    path: &Path,
    load: LoadOptions,
    target: &Target,
    options: &ReplayOptions,
    stages: Stages,
    explain_text: Option<&str>,
    json: bool,
) -> anyhow::Result<()> {
    let (s, r) = super::load_and_replay(path, load, target, options, !json)?;
    // Each payload is built and linted once, and only when a stage or `--explain` needs it.
    let explaining = explain_text.is_some();
    let checked = |stage: WireStage| -> anyhow::Result<Option<(WirePayload, Vec<Finding>)>> {
        if !explaining && !stages.list().contains(&stage) {
            return Ok(None);
        }
        let w = payload_of(&r, stage)?;
        let findings = lint(&w);
        Ok(Some((w, findings)))
    };
    let stored = checked(WireStage::Stored)?;
    let replayed = checked(WireStage::Replay)?;
    let reports: Vec<StageReport> = stages
        .list()
        .iter()
        .filter_map(|&stage| {
            let (w, findings) = if stage == WireStage::Stored { &stored } else { &replayed }.as_ref()?;
            Some(StageReport {
                stage,
                items: w.payload.items.len(),
                body_bytes: w.payload.body_bytes(),
                findings: findings.clone(),
            })
        })
        .collect();
    let explanation = match (explain_text, &stored, &replayed) {
        (Some(text), Some((w, stored_findings)), Some((_, replay_findings))) => {
            Some(explain(text, &r, w, stored_findings, replay_findings))
        }
        _ => None,
    };
    let Some((w, _)) = stored.as_ref().or(replayed.as_ref()) else {
        unreachable!("at least one stage is checked")
    };
    let rejected = reports
        .iter()
        .any(|rep| !rep.findings.is_empty() && (rep.stage == WireStage::Replay || stages == Stages::Stored));
    let verdict = if rejected { "would be rejected" } else { "accepted" };
    if json {
        super::print_json(&LintDocument {
            session: &s.id,
            target: &r.resolved.target,
            api: w.payload.api.id(),
            rule_set: r.options.rule_set.name,
            verdict,
            stages: reports,
            explain: explanation,
        })?;
    } else {
        print_text(&s.id, w, &reports, explanation.as_ref(), verdict)?;
    }
    if rejected { Err(Rejected.into()) } else { Ok(()) }
}

fn print_text(
    session: &str,
    w: &replaylens::wire::WirePayload,
    reports: &[StageReport],
    explanation: Option<&Explanation>,
    verdict: &str,
) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "session {} → {} / {} / {}",
        esc(session),
        esc(super::or_unknown(&w.model.provider)),
        esc(w.payload.api.id()),
        esc(super::or_unknown(&w.model.model))
    )?;
    if let Some(e) = explanation {
        super::explain_text::write(&mut out, e)?;
    }
    for rep in reports {
        writeln!(
            out,
            "\n{} payload: {} items, {} bytes: {}",
            rep.stage.as_str(),
            rep.items,
            rep.body_bytes,
            match rep.findings.len() {
                0 => "no finding".to_string(),
                1 => "1 finding".to_string(),
                n => format!("{n} findings"),
            }
        )?;
        for f in &rep.findings {
            let from = match rep.stage {
                WireStage::Stored => format!("stored {}", list(&f.stored, "s")),
                WireStage::Replay => format!("replay {} ← stored {}", list(&f.replay, "#"), list(&f.stored, "s")),
            };
            writeln!(out, "  ✗ {} ({})  ← {}", f.constraint, esc(&f.path), from)?;
            writeln!(out, "    {}", esc(&f.message))?;
            writeln!(out, "    {}", f.fix_note())?;
        }
    }
    writeln!(out, "\nverdict: {verdict}")?;
    Ok(())
}

fn list(v: &[usize], prefix: &str) -> String {
    if v.is_empty() {
        return "(none)".to_string();
    }
    v.iter().map(|s| format!("{prefix}{s}")).collect::<Vec<_>>().join("+")
}
