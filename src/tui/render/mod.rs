//! Drawing: pure functions of the app state into a ratatui frame. Only the rows that are
//! visible are laid out, so a frame costs the same for 100 or 20,000 messages.

pub mod detail;
mod header;
pub mod json;
mod loading;
mod payload;
mod row_diff;
mod rows;
mod status;

use ratatui::Frame;
use ratatui::widgets::{Block, Clear, Paragraph};

use super::app::App;
use super::theme::Role;

/// Draw the whole screen.
pub fn draw(app: &App, frame: &mut Frame<'_>) {
    let screen = frame.area();
    let areas = super::layout::Areas::new(screen, app.show_detail);
    frame.render_widget(Block::default().style(app.theme.style(Role::Text)), screen);
    match &app.insp {
        Some(insp) => {
            header::draw(app, insp, frame, areas.header);
            rows::draw_titles(app, frame, areas.titles);
            rows::draw(app, insp, frame, areas.rows);
            if areas.detail.height > 0 {
                detail::draw(app, insp, frame, areas.detail);
            }
        }
        None => {
            frame.render_widget(Clear, areas.rows);
            let note = if app.loading.is_some() {
                "loading…"
            } else {
                "no session loaded: press o to open one"
            };
            frame.render_widget(
                Paragraph::new(note).style(app.theme.style(Role::Placeholder)),
                areas.rows,
            );
        }
    }
    status::draw(app, frame, areas.status);
    super::overlay::draw(app, frame, screen);
    loading::draw(app, frame, screen);
}
