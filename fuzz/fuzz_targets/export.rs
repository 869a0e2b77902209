//! Every export format and redaction level on an arbitrary transcript: no panic, and nothing a
//! terminal could act on in the output.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replaylens::export::{ExportFormat, ExportOptions, Redaction, export};
use replaylens::hygiene::ReplayOptions;
use replaylens::load::message_array::load_message_array;
use replaylens::policy::Target;
use replaylens::replay::replay;
use replaylens::text::is_unsafe_for_terminal;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let Ok(session) = load_message_array(std::path::Path::new("f.json"), bytes) else {
        return;
    };
    let target = Target::new(Some("anthropic"), Some("anthropic-messages"), Some("claude-sonnet-4-5"));
    let r = replay(&session, &target, &ReplayOptions::default());
    let format = [ExportFormat::Markdown, ExportFormat::Html, ExportFormat::Json][usize::from(pick) % 3];
    let redaction = [Redaction::None, Redaction::Secrets, Redaction::AllText][usize::from(pick / 3) % 3];
    let options = ExportOptions {
        format,
        redaction,
        only_changed: pick & 0x80 != 0,
        context: usize::from(pick & 3),
        ..ExportOptions::default()
    };
    let text = export(&session, &r, &options);
    assert!(
        !text.chars().any(is_unsafe_for_terminal),
        "unsafe character in the export"
    );
});
