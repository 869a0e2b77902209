//! Strategies of the escaping property tests (`tests/escape_props.rs`, and the inspector's
//! `src/tui/tests/escape_props.rs`, which includes this file): text drawn from every code
//! point category, and an OpenClaw session holding such text in every field that reaches output.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::{BoxedStrategy, Union};
use serde_json::json;

/// Terminal sequences an attacker would write: clear the screen, set the title, write the
/// clipboard (OSC 52), ask for a reply (DSR), a C1 CSI, a DCS query.
pub const ESCAPE_SEQUENCES: &[&str] = &[
    "\u{1b}[2J",
    "\u{1b}]0;x\u{7}",
    "\u{1b}]52;c;aGk=\u{7}",
    "\u{1b}[6n",
    "\u{9b}31m",
    "\u{1b}P+q544e\u{1b}\\",
];

/// Bidirectional-text controls.
pub const BIDI: &[char] = &[
    '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
    '\u{200e}', '\u{200f}', '\u{061c}',
];

/// Ranges `replaylens::text::is_invisible` escapes that the generator favours (the tag block
/// is a category of its own), the code points issue 45's hostile pass found raw among them.
pub const INVISIBLE: &[(u32, u32)] = &[
    (0xad, 0xad),
    (0x34f, 0x34f),
    (0x115f, 0x1160),
    (0x17b4, 0x17b5),
    (0x180b, 0x180f),
    (0x200b, 0x200d),
    (0x2028, 0x2029),
    (0x2060, 0x2065),
    (0x206a, 0x206f),
    (0x3164, 0x3164),
    (0xfe00, 0xfe0d),
    (0xfeff, 0xfeff),
    (0xffa0, 0xffa0),
    (0xfff9, 0xfffb),
    (0x1bca0, 0x1bca3),
    (0x1d173, 0x1d17a),
    (0x600, 0x605),
    (0x6dd, 0x6dd),
    (0x70f, 0x70f),
    (0x890, 0x891),
    (0x8e2, 0x8e2),
    (0x2800, 0x2800),
    (0xfff0, 0xfff8),
    (0x110bd, 0x110bd),
    (0x110cd, 0x110cd),
    (0x13430, 0x13438),
];

/// Emoji sequences: ZWJ families, skin tones, VS16 and VS15, flags, keycaps.
pub const EMOJI: &[&str] = &[
    "👨\u{200d}👩\u{200d}👧",
    "👍🏽",
    "👋🏿",
    "🧑🏻\u{200d}💻",
    "❤\u{fe0f}",
    "☺\u{fe0e}",
    "🏳\u{fe0f}\u{200d}🌈",
    "🇯🇵",
    "1\u{fe0f}\u{20e3}",
];

/// Noncharacters.
pub const NONCHARACTERS: &[char] = &[
    '\u{fffe}',
    '\u{ffff}',
    '\u{1fffe}',
    '\u{1ffff}',
    '\u{10ffff}',
    '\u{fdd0}',
    '\u{fdef}',
];

/// One character of `lo..=hi` as a string.
fn range(lo: u32, hi: u32) -> BoxedStrategy<String> {
    (lo..=hi)
        .prop_filter_map("a Unicode scalar value", |u| char::from_u32(u).map(String::from))
        .boxed()
}

fn one_of(chars: &'static [char]) -> BoxedStrategy<String> {
    select(chars).prop_map(String::from).boxed()
}

fn one_of_str(strs: &'static [&'static str]) -> BoxedStrategy<String> {
    select(strs).prop_map(str::to_owned).boxed()
}

/// A short piece of text from one code point category, every category equally likely.
pub fn fragment() -> BoxedStrategy<String> {
    Union::new(vec![
        "[a-zA-Z0-9 ]{1,6}".boxed(),
        one_of_str(&["\n", "\t", " ", "\r\n"]),
        one_of_str(ESCAPE_SEQUENCES),
        range(0x00, 0x1f),
        Just("\u{7f}".to_owned()).boxed(),
        range(0x80, 0x9f),
        one_of(BIDI),
        Union::new(INVISIBLE.iter().map(|&(lo, hi)| range(lo, hi))).boxed(),
        // The tag block (tag characters, and the supplementary variation selectors in it).
        Union::new([range(0xe0000, 0xe007f), range(0xe0000, 0xe0fff)]).boxed(),
        // Variation selectors, the presentation selectors FE0E/FE0F among them.
        Union::new([range(0xfe00, 0xfe0f), range(0xe0100, 0xe01ef), range(0x180b, 0x180f)]).boxed(),
        // Combining marks.
        Union::new([range(0x300, 0x36f), range(0x1ab0, 0x1aff), range(0x20d0, 0x20ff)]).boxed(),
        one_of_str(EMOJI),
        // Wide: CJK ideographs, Hangul syllables, fullwidth forms.
        Union::new([range(0x4e00, 0x9fff), range(0xac00, 0xd7a3), range(0xff01, 0xff60)]).boxed(),
        // Private use.
        Union::new([
            range(0xe000, 0xf8ff),
            range(0xf0000, 0xffffd),
            range(0x100000, 0x10fffd),
        ])
        .boxed(),
        one_of(NONCHARACTERS),
        Just("\u{fffd}".to_owned()).boxed(),
        any::<char>().prop_map(String::from).boxed(),
    ])
    .boxed()
}

/// Text of one to eight fragments.
pub fn hostile() -> BoxedStrategy<String> {
    prop::collection::vec(fragment(), 1..8)
        .prop_map(|parts| parts.concat())
        .boxed()
}

/// Hostile text for every field of a session that reaches output. Each is prefixed with a
/// short ASCII label, so no field is blank and a round trip can look for it.
#[derive(Debug, Clone)]
pub struct Fields {
    pub session_id: String,
    pub cwd: String,
    pub provider: String,
    pub model: String,
    pub custom_type: String,
    pub custom_key: String,
    pub custom_value: String,
    pub other_type: String,
    pub other_value: String,
    pub label: String,
    pub user_string: String,
    pub thinking: String,
    pub assistant_text: String,
    pub tool_id: String,
    pub tool_name: String,
    pub arg_key: String,
    pub arg_value: String,
    pub result_tool_name: String,
    pub result_text: String,
    pub user_block: String,
    pub custom_message: String,
    pub error_message: String,
    pub malformed: String,
    pub file_name: String,
}

/// How many strings [`Fields`] holds.
const FIELD_COUNT: usize = 24;

/// Hostile text for every field.
pub fn fields() -> impl Strategy<Value = Fields> {
    prop::collection::vec(hostile(), FIELD_COUNT).prop_map(|v| {
        let mut it = v.into_iter().enumerate().map(|(i, s)| format!("h{i}:{s}"));
        let mut next = || it.next().unwrap();
        Fields {
            session_id: next(),
            cwd: next(),
            provider: next(),
            model: next(),
            custom_type: next(),
            custom_key: next(),
            custom_value: next(),
            other_type: next(),
            other_value: next(),
            label: next(),
            user_string: next(),
            thinking: next(),
            assistant_text: next(),
            tool_id: next(),
            tool_name: next(),
            arg_key: next(),
            arg_value: next(),
            result_tool_name: next(),
            result_text: next(),
            user_block: next(),
            custom_message: next(),
            error_message: next(),
            malformed: next(),
            file_name: next(),
        }
    })
}

/// Hostile text as a command-line argument, which cannot hold NUL.
pub fn arg(text: &str) -> String {
    text.replace('\0', "")
}

/// The session file's name: the hostile file-name text without `/` and NUL (which no file
/// name holds), at most about 150 bytes, ending in `.jsonl`.
pub fn file_name(f: &Fields) -> String {
    let mut name = String::from("s-");
    for c in f.file_name.chars().filter(|&c| c != '/' && c != '\0') {
        if name.len() + c.len_utf8() > 150 {
            break;
        }
        name.push(c);
    }
    name + ".jsonl"
}

/// The session's lines: a header, session info, custom and unknown entries, a label, a
/// malformed line, user, assistant (thinking, text, tool call) and tool result messages, a
/// custom message, an assistant turn that ended in an error and a model change.
pub fn session_text(f: &Fields) -> String {
    let ts = |n: u32| format!("2026-03-09T08:41:{n:02}.000Z");
    let message = |id: &str, parent: &str, n: u32, message: serde_json::Value| json!({"type": "message", "id": id, "parentId": parent, "timestamp": ts(n), "message": message});
    let assistant = "anthropic-messages";
    let lines = [
        json!({"type": "session", "version": 3, "id": f.session_id, "timestamp": ts(0), "cwd": f.cwd}),
        json!({"type": "session_info", "id": "e1", "parentId": null, "timestamp": ts(1), "name": "s"}),
        json!({"type": "custom", "id": "e2", "parentId": "e1", "timestamp": ts(2), "customType": f.custom_type,
               "data": {f.custom_key.as_str(): f.custom_value}}),
        json!({"type": f.other_type, "id": "e3", "parentId": "e2", "timestamp": ts(3), "note": f.other_value}),
        json!({"type": "label", "id": "e4", "parentId": "e3", "timestamp": ts(4), "targetId": "e1", "label": f.label}),
        message(
            "e5",
            "e4",
            5,
            json!({"role": "user", "content": f.user_string, "timestamp": 1}),
        ),
        message(
            "e6",
            "e5",
            6,
            json!({"role": "assistant", "content": [
                {"type": "thinking", "thinking": f.thinking, "thinkingSignature": "c2lnbmF0dXJl"},
                {"type": "text", "text": f.assistant_text},
                {"type": "toolCall", "id": f.tool_id, "name": f.tool_name, "arguments": {f.arg_key.as_str(): f.arg_value}}],
            "api": assistant, "provider": "anthropic", "model": "claude-sonnet-4-6", "stopReason": "toolUse", "timestamp": 2}),
        ),
        message(
            "e7",
            "e6",
            7,
            json!({"role": "toolResult", "toolCallId": f.tool_id, "toolName": f.result_tool_name,
            "content": [{"type": "text", "text": f.result_text}], "isError": false, "timestamp": 3}),
        ),
        message(
            "e8",
            "e7",
            8,
            json!({"role": "user", "content": [{"type": "text", "text": f.user_block}], "timestamp": 4}),
        ),
        json!({"type": "custom_message", "id": "e9", "parentId": "e8", "timestamp": ts(9), "customType": "note",
               "content": f.custom_message, "display": true}),
        message(
            "e10",
            "e9",
            10,
            json!({"role": "assistant", "content": [], "api": assistant, "provider": "anthropic",
            "model": "claude-sonnet-4-6", "stopReason": "error", "errorMessage": f.error_message, "timestamp": 5}),
        ),
        // Last on the branch, so the session's own target is this (hostile) model.
        json!({"type": "model_change", "id": "e11", "parentId": "e10", "timestamp": ts(11),
               "provider": f.provider, "modelId": f.model}),
    ];
    let mut text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    // A line cut short: JSON up to the hostile text, no closing brace.
    let cut = json!({"type": "message", "id": "bad", "text": f.malformed}).to_string();
    text.insert_str(
        text.find("\n{\"type\":\"message\"").unwrap() + 1,
        &format!("{}\n", &cut[..cut.len() - 1]),
    );
    text
}

/// Write the session (and a broken `.json` message array beside it, also named with hostile
/// text) into `dir`; returns the session's and the broken file's paths.
pub fn write_session(dir: &Path, f: &Fields) -> (PathBuf, PathBuf) {
    let session = dir.join(file_name(f));
    std::fs::write(&session, session_text(f)).unwrap();
    let broken = dir.join(format!("broken-{}.json", file_name(f).trim_end_matches(".jsonl")));
    let array = json!([{"role": "user", "content": f.malformed}]).to_string();
    std::fs::write(&broken, &array[..array.len() - 2]).unwrap();
    (session, broken)
}
