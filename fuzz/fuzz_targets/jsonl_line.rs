//! One arbitrary JSONL line after a valid session header.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replaylens::load::{Limits, jsonl::load_jsonl};

const HEADER: &[u8] =
    b"{\"type\":\"session\",\"version\":3,\"id\":\"f\",\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"cwd\":\"/\"}\n";

fuzz_target!(|line: &[u8]| {
    let mut file = HEADER.to_vec();
    file.extend_from_slice(line);
    if let Ok(session) = load_jsonl(std::path::Path::new("f.jsonl"), &file[..], &Limits::default()) {
        let _ = session.transcript();
    }
});
