//! Opening the pickers (the profile picker, the session picker over the right folder) and
//! opening the session chosen in one; the pickers themselves are overlays
//! ([`super::overlay::profiles`], [`super::overlay::sessions`]).

use std::path::{Path, PathBuf};

use replaylens::load::discover::Listing;
use replaylens::policy::Target;

use super::app::{App, LoadRequest, Mode};
pub use super::overlay::profiles::ProfilePicker;
pub use super::overlay::sessions::{SessionPicker, SessionSource};

/// The folder that holds a session file (`.` for a bare file name).
pub fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

impl App {
    /// Open the profile picker, the current target preselected.
    pub fn open_profiles(&mut self) {
        let Some(insp) = &self.insp else { return };
        let m = &insp.transcript.model;
        let session_model = Target {
            provider: m.provider.clone(),
            api: m.api.clone(),
            model: m.model.clone(),
        };
        self.mode = Mode::Profiles(ProfilePicker::new(&session_model, &insp.requested));
    }

    /// Open the session picker and ask for the scan that fills in its counts. With a session
    /// open that was not chosen in the picker (a file or database given on the command line),
    /// the picker lists the folder that holds it (a database's windows included) from then on.
    pub fn open_sessions(&mut self) {
        let derived = match (&self.sessions, &self.insp) {
            (SessionSource::Path(p), _) if p.is_dir() => None,
            (SessionSource::Default, _) if self.picked => None,
            (_, Some(insp)) => Some(folder_of(&insp.session.path)),
            _ => None,
        };
        if let Some(folder) = derived {
            self.sessions = SessionSource::Path(folder);
        }
        let (listings, origin) = self.sessions.list();
        let mut picker = SessionPicker::new(listings, origin);
        picker.start_scan(self.rule_set);
        self.mode = Mode::Sessions(picker);
    }

    /// Load the selected listing; with `at`, select that stored message once it is shown.
    pub fn open_listing(&mut self, listing: &Listing, at: Option<usize>) {
        if let Some(err) = &listing.error {
            self.status = Some(format!("{}: {err}", listing.path.display()));
            return;
        }
        self.open_at = at;
        self.picked = true;
        let is_db = listing.format == Some("openclaw-sqlite");
        let target = self.insp.as_ref().map(|i| i.requested.clone()).unwrap_or_default();
        self.request_load(LoadRequest {
            path: listing.path.clone(),
            session: is_db.then(|| listing.id.clone()),
            target,
            rule_set: self.rule_set,
            rule_set_from_session: !self.rule_set_chosen,
            config: None,
        });
    }
}
