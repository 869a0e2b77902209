//! Hand-checked ids: every sha256-derived value below was computed independently with
//! `python3 -c 'import hashlib; print(hashlib.sha256(b"...").hexdigest()[:n])'`.

use super::*;

const S: ToolCallIdMode = ToolCallIdMode::Strict;
const S9: ToolCallIdMode = ToolCallIdMode::Strict9;

#[test]
fn sanitize_strict_keeps_alphanumerics_and_kimi_ids() {
    assert_eq!(sanitize_tool_call_id("", S), "defaulttoolid");
    assert_eq!(sanitize_tool_call_id("call_abc|fc_123", S), "callabcfc123");
    assert_eq!(sanitize_tool_call_id("functions.read:0", S), "functions.read:0");
    assert_eq!(sanitize_tool_call_id("functions.read:x", S), "functionsreadx");
    assert_eq!(sanitize_tool_call_id("functions read:0", S), "functionsread0");
    assert_eq!(sanitize_tool_call_id("__|__", S), "sanitizedtoolid");
    assert_eq!(sanitize_tool_call_id("tööl_1", S), "tl1");
}

#[test]
fn sanitize_strict9_short_long_and_empty() {
    assert_eq!(sanitize_tool_call_id("", S9), "defaultid");
    // Mistral rejects `call_49c89af0` (not 9 alphanumerics): first 9 of `call49c89af0`.
    assert_eq!(sanitize_tool_call_id("call_49c89af0", S9), "call49c89");
    assert_eq!(sanitize_tool_call_id("call_abc|fc_123", S9), "callabcfc");
    assert_eq!(sanitize_tool_call_id("functions.read:0", S9), "functions");
    // sha256("ab")[:9]
    assert_eq!(sanitize_tool_call_id("a-b", S9), "fb8e20fc2");
    // sha256("sanitized")[:9]
    assert_eq!(sanitize_tool_call_id("--", S9), "44d8b78be");
}

#[test]
fn unique_strict_base_hash_suffix_and_length_limit() {
    let long = "call_a1b2c3d4e5a1b2c3d4e5a1b2c3d4e5a1b2c3d4e5_zz";
    let mut used = HashSet::new();
    assert_eq!(
        make_unique_tool_id(long, &used, S, 0),
        "calla1b2c3d4e5a1b2c3d4e5a1b2c3d4e5a1b2c3"
    );
    used.insert("calla1b2c3d4e5a1b2c3d4e5a1b2c3d4e5a1b2c3".into());
    // base[0:32] + sha256(long)[:8] (c9a45be5)
    let candidate = "calla1b2c3d4e5a1b2c3d4e5a1b2c3d4c9a45be5";
    assert_eq!(make_unique_tool_id(long, &used, S, 0), candidate);
    used.insert(candidate.to_owned());
    assert_eq!(
        make_unique_tool_id(long, &used, S, 0),
        "calla1b2c3d4e5a1b2c3d4e5a1b2c3d4c9a45bx2"
    );
    for i in 2..1000 {
        let suffix = format!("x{i}");
        used.insert(format!("{}{suffix}", &candidate[..40 - suffix.len()]));
    }
    let last = make_unique_tool_id(long, &used, S, 1_700_000_000_000);
    assert_eq!(last, "calla1b2c3d4e5a1b2c3d4e5a1t1700000000000");
    assert_eq!(last.len(), 40);
}

#[test]
fn unique_strict_collision_of_two_raw_ids() {
    let used = HashSet::from(["call1".to_owned()]);
    // `call-1` sanitizes to the taken `call1`: base + sha256("call-1")[:8].
    assert_eq!(make_unique_tool_id("call-1", &used, S, 0), "call15d7963c4");
}

#[test]
fn unique_strict9_hash_attempts_and_timestamp() {
    let mut used = HashSet::from(["callabcde".to_owned()]);
    // sha256("call_abcdefghij:0")[:9]
    assert_eq!(make_unique_tool_id("call_abcdefghij", &used, S9, 0), "e25cbfca2");
    used = HashSet::from([sanitize_tool_call_id("x1", S9)]);
    used.extend((0..1000).map(|i| sha256_hex_prefix(&format!("x1:{i}"), 9)));
    // sha256("x1:1700000000000")[:9]
    assert_eq!(make_unique_tool_id("x1", &used, S9, 1_700_000_000_000), "0197f513b");
}

fn allocator(mode: ToolCallIdMode, openai: bool, native: bool) -> IdAllocator {
    IdAllocator::new(
        AllocatorOptions {
            mode,
            openai_duplicates: openai,
            preserve_native_anthropic: native,
        },
        HashSet::new(),
    )
}

#[test]
fn repeated_raw_ids_get_distinct_ids_and_results_follow_fifo() {
    let mut a = allocator(S, false, false);
    assert_eq!(a.resolve_call("call_1", 0), "call1");
    assert_eq!(a.resolve_call("call_1", 0), "call12");
    assert_eq!(a.resolve_result("call_1", 0), "call1");
    assert_eq!(a.resolve_result("call_1", 0), "call12");
    // A third result is an orphan.
    assert_eq!(a.resolve_result("call_1", 0), "call1toolresult1");

    let mut a = allocator(S9, false, false);
    // sha256("call1")[:9], then sha256("call12")[:9] for seed `call_1:2`.
    assert_eq!(a.resolve_call("call_1", 0), "78d66c1f7");
    assert_eq!(a.resolve_call("call_1", 0), "2e7c1c219");
}

#[test]
fn openai_duplicate_style() {
    let mut a = allocator(S, true, false);
    assert_eq!(a.resolve_call("call_1", 0), "call_1");
    // call_ + sha256("call_1:2:0")[:24], then sha256("call_1:3:0")[:24]
    assert_eq!(a.resolve_call("call_1", 0), "call_4905863d919f8881291f8965");
    assert_eq!(a.resolve_call("call_1", 0), "call_8d5d277d146ae7ae583e7dbb");
    // Kimi ids are not `call_` ids: sanitized (kept as native Kimi) on first occurrence.
    assert_eq!(a.resolve_call("functions.read:0", 0), "functions.read:0");
    assert_eq!(a.resolve_call("call_x|y", 0), "callxy");
}

#[test]
fn native_anthropic_ids_kept_once_when_preserved() {
    let mut a = allocator(S, false, true);
    assert_eq!(a.resolve_call("toolu_01", 0), "toolu_01");
    assert_eq!(a.resolve_call("toolu_01", 0), "toolu012");
    assert_eq!(a.resolve_result("toolu_02", 0), "toolu_02");
    assert_eq!(a.resolve_result("toolu_02", 0), "toolu02toolresult2");
    let mut plain = allocator(S, false, false);
    assert_eq!(plain.resolve_call("toolu_01", 0), "toolu01");
}

#[test]
fn reserved_ids_are_not_reused() {
    let mut a = IdAllocator::new(
        AllocatorOptions {
            mode: S,
            openai_duplicates: false,
            preserve_native_anthropic: false,
        },
        HashSet::from(["call1".to_owned()]),
    );
    a.preserve_call("call1");
    // `call1` is reserved: base + sha256("call_1")[:8].
    assert_eq!(a.resolve_call("call_1", 0), "call174196fe7");
    assert_eq!(a.resolve_result("call1", 0), "call1");
}

#[test]
fn id_shapes() {
    assert!(is_native_kimi_id("functions.read_file-2:17"));
    assert!(!is_native_kimi_id("functions.:1"));
    assert!(!is_native_kimi_id("functions.read:"));
    assert!(is_openai_call_id("call_a-b_c"));
    assert!(!is_openai_call_id("call_a|fc_1"));
    assert!(is_native_anthropic_id("toolu_01Ab_"));
    assert!(!is_native_anthropic_id("toolu_vrtx-1"));
}
