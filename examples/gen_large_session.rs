//! Write a large, deterministic OpenClaw JSONL v3 session for benchmarks.
//!
//! `cargo run --release --example gen_large_session -- [OUT.jsonl] [--bytes N] [--messages N] [--seed N] [--screenshots N]`
//! (default output `bench-data/large-session.jsonl`, about 100 MB and 20,000 messages).
//! `--screenshots 12` makes every image one of 12 distinct 1600×900 / 2880×1800 UI-like
//! PNGs, the shape of a browser-driving agent's session (`bench-data/screenshots.jsonl`:
//! `--messages 56000 --screenshots 12`).

#[path = "../benches/support/session_gen.rs"]
mod session_gen;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut config = session_gen::Config::default();
    let mut out = PathBuf::from("bench-data/large-session.jsonl");
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
            "--bytes" => match number("--bytes") {
                Some(n) => config.bytes = n,
                None => return ExitCode::from(2),
            },
            "--messages" => match number("--messages") {
                Some(n) => config.messages = n as usize,
                None => return ExitCode::from(2),
            },
            "--seed" => match number("--seed") {
                Some(n) => config.seed = n,
                None => return ExitCode::from(2),
            },
            "--screenshots" => match number("--screenshots") {
                Some(n) => config.screenshots = n as usize,
                None => return ExitCode::from(2),
            },
            "-h" | "--help" => {
                println!(
                    "usage: gen_large_session [OUT.jsonl] [--bytes N] [--messages N] [--seed N] [--screenshots N]"
                );
                return ExitCode::SUCCESS;
            }
            other if other.starts_with('-') => {
                eprintln!("unknown option {other}");
                return ExitCode::from(2);
            }
            other => out = PathBuf::from(other),
        }
    }
    let start = Instant::now();
    match session_gen::generate(&out, &config) {
        Ok(stats) => {
            println!(
                "wrote {} in {:.2?}: {} bytes, {} lines, {} messages ({} on the abandoned branch), {} images, {} long tool outputs, {} missing tool results",
                out.display(),
                start.elapsed(),
                stats.bytes,
                stats.lines,
                stats.messages,
                stats.branch_messages,
                stats.images,
                stats.long_outputs,
                stats.missing_results
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cannot write {}: {e}", out.display());
            ExitCode::FAILURE
        }
    }
}
