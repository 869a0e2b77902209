//! Live follow in the app state: a re-read replaces the projection in place and keeps the
//! selection; a re-read that fails keeps the view and says why.

use super::*;

#[test]
fn a_live_reread_keeps_the_selection_and_a_failed_one_keeps_the_view() {
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    press(&mut app, "j");
    press(&mut app, "j");
    press(&mut app, "j");
    let stored = app.selected_row().unwrap().stored.clone();
    app.live_reload = Some(stored.first().copied());
    app.loaded(Ok(sample("anthropic-tool-repair.jsonl")));
    assert!(app.live_reload.is_none());
    assert_eq!(
        app.selected_row().unwrap().stored,
        stored,
        "the same stored message stays selected"
    );
    let rows = app.rows.len();
    app.live_reload = Some(None);
    app.loaded(Err("the file is gone".into()));
    assert_eq!(app.status.as_deref(), Some("live: the file is gone"));
    assert_eq!(app.rows.len(), rows, "the view stays");
    assert!(app.insp.is_some());
}
