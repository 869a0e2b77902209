//! Stopping cleanly when told to: SIGTERM, SIGHUP and SIGINT remove the private database
//! copies a load holds in the temporary folder (a WAL database is read from a copy of
//! hundreds of MB), then end the process with the status a shell expects (128 + signal).

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// Watch for the stop signals on a background thread for the rest of the process.
pub fn install() {
    let Ok(mut signals) = Signals::new([SIGTERM, SIGHUP, SIGINT]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            replaylens::load::sqlite::remove_private_copies();
            std::process::exit(128 + signal);
        }
    });
}
