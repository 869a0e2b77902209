//! The real terminal: raw mode, alternate screen, mouse capture and bracketed paste on entry,
//! restored on every exit path (drop, error, panic); crossterm event reading.

use std::io::stdout;
use std::time::Duration;

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture, Event, KeyEvent,
};
use ratatui::crossterm::execute;

/// The inspector was started where it cannot draw or read keys (exit status 2).
#[derive(Debug, thiserror::Error)]
#[error("the inspector needs a terminal ({0} is not one); use `replaylens show|replay|export …` for plain output")]
pub struct NoTerminal(pub &'static str);

/// Check, before anything is drawn, that there is a terminal: standard output must be one,
/// and keys are read from standard input when it is a terminal, else from `/dev/tty` (as
/// crossterm does), which a process without a controlling terminal cannot open.
pub fn require_terminal() -> Result<(), NoTerminal> {
    use std::io::IsTerminal;
    if !stdout().is_terminal() {
        return Err(NoTerminal("standard output"));
    }
    let keys = std::io::stdin().is_terminal()
        || std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .is_ok();
    if keys {
        Ok(())
    } else {
        Err(NoTerminal("standard input"))
    }
}

/// The terminal failed while the inspector was using it.
#[derive(Debug, thiserror::Error)]
#[error("cannot {doing} the terminal: {source}")]
pub struct TerminalError {
    doing: &'static str,
    #[source]
    source: std::io::Error,
}

impl TerminalError {
    fn new(doing: &'static str) -> impl FnOnce(std::io::Error) -> Self {
        move |source| Self { doing, source }
    }
}

/// Owns the terminal while the inspector runs; restores it when dropped.
pub struct TerminalGuard {
    /// The ratatui terminal.
    pub terminal: DefaultTerminal,
}

impl TerminalGuard {
    /// Enter raw mode and the alternate screen, enable mouse capture and bracketed paste (a
    /// terminal without it types a paste out as keys), and chain a panic hook
    /// that undoes it all before the panic message is printed.
    pub fn enter() -> Result<Self, TerminalError> {
        let terminal = ratatui::try_init().map_err(TerminalError::new("set up"))?;
        if let Err(e) = execute!(stdout(), EnableMouseCapture) {
            restore();
            return Err(TerminalError::new("enable mouse input on")(e));
        }
        let _ = execute!(stdout(), EnableBracketedPaste);
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
    let _ = execute!(stdout(), DisableBracketedPaste);
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
}

/// Whether the terminal answers OSC 11 with a light background colour (perceived lightness
/// over one half). A terminal that does not answer within 300 ms, or that is not asked (`TERM=dumb`), counts as dark.
pub fn background_is_light() -> bool {
    let mut options = terminal_colorsaurus::QueryOptions::default();
    options.timeout = Duration::from_millis(300);
    terminal_colorsaurus::background_color(options).is_ok_and(|c| c.perceived_lightness() > 0.5)
}

/// Wait up to `timeout` for an input event.
pub fn next_event(timeout: Duration) -> Result<Option<Event>, TerminalError> {
    let read = TerminalError::new("read keys from");
    match event::poll(timeout) {
        Ok(true) => event::read().map(Some).map_err(read),
        Ok(false) => Ok(None),
        Err(e) => Err(read(e)),
    }
}

/// Wait up to `timeout` for input, then take the key events already waiting behind the first
/// one (several at once are a paste typed out as keys), up to the first event of another kind,
/// which is returned beside them.
pub fn next_events(timeout: Duration) -> Result<(Vec<KeyEvent>, Option<Event>), TerminalError> {
    let mut keys = Vec::new();
    let mut next = next_event(timeout)?;
    while let Some(Event::Key(key)) = next {
        keys.push(key);
        if keys.len() >= 4096 {
            return Ok((keys, None));
        }
        next = next_event(Duration::ZERO)?;
    }
    Ok((keys, next))
}
