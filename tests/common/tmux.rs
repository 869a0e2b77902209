//! The inspector in a real terminal: a tmux server of its own per test, keys sent, the pane
//! captured (used by tests/tui_tmux.rs and tests/tui_live.rs; `.ci/run` installs tmux).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A tmux server of its own running one command in a pane of a given size.
pub struct Tmux {
    socket: String,
}

impl Tmux {
    pub fn start(name: &str, command: &str) -> Self {
        Self::start_sized(name, command, 120, 40)
    }

    pub fn start_sized(name: &str, command: &str, width: u16, height: u16) -> Self {
        let version = Command::new("tmux").arg("-V").output();
        assert!(
            version.is_ok_and(|o| o.status.success()),
            "tmux is required for the real-terminal inspector test; install it (apt-get install -y tmux)"
        );
        let tmux = Self {
            socket: format!("replaylens-test-{}-{name}", std::process::id()),
        };
        let (w, h) = (width.to_string(), height.to_string());
        let out = tmux.run(&["new-session", "-d", "-x", &w, "-y", &h, "-s", "t", command]);
        assert!(
            out.status.success(),
            "tmux new-session failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        tmux
    }

    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("run tmux")
    }

    pub fn capture(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "t"]).stdout).into_owned()
    }

    pub fn send(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    pub fn wait_for(&self, what: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = self.capture();
            if screen.contains(what) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what:?}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn wait_gone(&self, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.capture().contains(what) {
            assert!(
                Instant::now() < deadline,
                "{what:?} did not go away; screen:\n{}",
                self.capture()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn wait_exit(&self) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while self.run(&["has-session", "-t", "t"]).status.success() {
            assert!(
                Instant::now() < deadline,
                "the inspector did not exit; screen:\n{}",
                self.capture()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// The shell command running the inspector with `args` and its own config folder.
pub fn command(args: &[&Path], config: &Path) -> String {
    let bin = env!("CARGO_BIN_EXE_replaylens");
    let args: Vec<String> = args.iter().map(|a| format!("'{}'", a.display())).collect();
    format!(
        "env TERM=xterm-256color REPLAYLENS_CONFIG_DIR='{}' '{bin}' {}",
        config.display(),
        args.join(" ")
    )
}

/// The bundled sample sessions.
pub fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sessions")
}
