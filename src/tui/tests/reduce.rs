//! `R`: the selected row's rewrite (or finding) becomes a reduction on its own thread; the
//! header shows it; at its end the reduced session is opened.

use super::*;
use crate::tui::app::Effect;
use crate::tui::reduce_job::{ReduceEvent, spawn};
use replaylens::reduce::Keep;

#[test]
fn r_reduces_to_the_rows_rewrite_and_opens_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    app.resize(ratatui::layout::Rect::new(0, 0, 80, 24));
    press(&mut app, "]");
    let rule = {
        let insp = app.insp.as_ref().unwrap();
        let row = app.selected_row().unwrap();
        insp.rewrites[row.rewrites[0]].rule
    };
    press(&mut app, "R");
    let mut request = app
        .effects
        .drain(..)
        .find_map(|e| match e {
            Effect::Reduce(r) => Some(r),
            _ => None,
        })
        .expect("R asks for a reduction");
    assert_eq!(request.keep, Keep::Rule(rule.to_owned()));
    assert!(
        request
            .output
            .to_string_lossy()
            .ends_with("anthropic-tool-repair.reduced.jsonl")
    );
    request.output = dir.path().join("small.jsonl");
    let header = text(&screen(&mut app));
    assert!(header.lines().nth(1).unwrap().contains("⟳ reduce"), "{header}");
    press(&mut app, "R");
    assert_eq!(app.status.as_deref(), Some("a reduction is already running"));
    let rx = spawn(request.clone());
    let result = loop {
        match rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("the job ends")
        {
            ReduceEvent::Progress(left, of, checks) => app.reduce_progress(left, of, checks),
            ReduceEvent::Done(result) => break result,
        }
    };
    let (path, left, of) = result.clone().expect("reduced");
    assert!(left < of && left <= 5, "{left} of {of}");
    app.reduce_done(result);
    assert!(app.reducing.is_none());
    assert!(
        app.status.as_deref().unwrap().starts_with("reduced to "),
        "{:?}",
        app.status
    );
    let opened = app.effects.iter().find_map(|e| match e {
        Effect::Load(l) => Some(l.path.clone()),
        _ => None,
    });
    assert_eq!(opened, Some(path.clone()), "the reduced session is opened");
    let reduced = replaylens::load::load_path(&path, &Default::default()).expect("it loads");
    let r = replaylens::replay::replay(&reduced, &request.target, &request.options);
    assert!(
        r.projection.rewrites.iter().any(|rw| rw.rule == rule),
        "it still shows the rewrite"
    );
}

#[test]
fn r_on_a_row_with_neither_finding_nor_rewrite_says_so() {
    let mut app = app_with(fixtures::plain(3), Theme::dark());
    press(&mut app, "R");
    assert!(app.effects.iter().all(|e| !matches!(e, Effect::Reduce(_))));
    assert_eq!(
        app.status.as_deref(),
        Some("R reduces to a finding or a rewrite: this row has neither")
    );
}

#[test]
fn r_never_writes_through_a_link_planted_at_its_output_name() {
    let dir = tempfile::tempdir().unwrap();
    let source = std::path::Path::new("/x/case.jsonl");
    let victim = dir.path().join("victim.txt");
    std::os::unix::fs::symlink(&victim, dir.path().join("case.reduced.jsonl")).unwrap();
    let chosen = crate::tui::reduce_job::output_in(dir.path(), source, "openclaw-jsonl");
    assert_eq!(chosen, dir.path().join("case.reduced-2.jsonl"));
    // A side file planted alone takes the name too.
    std::fs::write(dir.path().join("case.reduced-2.jsonl.reduce.json"), "{}").unwrap();
    let chosen = crate::tui::reduce_job::output_in(dir.path(), source, "openclaw-jsonl");
    assert_eq!(chosen, dir.path().join("case.reduced-3.jsonl"));
    assert!(!victim.exists(), "the dangling link's target was created");
}
