//! Time each rule of the replay pipeline on one session, for profiling:
//! `cargo run --release --example rule_timing -- SESSION.jsonl`.

use std::path::Path;
use std::time::Instant;

use replaylens::hygiene::{Context, ReplayOptions, Working, rules};
use replaylens::load::{LoadOptions, load_path};
use replaylens::policy::{Target, resolve};
use replaylens::replay::effective_target;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: rule_timing SESSION");
        std::process::exit(2);
    };
    let session = load_path(Path::new(&path), &LoadOptions::default()).expect("load");
    let t = session.transcript();
    let resolved = resolve(&effective_target(&Target::default(), &t.model));
    let options = ReplayOptions::default();
    let ctx = Context {
        resolved: &resolved,
        options: &options,
        model_events: &t.model_events,
        thinking_level: t.thinking_level.as_deref(),
    };
    let start = Instant::now();
    let mut work = Working::from_stored(&t.messages);
    let mut rewrites = Vec::new();
    println!("{} messages, target family {}", work.len(), resolved.family.id());
    for rule in rules::pipeline() {
        if !rule.enabled(&ctx) {
            continue;
        }
        let began = Instant::now();
        let before = rewrites.len();
        rule.apply(&ctx, &mut work, &mut rewrites);
        println!(
            "{:<28} {:>8.1} ms  {} rewrites",
            rule.info().id,
            began.elapsed().as_secs_f64() * 1000.0,
            rewrites.len() - before
        );
    }
    println!("all rules: {:.1} ms", start.elapsed().as_secs_f64() * 1000.0);
}
