//! A whole arbitrary JSONL file: load, branch selection and compaction.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replaylens::load::{Limits, jsonl::load_jsonl};

fuzz_target!(|file: &[u8]| {
    if let Ok(session) = load_jsonl(std::path::Path::new("f.jsonl"), file, &Limits::default()) {
        let _ = session.transcript();
    }
});
