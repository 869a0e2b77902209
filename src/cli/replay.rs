//! `replaylens replay SESSION [TARGET]`: the projection and every rewrite.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use replaylens::export::json::{ReplayDocument, replay_document};
use replaylens::hygiene::{Action, ReplayOptions};
use replaylens::load::{LoadOptions, load_path};
use replaylens::policy::{Target, TargetOrigin};
use replaylens::text::escape_controls_single_line as esc;
use serde::Serialize;

use super::describe;

/// `replay --format json`: the contract document of reference README §3.1 plus
/// `targetOrigin`, where each part of `target` came from (streamed like the document).
#[derive(Serialize)]
struct ReplayJson<'a, 's> {
    #[serde(flatten)]
    document: ReplayDocument<'a, 's>,
    #[serde(rename = "targetOrigin")]
    target_origin: TargetOrigin,
}

/// Replay one session for a target and print it.
pub fn run(path: &Path, load: LoadOptions, target: &Target, options: &ReplayOptions, json: bool) -> anyhow::Result<()> {
    let s = load_path(path, &load)?;
    let (r, effective) = super::replay_reported(&s, target, options, !json);
    let origin = effective.origin();
    let mut out = std::io::stdout().lock();
    if json {
        super::print_json(&ReplayJson {
            document: replay_document(&s, &r),
            target_origin: origin,
        })?;
        // The process ends here: freeing every value of a large session one by one would
        // only delay the exit (about 4% of the command's time).
        std::mem::forget(r);
        std::mem::forget(s);
        return Ok(());
    }
    let t = &r.resolved.target;
    writeln!(
        out,
        "session {} ({}) → {} / {} / {}  [{}]",
        esc(&s.id),
        s.format.as_str(),
        esc(t.provider.as_deref().unwrap_or("?")),
        esc(t.api.as_deref().unwrap_or("?")),
        esc(t.model.as_deref().unwrap_or("?")),
        r.resolved.family.id()
    )?;
    let p = &r.projection;
    writeln!(
        out,
        "stored {} → replay {}, {} rewrites (OpenClaw rule set {})\n",
        r.transcript.messages.len(),
        p.messages.len(),
        p.rewrites.len(),
        r.options.rule_set.name
    )?;
    if let Some(refusal) = &p.refusal {
        writeln!(
            out,
            "OpenClaw refuses this replay and sends nothing: {}\n(the messages below are the history it had built)\n",
            esc(refusal)
        )?;
    }
    for (i, m) in p.messages.iter().enumerate() {
        let src = if m.source.is_empty() {
            "new".to_owned()
        } else {
            m.source.iter().map(|s| format!("s{s}")).collect::<Vec<_>>().join("+")
        };
        describe::write_message(&mut out, &format!("#{i:<4}"), &format!("← {src}"), &m.message)?;
        for rw in p.rewrites.iter().filter(|rw| rw.replay.contains(&i)) {
            writeln!(
                out,
                "      {} {} {}: {}",
                marker(rw.action),
                rw.rule,
                rw.action_label(),
                esc(&rw.detail)
            )?;
        }
    }
    let dropped: Vec<_> = p.rewrites.iter().filter(|rw| rw.replay.is_empty()).collect();
    if !dropped.is_empty() {
        writeln!(out, "\nnot in the replay:")?;
        for rw in dropped {
            let src = rw.stored.iter().map(|s| format!("s{s}")).collect::<Vec<_>>().join("+");
            writeln!(
                out,
                "  {} {:<8} {} {}: {}",
                marker(rw.action),
                src,
                rw.rule,
                rw.action_label(),
                esc(&rw.detail)
            )?;
        }
    }
    let mut per_rule: BTreeMap<&str, usize> = BTreeMap::new();
    for rw in &p.rewrites {
        *per_rule.entry(rw.rule).or_default() += 1;
    }
    writeln!(out, "\nrewrites per rule:")?;
    if per_rule.is_empty() {
        writeln!(out, "  (none: the replay equals the stored transcript)")?;
    }
    for (rule, n) in per_rule {
        writeln!(out, "  {rule:<28} {n}")?;
    }
    Ok(())
}

fn marker(action: Action) -> &'static str {
    match action {
        Action::Drop => "-",
        Action::Insert => "+",
        Action::Modify => "~",
        Action::Merge => "&",
        Action::Move => ">",
    }
}
