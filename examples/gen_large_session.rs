//! Write a large, deterministic OpenClaw JSONL v3 session for benchmarks.
//!
//! `cargo run --release --example gen_large_session -- [OUT.jsonl] [--bytes N] [--messages N] [--seed N] [--screenshots N]`
//! (default output `bench-data/large-session.jsonl`, about 100 MB and 20,000 messages).
//! `--screenshots 12` makes every image one of 12 distinct 1600×900 / 2880×1800 UI-like
//! PNGs, the shape of a browser-driving agent's session (`bench-data/screenshots.jsonl`:
//! `--messages 45000 --screenshots 12`). `--short 200000` writes instead a chat of 200,000
//! short alternating user / assistant messages (about 54 MB), the worst case for memory per
//! byte (`bench-data/short.jsonl`); add `--recorded-usage` for the same chat with usage as
//! OpenClaw records it (about 64 MB, no rewrite at all).

#[path = "../benches/support/session_gen.rs"]
mod session_gen;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut config = session_gen::Config::default();
    let mut out = PathBuf::from("bench-data/large-session.jsonl");
    let mut short = None;
    let mut recorded_usage = false;
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
            "--short" => match number("--short") {
                Some(n) => short = Some(n as usize),
                None => return ExitCode::from(2),
            },
            "--recorded-usage" => recorded_usage = true,
            "-h" | "--help" => {
                println!(
                    "usage: gen_large_session [OUT.jsonl] [--bytes N] [--messages N] [--seed N] [--screenshots N] [--short N [--recorded-usage]]"
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
    if let Some(n) = short {
        return match short_session(&out, n, recorded_usage) {
            Ok(bytes) => {
                println!(
                    "wrote {} in {:.2?}: {bytes} bytes, {n} short messages",
                    out.display(),
                    start.elapsed()
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("cannot write {}: {e}", out.display());
                ExitCode::FAILURE
            }
        };
    }
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

/// A chat of `n` short messages, user and assistant in turn, as a quiet channel holds. Each
/// assistant usage is minimal (`stale-usage` rewrites every one: the worst case for commands
/// that hold both sides) or, with `recorded_usage`, normalized as OpenClaw records it.
fn short_session(path: &std::path::Path, n: usize, recorded_usage: bool) -> std::io::Result<u64> {
    use std::io::Write;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut bytes = 0u64;
    let mut line = |text: String| -> std::io::Result<()> {
        bytes += text.len() as u64 + 1;
        writeln!(out, "{text}")
    };
    line(r#"{"type":"session","version":3,"id":"short","timestamp":"2026-03-09T08:41:07.000Z","cwd":"/"}"#.to_owned())?;
    for i in 0..n {
        let parent = if i == 0 {
            "null".to_owned()
        } else {
            format!("\"m{}\"", i - 1)
        };
        let usage = if recorded_usage {
            r#"{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}"#
        } else {
            r#"{"input":1,"output":1,"totalTokens":2}"#
        };
        let message = if i % 2 == 0 {
            format!(r#"{{"role":"user","content":[{{"type":"text","text":"short message {i}"}}],"timestamp":{i}}}"#)
        } else {
            format!(
                r#"{{"role":"assistant","content":[{{"type":"text","text":"short message {i}"}}],"timestamp":{i},"stopReason":"stop","usage":{usage},"provider":"anthropic","model":"claude-sonnet-4-6","api":"anthropic-messages"}}"#
            )
        };
        line(format!(
            r#"{{"type":"message","id":"m{i}","parentId":{parent},"timestamp":"2026-03-09T08:41:08.000Z","message":{message}}}"#
        ))?;
    }
    out.flush()?;
    Ok(bytes)
}
