//! `replaylens replay SESSION [TARGET]`: the projection and every rewrite.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use replaylens::export::json::replay_document;
use replaylens::hygiene::{Action, ReplayOptions};
use replaylens::load::tail::TailReader;
use replaylens::load::{Keep, LoadOptions};
use replaylens::model::Session;
use replaylens::model::json::to_value;
use replaylens::policy::{EffectiveTarget, Target};
use replaylens::replay::PreparedReplay;
use replaylens::text::escape_controls_single_line as esc;

use super::describe;

/// Replay one session for a target and print it; the number of replay messages printed
/// (none in JSON, which is one document).
pub fn run(
    path: &Path,
    load: LoadOptions,
    target: &Target,
    options: &ReplayOptions,
    json: bool,
) -> anyhow::Result<usize> {
    run_loaded(super::load_transcript_only(path, load)?, target, options, json)
}

/// [`run`] for a session already loaded (keeping its transcript only).
fn run_loaded(session: Session, target: &Target, options: &ReplayOptions, json: bool) -> anyhow::Result<usize> {
    let (prepared, effective) = super::prepare_loaded(session, target, options, !json)?;
    if json {
        print_document(prepared, &effective)?;
        return Ok(0);
    }
    let mut out = std::io::stdout().lock();
    let (s, r) = (&prepared.session, &prepared.resolved);
    let t = &r.target;
    writeln!(
        out,
        "session {} ({}) → {} / {} / {}  [{}]",
        esc(&s.id),
        s.format.as_str(),
        esc(t.provider.as_deref().unwrap_or("?")),
        esc(t.api.as_deref().unwrap_or("?")),
        esc(t.model.as_deref().unwrap_or("?")),
        r.family.id()
    )?;
    if let Some(assumption) = r.assumption() {
        writeln!(out, "policy {}", esc(&assumption))?;
    }
    if let Some(no_route) = &r.no_route {
        writeln!(out, "{} and sends nothing", esc(no_route))?;
    }
    let (stored, rule_set) = (prepared.transcript.messages.len(), prepared.options.rule_set.name);
    let p = &prepared.run();
    writeln!(
        out,
        "stored {} → replay {}, {} rewrites (OpenClaw rule set {})\n",
        stored,
        p.messages.len(),
        p.rewrites.len(),
        rule_set
    )?;
    if let Some(refusal) = &p.refusal {
        writeln!(
            out,
            "OpenClaw refuses this replay and sends nothing: {}\n(the messages below are the history it had built)\n",
            esc(refusal)
        )?;
    }
    // Each message's rewrites, in pipeline order, found in one pass (not one scan per message).
    let mut on_message: Vec<(usize, usize)> = p
        .rewrites
        .iter()
        .enumerate()
        .flat_map(|(n, rw)| rw.replay.iter().map(move |&i| (i, n)))
        .collect();
    on_message.sort_unstable();
    on_message.dedup();
    let mut next = on_message.into_iter().peekable();
    for (i, m) in p.messages.iter().enumerate() {
        write_replay_message(&mut out, i, m)?;
        while let Some((_, n)) = next.next_if(|(at, _)| *at == i) {
            write_rewrite(&mut out, &p.rewrites[n])?;
        }
    }
    let dropped: Vec<_> = p.rewrites.iter().filter(|rw| rw.replay.is_empty()).collect();
    if !dropped.is_empty() {
        writeln!(out, "\nnot in the replay:")?;
        for rw in dropped {
            let src = replaylens::text::index_list(&rw.stored, "s");
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
    Ok(p.messages.len())
}

/// `replay --format json`: the contract document of `docs/internals.md` plus
/// `targetOrigin`, where each part of `target` came from, written while the replay runs.
fn print_document(prepared: PreparedReplay, effective: &EffectiveTarget) -> anyhow::Result<()> {
    let document = replay_document(prepared, vec![("targetOrigin", to_value(&effective.origin())?)]);
    super::print_json(&document)?;
    // The process ends here: freeing every value of a large session one by one would only
    // delay the exit (about 4% of the command's time).
    std::mem::forget(document.into_projection());
    Ok(())
}

/// One replay message as `replay` prints it: its index, where it came from, the message.
fn write_replay_message(out: &mut impl Write, i: usize, m: &replaylens::hygiene::ReplayMessage) -> std::io::Result<()> {
    let src = if m.source.is_empty() {
        "new".to_owned()
    } else {
        replaylens::text::index_list(&m.source, "s")
    };
    describe::write_message(out, &format!("#{i:<4}"), &format!("← {src}"), &m.message)
}

/// One rewrite under its message: marker, rule, action and detail.
fn write_rewrite(out: &mut impl Write, rw: &replaylens::hygiene::Rewrite) -> std::io::Result<()> {
    writeln!(
        out,
        "      {} {} {}: {}",
        marker(rw.action),
        rw.rule,
        rw.action_label(),
        esc(&rw.detail)
    )
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

/// `replay --follow`: print the replay ([`run`]), then watch the session; each time an agent
/// writes to it (whole lines, or a database commit), read what it appended (only the new
/// lines of a JSONL file), replay it again and print the replay messages it gained, with
/// their rewrites, and the payload verdict. Anything else that happens to the path (truncated,
/// deleted, replaced by another file, a FIFO, a folder, a device or a link, a line over the
/// limit) is one line on standard error naming the file, what happened and what follows; a
/// truncated or replaced regular file is replayed again from the start, anything else is never
/// opened. Runs until interrupted. The operating system's change events wake the loop (with a
/// slow poll in case one is missed); without them, the file is polled.
pub fn run_and_follow(
    path: &Path,
    load: LoadOptions,
    target: &Target,
    options: &ReplayOptions,
    json: bool,
) -> anyhow::Result<()> {
    use replaylens::load::watch::{Events, POLL_EVERY, RECHECK_EVERY, Watch};
    let load = LoadOptions {
        keep: Keep::Transcript,
        ..load
    };
    let mut watch = Watch::new(path, load.limits);
    let events = Events::new(path);
    let mut tail = TailReader::new(path, load);
    let (session, _) = tail.read()?;
    let mut shown = run_loaded(session, target, options, json)?;
    let name = path.display().to_string();
    let mut out = std::io::stdout().lock();
    writeln!(out, "\nfollowing {} (Ctrl-C ends)", esc(&name))?;
    out.flush()?;
    // The last read error said, so a file that stays unreadable is said once.
    let mut said: Option<String> = None;
    loop {
        match &events {
            Some(events) => {
                events.wait(RECHECK_EVERY);
            }
            None => std::thread::sleep(POLL_EVERY),
        }
        let change = watch.poll();
        if let Some(sentence) = change.sentence(&name) {
            eprintln!("{}", esc(&sentence));
        }
        if change.reads_from_start() {
            tail.forget();
            shown = 0;
        }
        if !change.reads() {
            continue;
        }
        let session = match tail.read() {
            Ok((session, _)) => session,
            Err(e) => {
                let e = e.to_string();
                if said.as_ref() != Some(&e) {
                    eprintln!("{}; waiting for the next change", esc(&e));
                    said = Some(e);
                }
                continue;
            }
        };
        said = None;
        shown = write_update(&mut out, &session, target, options, shown)?;
        out.flush()?;
    }
}

/// Replay the session again after a change: the counts and verdict, then the replay messages
/// from index `shown` on, with their rewrites; the number of replay messages.
fn write_update(
    out: &mut impl Write,
    session: &Session,
    target: &Target,
    options: &ReplayOptions,
    shown: usize,
) -> std::io::Result<usize> {
    use replaylens::lint::lint;
    use replaylens::wire::{WireStage, payload_of};
    let r = replaylens::replay::replay(session, target, options);
    let p = &r.projection;
    let verdict = match payload_of(&r, WireStage::Replay) {
        Ok(w) => match lint(&w).len() {
            0 if p.messages.is_empty() => "nothing to send (the replay holds no message)".to_owned(),
            0 => "✓ payload accepted".to_owned(),
            1 => "✗ payload would be rejected (1 finding)".to_owned(),
            n => format!("✗ payload would be rejected ({n} findings)"),
        },
        Err(_) => "no payload".to_owned(),
    };
    writeln!(
        out,
        "\n── session changed: stored {} → replay {}, {} rewrites · {verdict}",
        r.transcript.messages.len(),
        p.messages.len(),
        p.rewrites.len()
    )?;
    for (i, m) in p.messages.iter().enumerate().skip(shown.min(p.messages.len())) {
        write_replay_message(out, i, m)?;
        for rw in p.rewrites.iter().filter(|rw| rw.replay.contains(&i)) {
            write_rewrite(out, rw)?;
        }
    }
    Ok(p.messages.len())
}
