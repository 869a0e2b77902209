//! Write a fleet of OpenClaw sessions for `scan` benchmarks and tests: many small and
//! medium deterministic sessions (tool calls, signed thinking, images, missing results,
//! a compaction, a sibling branch each), spread over agent folders, plus one corrupt file.
//!
//! `cargo run --release --example gen_fleet -- [OUT_DIR] [--sessions N] [--seed N] [--scale]`
//! (default `bench-data/fleet`, 1,000 sessions, about 300 MB). `--scale` makes the fleet of the
//! scale figures instead: small sessions (8 messages; 20–40 KB, the generator's smallest) with
//! one large one (1 MB, 1,000 messages) in every 400, so 100,000 sessions hold 250 large ones.

#[path = "../benches/support/session_gen.rs"]
mod session_gen;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut out = PathBuf::from("bench-data/fleet");
    let mut sessions = 1000usize;
    let mut seed = 0xF1EE7u64;
    let mut scale = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> Option<u64> {
            let v = args.next().and_then(|v| v.replace('_', "").parse().ok());
            if v.is_none() {
                eprintln!("{name} needs a non-negative integer");
            }
            v
        };
        match arg.as_str() {
            "--sessions" => match number("--sessions") {
                Some(n) => sessions = n as usize,
                None => return ExitCode::from(2),
            },
            "--seed" => match number("--seed") {
                Some(n) => seed = n,
                None => return ExitCode::from(2),
            },
            "--scale" => scale = true,
            other if !other.starts_with('-') => out = PathBuf::from(other),
            other => {
                eprintln!("unknown argument {other}");
                return ExitCode::from(2);
            }
        }
    }
    let mut total = 0u64;
    for i in 0..sessions {
        // Sizes cycle through small, medium and a few large sessions, as a real fleet has.
        let (bytes, messages) = match (scale, i % 20) {
            (true, _) if i % 400 == 0 => (1_000_000, 1000),
            (true, _) => (4_000, 8),
            (false, 0) => (600_000, 600),
            (false, 1..=5) => (150_000, 200),
            (false, _) => (30_000, 60),
        };
        let config = session_gen::Config {
            bytes,
            messages,
            seed: seed.wrapping_add(i as u64 * 7919),
            screenshots: 0,
        };
        let path = out
            .join(match scale {
                true => format!("agents/agent-{:03}/sessions", i % 100),
                false => format!("agents/agent-{:02}/sessions", i % 16),
            })
            .join(format!("session-{i:05}.jsonl"));
        match session_gen::generate(&path, &config) {
            Ok(stats) => total += stats.bytes,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                return ExitCode::from(1);
            }
        }
    }
    let corrupt = out
        .join(if scale { "agents/agent-000" } else { "agents/agent-00" })
        .join("sessions/corrupt.jsonl");
    if let Err(e) = std::fs::write(&corrupt, b"\x00\x01 not a session at all\n{\"half\":") {
        eprintln!("{}: {e}", corrupt.display());
        return ExitCode::from(1);
    }
    println!(
        "wrote {sessions} sessions and one corrupt file, {:.1} MB, under {}",
        total as f64 / 1e6,
        out.display()
    );
    ExitCode::SUCCESS
}
