//! One `transcript_events` row payload: `event_utf8_bytes` (the first 8 bytes, when present)
//! and an `event_zstd` blob, decoded and parsed as the SQLite loader does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replaylens::load::sqlite::decode_zstd;

fuzz_target!(|data: &[u8]| {
    let (declared, blob) = match data.split_first_chunk::<8>() {
        Some((head, rest)) if data.len() > 8 => (Some(i64::from_le_bytes(*head)), rest),
        _ => (None, data),
    };
    if let Ok((text, _)) = decode_zstd(blob, declared) {
        let _ = serde_json::from_str::<serde_json::Value>(&text);
    }
});
