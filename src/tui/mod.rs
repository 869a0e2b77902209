//! The inspector: stored turns and the replay projection side by side, every rewrite marked
//! with the rule behind it.
//!
//! One [`app::App`] holds all state; keys become [`action::Action`]s through the
//! [`keymap::Keymap`] table; an open [`overlay`] owns its state, keys and drawing and returns
//! effects to the app; [`render`] draws the state and reads nothing else. Only [`terminal`]
//! touches the real terminal, and [`loader`] does the I/O on a thread.

pub mod action;
pub mod app;
pub(crate) mod copy;
pub mod describe;
pub mod diff;
pub mod explain;
pub mod export_job;
pub mod export_write;
#[cfg_attr(not(test), allow(dead_code))]
pub mod fixtures;
pub mod image_info;
pub mod input;
pub mod inspection;
pub mod keymap;
pub mod layout;
pub mod live;
pub mod load_state;
pub mod loader;
pub mod overlay;
pub mod pickers;
pub mod reduce_job;
pub mod render;
pub mod reproject;
pub mod row_scroll;
pub mod row_view;
pub mod rows;
pub mod scan_state;
pub mod search;
pub mod terminal;
pub mod theme;
pub mod wire_state;
pub mod wire_view;
pub mod wrap;

#[cfg(test)]
mod snapshot;
#[cfg(test)]
mod tests;

use replaylens::rule_set::RuleSet;
use std::path::PathBuf;
use std::sync::mpsc::Receiver;
use std::time::Duration;

use ratatui::crossterm::event::Event;
use ratatui::layout::Rect;
use replaylens::load::{LoadOptions, is_database, load_path};
use replaylens::policy::Target;

use self::app::{App, Effect, LoadRequest};
use self::keymap::{Keymap, config_dir};
use self::loader::LoadEvent;
use self::pickers::SessionSource;
use self::theme::{Theme, no_color_env};
use self::wire_state::{WireJob, WireState};

/// What the command line asked for.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// A session file, a folder or a database; `None` = discover.
    pub session: Option<PathBuf>,
    /// For a database: the session id.
    pub session_id: Option<String>,
    /// The requested target (missing parts from the session).
    pub target: Target,
    /// The OpenClaw rule set to replay with.
    pub rule_set: &'static RuleSet,
    /// Whether `--openclaw` was left out: the release a session records picks the set.
    pub rule_set_from_session: bool,
    /// Theme name or path.
    pub theme: Option<String>,
    /// The user's OpenClaw configuration (`--config`, else where OpenClaw finds it).
    pub config: Option<std::sync::Arc<replaylens::policy::config::OpenClawConfig>>,
}

/// The theme named on the command line, else in `config.toml` (`theme = "light"`), else
/// `auto`: the terminal's background colour (asked with OSC 11) picks dark or light. `detect`
/// is false where no terminal may be asked (auto then means dark).
fn choose_theme(cli: Option<&str>, detect: bool) -> anyhow::Result<Theme> {
    let no_color = no_color_env();
    let from_config = config_dir()
        .map(|d| d.join("config.toml"))
        .filter(|p| p.is_file())
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|text| toml::from_str::<toml::Table>(&text).ok())
        .and_then(|t| t.get("theme").and_then(|v| v.as_str()).map(str::to_owned));
    let name = cli.map(str::to_owned).or(from_config).unwrap_or_else(|| "auto".into());
    if name == "auto" {
        let light = detect && !no_color && terminal::background_is_light();
        return Theme::load(if light { "light" } else { "dark" }, no_color);
    }
    Theme::load(&name, no_color)
}

/// Build the app for the options (before any terminal is touched).
pub fn prepare(options: &Options) -> anyhow::Result<App> {
    let keymap = Keymap::load_user()?;
    let theme = choose_theme(options.theme.as_deref(), true)?;
    let source = match &options.session {
        Some(p) if p.is_dir() => SessionSource::Path(p.clone()),
        Some(p) if is_database(p) && options.session_id.is_none() => SessionSource::Path(p.clone()),
        _ => SessionSource::Default,
    };
    let mut app = App::new(keymap, theme, source);
    app.rule_set = options.rule_set;
    app.rule_set_chosen = !options.rule_set_from_session;
    app.config.clone_from(&options.config);
    match &options.session {
        Some(p) if !p.exists() => {
            let err = load_path(p, &LoadOptions::default()).err();
            return Err(err.map_or_else(|| anyhow::anyhow!("{}: not found", p.display()), Into::into));
        }
        Some(p) if p.is_file() => app.request_load(LoadRequest {
            path: p.clone(),
            session: options.session_id.clone(),
            target: options.target.clone(),
            rule_set: options.rule_set,
            rule_set_from_session: options.rule_set_from_session,
            config: None,
        }),
        _ => app.open_sessions(),
    }
    Ok(app)
}

/// Run the inspector until the user quits.
pub fn run(options: &Options) -> anyhow::Result<()> {
    if let Err(no_terminal) = terminal::require_terminal() {
        // A mistake in the settings files is reported first: it needs fixing either way.
        Keymap::load_user()?;
        choose_theme(options.theme.as_deref(), false)?;
        return Err(no_terminal.into());
    }
    let mut app = prepare(options)?;
    render::json::preload();
    let mut guard = terminal::TerminalGuard::enter()?;
    let mut loading: Option<Receiver<LoadEvent>> = None;
    let mut wiring: Option<Receiver<(WireJob, WireState)>> = None;
    let mut reprojecting: Option<Receiver<reproject::Reprojected>> = None;
    let mut exporting: Option<(Receiver<export_job::ExportEvent>, export_write::ExportRequest)> = None;
    let mut reducing: Option<Receiver<reduce_job::ReduceEvent>> = None;
    let mut scanner = scan_state::Scanner::default();
    let mut dirty = true;
    loop {
        // What happened to a followed file is drawn at once, even when nothing is read.
        dirty |= app.follow_tick();
        for effect in std::mem::take(&mut app.effects) {
            match effect {
                Effect::Load(request) => loading = Some(loader::spawn(request)),
                Effect::Follow(read) => loading = Some(loader::spawn_followed(read)),
                // Off the UI thread: keys keep working while the report is written.
                Effect::Export(request) => {
                    app.export_started();
                    exporting = Some((export_job::spawn(request.clone()), request));
                    dirty = true;
                }
                Effect::Wire(job) => wiring = Some(wire_state::spawn(job)),
                Effect::Reduce(request) => {
                    reducing = Some(reduce_job::spawn(request));
                    dirty = true;
                }
                // A newer switch replaces the receiver: an older result is never taken.
                Effect::Reproject(job) => reprojecting = Some(reproject::spawn(job)),
                Effect::Copy(text) => {
                    use std::io::Write;
                    let mut out = std::io::stdout();
                    let sent = out.write_all(copy::osc52(&text).as_bytes()).and_then(|()| out.flush());
                    if sent.is_err() {
                        app.status = Some("could not write to the terminal".into());
                    }
                }
            }
        }
        if let Some(rx) = &loading {
            while let Ok(event) = rx.try_recv() {
                dirty = true;
                match event {
                    LoadEvent::Stage(stage) => {
                        if let Some(l) = &mut app.loading {
                            l.stage = stage;
                        }
                    }
                    LoadEvent::Progress { read, total } => {
                        if let Some(l) = &mut app.loading {
                            l.read = read;
                            l.total = total;
                        }
                    }
                    LoadEvent::Preview(insp) => app.show_preview(*insp),
                    LoadEvent::Stored(insp) => app.show_stored(*insp),
                    LoadEvent::Done(result) => {
                        app.loaded(*result);
                        loading = None;
                        break;
                    }
                }
            }
        }
        if let Some(rx) = &reprojecting
            && let Ok(result) = rx.try_recv()
        {
            app.reprojected(result);
            reprojecting = None;
            dirty = true;
        }
        if let Some(rx) = &wiring
            && let Ok((job, state)) = rx.try_recv()
        {
            app.wire_ready(&job, state);
            wiring = None;
            dirty = true;
        }
        if let Some((rx, request)) = &exporting {
            let mut done = None;
            while let Ok(event) = rx.try_recv() {
                dirty = true;
                match event {
                    export_job::ExportEvent::Progress(stage) => app.export_progress(stage),
                    export_job::ExportEvent::Done(result) => done = Some(result),
                }
            }
            if let Some(result) = done {
                app.export_done(result, request);
                exporting = None;
            }
        }
        if let Some(rx) = &reducing {
            let mut done = None;
            while let Ok(event) = rx.try_recv() {
                dirty = true;
                match event {
                    reduce_job::ReduceEvent::Progress(left, of, checks) => app.reduce_progress(left, of, checks),
                    reduce_job::ReduceEvent::Done(result) => done = Some(result),
                }
            }
            if let Some(result) = done {
                app.reduce_done(result);
                reducing = None;
            }
        }
        dirty |= scanner.pump(&mut app);
        if dirty || app.loading.is_some() {
            let size = guard.terminal.size()?;
            app.resize(Rect::new(0, 0, size.width, size.height));
            guard.terminal.draw(|frame| render::draw(&app, frame))?;
            dirty = false;
        }
        if app.quit {
            break;
        }
        // While loading, wake often: the stored side and the projection are drawn as soon as
        // they arrive.
        let busy = app.loading.is_some()
            || wiring.is_some()
            || reprojecting.is_some()
            || exporting.is_some()
            || reducing.is_some()
            || scanner.busy();
        // Following a live session, wake often enough that an append shows within a tenth of
        // a second (a wake only looks at the file-event channel unless it says something).
        let idle = if app.live.is_some() { 100 } else { 500 };
        let wait = Duration::from_millis(if busy { 15 } else { idle });
        let (keys, other) = terminal::next_events(wait)?;
        if !keys.is_empty() {
            input::handle_burst(&mut app, &keys);
            dirty = true;
        }
        match other {
            Some(Event::Paste(text)) => {
                input::handle_paste(&mut app, text);
                dirty = true;
            }
            Some(Event::Mouse(mouse)) => {
                input::handle_mouse(&mut app, mouse);
                dirty = true;
            }
            Some(Event::Resize(..)) => dirty = true,
            _ => {}
        }
    }
    drop(guard);
    if let Some((what, text)) = &app.last_copy {
        // OSC 52 is never confirmed: what was copied last is printed once the screen is back.
        println!("replaylens: last copied ({what}):\n{text}");
    }
    Ok(())
}
