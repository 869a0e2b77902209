//! The README's captures (the inspector screen, `lint` and `scan` output) are what the binary
//! prints today: `scripts/readme-captures.sh --check` regenerates them from this build under
//! tmux and fails on any difference. Requires tmux and python3 (`.ci/run` installs them).

use std::process::Command;

#[test]
fn readme_captures_match_the_binary() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("bash")
        .arg(format!("{root}/scripts/readme-captures.sh"))
        .arg("--check")
        .env("REPLAYLENS_BIN", env!("CARGO_BIN_EXE_replaylens"))
        .output()
        .expect("run scripts/readme-captures.sh");
    assert!(
        out.status.success(),
        "the README captures are stale; run `bash scripts/readme-captures.sh`:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
