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
use replaylens::wire::{
    WireApi, WireModel, WirePayload, WireStage, payload_of, replay_payload_with, stored_payload_with, wire_target_with,
};
use serde::Serialize;

/// Which payloads to check (`lint --stage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Stages {
    /// The stored transcript converted as is.
    Stored,
    /// The replay projection (exit 1 when it has a finding).
    Replay,
    /// Both.
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
    /// `accepted`, `would be rejected`, `no route` or `nothing to send` (a replay of no
    /// message), for the replay stage when it was checked.
    verdict: &'static str,
    /// Why OpenClaw cannot send to the target at all, when it cannot.
    #[serde(rename = "noRoute", skip_serializing_if = "Option::is_none")]
    no_route: Option<String>,
    /// The ClawHub plugin the policy assumes installed and what applies without it.
    #[serde(skip_serializing_if = "Option::is_none")]
    assumption: Option<String>,
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

/// What a lint found: the session, target and rule set, the API and model the payloads were
/// built for, one report per stage checked, and the explanation asked for.
struct Checked {
    session: String,
    target: Target,
    rule_set: &'static str,
    api: WireApi,
    model: WireModel,
    reports: Vec<StageReport>,
    explanation: Option<Explanation>,
    no_route: Option<String>,
    assumption: Option<String>,
}

impl StageReport {
    fn of(w: &WirePayload, findings: Vec<Finding>) -> Self {
        Self {
            stage: w.stage,
            items: w.payload.items.len(),
            body_bytes: w.payload.body_bytes(),
            findings,
        }
    }
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
    let checked = match explain_text {
        Some(text) => check_explained(path, load, target, options, stages, text, json)?,
        None => check(path, load, target, options, stages, json)?,
    };
    let rejected = checked
        .reports
        .iter()
        .any(|rep| !rep.findings.is_empty() && (rep.stage == WireStage::Replay || stages == Stages::Stored));
    // A replay of no message sends nothing: there is nothing a provider could accept.
    let empty = checked
        .reports
        .iter()
        .any(|rep| rep.stage == WireStage::Replay && rep.items == 0);
    let verdict = match () {
        _ if checked.no_route.is_some() => "no route",
        _ if rejected => "would be rejected",
        _ if empty => "nothing to send",
        _ => "accepted",
    };
    let rejected = rejected || checked.no_route.is_some();
    if json {
        super::print_json(&LintDocument {
            session: &checked.session,
            target: &checked.target,
            api: checked.api.id(),
            rule_set: checked.rule_set,
            verdict,
            no_route: checked.no_route,
            assumption: checked.assumption,
            stages: checked.reports,
            explain: checked.explanation,
        })?;
    } else {
        print_text(&checked, verdict)?;
    }
    if rejected { Err(Rejected.into()) } else { Ok(()) }
}

/// Lint the stages asked for, one payload in memory at a time: the stored payload is built
/// from the stored transcript before the rules run, then the rules take the stored messages
/// over (changing them in place) and the replay payload is built from the projection alone.
fn check(
    path: &Path,
    load: LoadOptions,
    target: &Target,
    options: &ReplayOptions,
    stages: Stages,
    json: bool,
) -> anyhow::Result<Checked> {
    let (prepared, _) = super::load_prepared(path, load, target, options, !json)?;
    let session = prepared.session.id.clone();
    let target = prepared.resolved.target.clone();
    let (no_route, assumption) = (prepared.resolved.no_route.clone(), prepared.resolved.assumption());
    let rule_set = prepared.options.rule_set.name;
    let config = prepared.options.config.clone();
    let config = config.as_deref();
    let (api, model) = wire_target_with(&target, config)?;
    let mut reports = Vec::new();
    if stages.list().contains(&WireStage::Stored) {
        let w = stored_payload_with(&prepared.transcript.messages, &target, config)?;
        let findings = lint(&w);
        reports.push(StageReport::of(&w, findings));
    }
    if stages.list().contains(&WireStage::Replay) {
        let w = replay_payload_with(prepared.run().into_messages(), &target, config)?;
        let findings = lint(&w);
        reports.push(StageReport::of(&w, findings));
    }
    Ok(Checked {
        session,
        target,
        rule_set,
        api,
        model,
        reports,
        explanation: None,
        no_route,
        assumption,
    })
}

/// Lint with `--explain`: both payloads are built (the explanation compares them) from one
/// replay that keeps both sides.
fn check_explained(
    path: &Path,
    load: LoadOptions,
    target: &Target,
    options: &ReplayOptions,
    stages: Stages,
    text: &str,
    json: bool,
) -> anyhow::Result<Checked> {
    let (s, r) = super::load_and_replay(path, load, target, options, !json)?;
    let stored = payload_of(&r, WireStage::Stored)?;
    let stored_findings = lint(&stored);
    let replayed = payload_of(&r, WireStage::Replay)?;
    let replay_findings = lint(&replayed);
    let explanation = explain(text, &r, &stored, &stored_findings, &replay_findings);
    let reports = stages
        .list()
        .iter()
        .map(|&stage| match stage {
            WireStage::Stored => StageReport::of(&stored, stored_findings.clone()),
            WireStage::Replay => StageReport::of(&replayed, replay_findings.clone()),
        })
        .collect();
    Ok(Checked {
        session: s.id,
        target: r.resolved.target.clone(),
        rule_set: r.options.rule_set.name,
        api: stored.payload.api,
        model: stored.model,
        reports,
        explanation: Some(explanation),
        no_route: r.resolved.no_route.clone(),
        assumption: r.resolved.assumption(),
    })
}

fn print_text(checked: &Checked, verdict: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "session {} → {} / {} / {}",
        esc(&checked.session),
        esc(super::or_unknown(&checked.model.provider)),
        esc(checked.api.id()),
        esc(super::or_unknown(&checked.model.model))
    )?;
    if let Some(assumption) = &checked.assumption {
        writeln!(out, "policy {}", esc(assumption))?;
    }
    if let Some(no_route) = &checked.no_route {
        writeln!(out, "{} and sends nothing", esc(no_route))?;
    }
    if let Some(e) = &checked.explanation {
        super::explain_text::write(&mut out, e)?;
    }
    for rep in &checked.reports {
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
    match &checked.no_route {
        Some(why) => writeln!(out, "\nverdict: {verdict} ({})", esc(why))?,
        None => writeln!(out, "\nverdict: {verdict}")?,
    }
    Ok(())
}

fn list(v: &[usize], prefix: &str) -> String {
    if v.is_empty() {
        return "(none)".to_string();
    }
    replaylens::text::index_list(v, prefix)
}
