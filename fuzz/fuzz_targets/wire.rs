//! The wire stage and the provider lint on an arbitrary transcript: both payloads (stored
//! and replay) for one of the seven APIs (the first input byte picks it), every constraint, and
//! `--explain` on a text made from the input; provenance must point inside the inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replaylens::hygiene::ReplayOptions;
use replaylens::lint::explain::explain;
use replaylens::lint::lint;
use replaylens::load::message_array::load_message_array;
use replaylens::policy::Target;
use replaylens::replay::replay;
use replaylens::wire::{WireStage, payload_of};

const TARGETS: [(&str, &str, &str); 8] = [
    ("anthropic", "anthropic-messages", "claude-sonnet-4-6"),
    ("openai", "openai-completions", "gpt-4o"),
    ("openai", "openai-responses", "gpt-5"),
    ("google", "google-generative-ai", "gemini-3-pro-preview"),
    ("amazon-bedrock", "bedrock-converse-stream", "us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ("mistral", "mistral-conversations", "mistral-large-latest"),
    ("openrouter", "openai-completions", "anthropic/claude-sonnet-4.5"),
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
    let r = replay(&session, &Target::new(Some(p), Some(a), Some(m)), &ReplayOptions::default());
    let stored = payload_of(&r, WireStage::Stored).expect("a known API");
    let replayed = payload_of(&r, WireStage::Replay).expect("a known API");
    let stored_findings = lint(&stored);
    let replay_findings = lint(&replayed);
    for (w, findings) in [(&stored, &stored_findings), (&replayed, &replay_findings)] {
        let inputs = match w.stage {
            WireStage::Stored => r.transcript.messages.len(),
            WireStage::Replay => r.projection.messages.len(),
        };
        for item in &w.payload.items {
            assert!(item.source.iter().all(|&i| i < inputs), "provenance points past the input");
        }
        for f in findings {
            assert!(f.item < w.payload.items.len(), "a finding points past the payload");
        }
    }
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]);
    let _ = explain(&text, &r, &stored, &stored_findings, &replay_findings);
});
