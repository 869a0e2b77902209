//! `/` over what messages hold and `Y` over a row's ids.

use super::{app_with, press, sample};
use crate::tui::theme::Theme;

#[test]
fn shift_y_copies_each_id_of_the_row_in_turn_and_search_finds_full_ids() {
    use crate::tui::app::Effect;
    let mut app = app_with(sample("anthropic-tool-repair.jsonl"), Theme::dark());
    let insp = app.insp.as_ref().unwrap();
    // A tool result: its call id, its entry id, then the session id.
    let (pos, call) = app
        .view
        .iter()
        .enumerate()
        .find_map(|(pos, &r)| {
            let s = *app.rows[r].stored.first()?;
            insp.stored(s)?.tool_call_id().map(|id| (pos, id.to_owned()))
        })
        .unwrap();
    let entry = insp.transcript.messages[app.rows[app.view[pos]].stored[0]]
        .entry_id
        .clone()
        .unwrap();
    let session = insp.session.id.clone();
    app.select(pos);
    let mut copied = Vec::new();
    for _ in 0..4 {
        app.effects.clear();
        press(&mut app, "Y");
        copied.extend(app.effects.iter().filter_map(|e| match e {
            Effect::Copy(t) => Some(t.clone()),
            _ => None,
        }));
    }
    assert_eq!(copied, [call.clone(), entry.to_string(), session, call.clone()]);
    // `/` finds the row by the whole id (shown shortened), in any case.
    app.select(0);
    press(&mut app, "/");
    press(&mut app, &format!("{}\n", call.to_lowercase()));
    assert!(
        app.search.as_ref().is_some_and(|s| !s.matches.is_empty()),
        "{:?}",
        app.status
    );
    app.select(0);
    press(&mut app, "/");
    press(&mut app, &format!("{entry}\n"));
    assert!(
        app.search.as_ref().is_some_and(|s| s.matches.len() == 1),
        "{:?}",
        app.status
    );
}
