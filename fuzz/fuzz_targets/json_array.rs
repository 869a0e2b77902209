//! A bare JSON message array.
#![no_main]

use libfuzzer_sys::fuzz_target;
use replaylens::load::message_array::load_message_array;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(session) = load_message_array(std::path::Path::new("f.json"), bytes) {
        let _ = session.transcript();
    }
});
