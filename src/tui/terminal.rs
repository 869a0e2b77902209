//! The real terminal: raw mode, alternate screen and mouse capture on entry, restored on
//! every exit path (drop, error, panic); crossterm event reading.

use std::io::stdout;
use std::time::Duration;

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;

/// Owns the terminal while the inspector runs; restores it when dropped.
pub struct TerminalGuard {
    /// The ratatui terminal.
    pub terminal: DefaultTerminal,
}

impl TerminalGuard {
    /// Enter raw mode and the alternate screen, enable mouse capture, and chain a panic hook
    /// that undoes it all before the panic message is printed.
    pub fn enter() -> std::io::Result<Self> {
        let terminal = ratatui::try_init()?;
        execute!(stdout(), EnableMouseCapture)?;
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        Ok(Self { terminal })
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Leave mouse capture, raw mode and the alternate screen (safe to call twice).
fn restore() {
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
}

/// Wait up to `timeout` for an input event.
pub fn next_event(timeout: Duration) -> std::io::Result<Option<Event>> {
    if event::poll(timeout)? {
        Ok(Some(event::read()?))
    } else {
        Ok(None)
    }
}
