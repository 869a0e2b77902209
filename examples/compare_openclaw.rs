//! replaylens against OpenClaw's own replay chain on the same session, in one run.
//!
//! `cargo run --release --example compare_openclaw -- FILE.jsonl [--runs N]`
//!
//! OpenClaw's chain runs in the project's oracle (`oracle/openclaw_chain.mjs`, Node from
//! `REPLAYLENS_NODE` or `node` on the PATH, `npm ci` done in `oracle/`). The Node process is
//! warmed up with a two-message request first, so its start-up and module loading are not
//! counted; then the session's stored transcript is sent for the session's own target and
//! the time to the reply is taken. replaylens is timed on the same transcript and target
//! (history stage and stream stage, images re-encoded), in process. Best of N runs each.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use replaylens::hygiene::ReplayOptions;
use replaylens::json;
use replaylens::load::{LoadOptions, load_path};
use replaylens::policy::Target;
use replaylens::replay::{effective_target, replay_transcript};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = PathBuf::from(args.next().expect("usage: compare_openclaw FILE [--runs N]"));
    let runs: usize = match (args.next().as_deref(), args.next()) {
        (Some("--runs"), Some(n)) => n.parse().expect("--runs N"),
        _ => 3,
    };
    let session = load_path(&path, &LoadOptions::default()).expect("load");
    let transcript = session.transcript();
    let target = effective_target(&Target::default(), &transcript.model);
    let stored: Vec<replaylens::model::json::Value> = transcript
        .messages
        .iter()
        .map(|m| replaylens::model::json::to_value(m.message.as_ref()).expect("message JSON"))
        .collect();
    let request = |id: &str, messages: &[replaylens::model::json::Value]| {
        json!({"id": id, "messages": messages, "provider": target.provider, "api": target.api, "model": target.model})
            .to_string()
    };

    let node = std::env::var("REPLAYLENS_NODE").unwrap_or_else(|_| "node".into());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/oracle/openclaw_chain.mjs");
    let mut child = Command::new(node)
        .args([script, "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the oracle (Node)");
    let mut to_node = child.stdin.take().expect("stdin");
    let mut from_node = BufReader::new(child.stdout.take().expect("stdout"));
    let mut ask = |line: String| -> (Duration, usize) {
        let start = Instant::now();
        writeln!(to_node, "{line}").expect("write request");
        to_node.flush().expect("flush");
        let mut reply = String::new();
        from_node.read_line(&mut reply).expect("read reply");
        let elapsed = start.elapsed();
        let reply: replaylens::model::json::Value = serde_json::from_str(&reply).expect("reply JSON");
        assert!(reply.get("error").is_none(), "oracle error: {}", reply["error"]);
        (elapsed, reply["messages"].as_array().map_or(0, |a| a.len()))
    };
    ask(request("warm-up", &stored[..stored.len().min(2)]));
    let big = request("session", &stored);
    let (mut openclaw, mut ours) = (Duration::MAX, Duration::MAX);
    let (mut their_len, mut our_len) = (0, 0);
    for _ in 0..runs {
        let (t, n) = ask(big.clone());
        openclaw = openclaw.min(t);
        their_len = n;
        // Each run decodes its images (a cold replay): nothing kept from the last run.
        replaylens::openclaw::image::cache::Store::global().clear();
        let start = Instant::now();
        let view = session.transcript();
        let replay = replay_transcript(view, &target, &ReplayOptions::default());
        ours = ours.min(start.elapsed());
        our_len = replay
            .projection
            .history
            .as_ref()
            .map_or(replay.projection.messages.len(), Vec::len);
    }
    drop(to_node);
    let _ = child.wait();
    println!(
        "target: {} / {} / {}",
        target.provider.as_deref().unwrap_or("?"),
        target.api.as_deref().unwrap_or("?"),
        target.model.as_deref().unwrap_or("?")
    );
    println!("stored messages:          {}", stored.len());
    println!(
        "OpenClaw chain (Node):    {:.3} s, {their_len} messages",
        openclaw.as_secs_f64()
    );
    println!(
        "replaylens (all 26 rules): {:.3} s, {our_len} messages (history stage)",
        ours.as_secs_f64()
    );
    println!(
        "replaylens is {:.1}x faster",
        openclaw.as_secs_f64() / ours.as_secs_f64()
    );
}
