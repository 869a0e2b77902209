//! The whole replay pipeline on an arbitrary transcript, for targets that switch on every rule
//! family (the first input byte picks the target and the rule set).
#![no_main]

use libfuzzer_sys::fuzz_target;
use replaylens::hygiene::ReplayOptions;
use replaylens::load::message_array::load_message_array;
use replaylens::policy::Target;
use replaylens::replay::replay;
use replaylens::rule_set::RULE_SETS;

const TARGETS: [(&str, &str, &str); 6] = [
    ("anthropic", "anthropic-messages", "claude-sonnet-4-5"),
    ("openai", "openai-responses", "gpt-5"),
    ("google", "google-generative-ai", "gemini-2.5-pro"),
    ("mistral", "mistral-conversations", "mistral-large-latest"),
    ("my-llm", "openai-completions", "local-model"),
    ("ollama", "ollama", "llama3.1"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let Ok(session) = load_message_array(std::path::Path::new("f.json"), bytes) else {
        return;
    };
    let (p, a, m) = TARGETS[usize::from(pick) % TARGETS.len()];
    let options = ReplayOptions {
        thinking: Some(pick & 0x80 != 0),
        rule_set: RULE_SETS[usize::from(pick >> 6) % RULE_SETS.len()],
        ..ReplayOptions::default()
    };
    let r = replay(&session, &Target::new(Some(p), Some(a), Some(m)), &options);
    for rw in &r.projection.rewrites {
        assert!(
            rw.replay.iter().all(|&i| i < r.projection.messages.len()),
            "provenance points past the replay"
        );
    }
});
