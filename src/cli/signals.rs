//! Stopping cleanly when told to: SIGTERM, SIGHUP, SIGINT, SIGUSR1 and SIGALRM (every signal
//! whose default action ends the process and that a program may catch) remove the private
//! database copies a load holds in the temporary folder (a WAL database is read from a copy of
//! hundreds of MB) and every scratch file in flight (an output's temporary, a repair's backup
//! link and lock: [`replaylens::write::remove_temporaries`]), then end the process with the
//! status a shell expects (128 + signal).

use signal_hook::consts::{SIGALRM, SIGHUP, SIGINT, SIGTERM, SIGUSR1};
use signal_hook::iterator::Signals;

/// The signals that end the process after cleaning up.
pub const STOP_SIGNALS: [i32; 5] = [SIGTERM, SIGHUP, SIGINT, SIGUSR1, SIGALRM];

/// Watch for the stop signals on a background thread for the rest of the process.
pub fn install() {
    let Ok(mut signals) = Signals::new(STOP_SIGNALS) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            replaylens::write::remove_temporaries();
            replaylens::load::sqlite::remove_private_copies();
            std::process::exit(128 + signal);
        }
    });
}
