//! Content-block variants for generated transcripts: text, thinking (every signature shape),
//! tool calls (odd ids, names and arguments), metadata headers and silent replies.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use replaylens::json;
use replaylens::model::json::Value;

use super::rng::Rng;

const PHRASES: [&str; 12] = [
    "Let me look at the failing test first.",
    "The build passes now.",
    "Can you check the config loader?",
    "Done: 3 files changed.",
    "Ich habe die Datei gelesen.",
    "日本語のテキストも大丈夫です。",
    "Here is the diff:\n```diff\n-a\n+b\n```",
    "ok",
    "What does `cargo test` print?",
    "  padded text with spaces  ",
    "emoji 🚀 and combining é",
    "Line one\nLine two\n\nLine four",
];

/// Tool names the generated calls use; the first six form the usual allow-list.
pub const TOOL_NAMES: [&str; 8] = [
    "read",
    "exec",
    "bash",
    "write",
    "edit",
    "web_search",
    "sessions_send",
    "process",
];

/// Visible text.
pub fn phrase(rng: &mut Rng) -> String {
    (*rng.pick(&PHRASES)).to_owned()
}

/// Text that is empty or only whitespace.
pub fn blank(rng: &mut Rng) -> String {
    (*rng.pick(&["", " ", "   ", "\n", "\t\n  "])).to_owned()
}

/// A `NO_REPLY` silent-reply variant.
pub fn no_reply(rng: &mut Rng) -> String {
    let variants = [
        "NO_REPLY",
        " NO_REPLY ",
        "NO_REPLY\n",
        "no_reply",
        "NO_REPLY.",
        "NO_REPLY NO_REPLY",
        "Sure. NO_REPLY",
        "NO_REPLY\nbut also this",
        "`NO_REPLY`",
        "No_Reply",
        "NO_REPLY!",
        "NO_REPLY\n\nNO_REPLY",
    ];
    (*rng.pick(&variants)).to_owned()
}

/// Injected inbound metadata (legacy label, marker label, channel context, delivery hints,
/// timestamp prefix), optionally followed by visible text.
pub fn metadata_text(rng: &mut Rng) -> String {
    let body = format!(
        "{{\n  \"channel\": \"discord\",\n  \"sender\": \"user{}\",\n  \"message_id\": \"{}\"\n}}",
        rng.below(99),
        rng.hex(8)
    );
    let header = *rng.pick(&[
        "Conversation info (untrusted metadata):",
        "Conversation info (untrusted metadata): ⟦openclaw:ctx⟧",
        "Conversation info: ⟦openclaw:ctx⟧",
        "Sender (untrusted metadata):",
        "Sender: ⟦openclaw:ctx⟧",
        "Location (untrusted metadata): ⟦openclaw:ctx⟧",
    ]);
    let mut text = match rng.below(10) {
        0 => "[Mon 2026-01-05 10:00 UTC] ".to_owned(),
        _ => String::new(),
    };
    text.push_str(&format!("{header}\n```json\n{body}\n```\n"));
    match rng.below(6) {
        0 => {}
        1 => text.push_str("\nDelivery: to send a message, use the `message` tool.\n"),
        2 => text.push_str(&format!(
            "\n{}\n\nContext: ⟦openclaw:ctx⟧\nchannel topic: builds\n",
            phrase(rng)
        )),
        _ => {
            text.push('\n');
            text.push_str(&phrase(rng));
        }
    }
    text
}

/// A valid base64 thought signature, or an invalid one.
pub fn thought_signature(rng: &mut Rng) -> String {
    if rng.chance(55) {
        let bytes: Vec<u8> = (0..rng.range(4, 24)).map(|_| rng.below(256) as u8).collect();
        STANDARD.encode(bytes)
    } else {
        (*rng.pick(&["not base64!!", "abc", "====", "c2ln bmF0", "sig_123", "", "   "])).to_owned()
    }
}

/// Maybe attach a Gemini thought signature (either spelling) to a block.
pub fn maybe_thought_signature(rng: &mut Rng, block: &mut Value) {
    if rng.chance(12) {
        let key = if rng.chance(50) {
            "thought_signature"
        } else {
            "thoughtSignature"
        };
        block[key] = json!(thought_signature(rng));
    }
}

/// What a generated text block says.
#[derive(Debug, Clone, Copy)]
pub enum Text {
    /// Visible text.
    Phrase,
    /// Empty or whitespace.
    Blank,
    /// Injected inbound metadata.
    Metadata,
    /// A silent-reply variant.
    NoReply,
    /// This exact text.
    Fixed(&'static str),
}

/// A text block saying `what`, sometimes with a `textSignature` or a thought signature.
pub fn text(rng: &mut Rng, what: Text) -> Value {
    let text = match what {
        Text::Phrase => phrase(rng),
        Text::Blank => blank(rng),
        Text::Metadata => metadata_text(rng),
        Text::NoReply => no_reply(rng),
        Text::Fixed(s) => s.to_owned(),
    };
    text_block(rng, text)
}

/// A text block, sometimes with a `textSignature` or a thought signature.
pub fn text_block(rng: &mut Rng, text: String) -> Value {
    let mut block = json!({"type": "text", "text": text});
    if rng.chance(12) {
        block["textSignature"] = if rng.chance(50) {
            json!(format!("msg_{}", rng.hex(16)))
        } else {
            json!(format!(
                "{{\"v\":1,\"id\":\"msg_{}\",\"phase\":\"final_answer\"}}",
                rng.hex(16)
            ))
        };
    }
    maybe_thought_signature(rng, &mut block);
    block
}

fn signature(rng: &mut Rng) -> String {
    format!("Eq{}", rng.alnum_between(12, 40))
}

/// A thinking block in one of the stored shapes (signed, unsigned, blank signature, blank
/// thinking, redacted, `redacted_thinking`, raw Anthropic `signature`).
pub fn thinking_block(rng: &mut Rng) -> Value {
    let thought = "Let me think about which file to read first.";
    let mut block = match rng.below(10) {
        0..=2 => json!({"type": "thinking", "thinking": thought, "thinkingSignature": signature(rng)}),
        3 => json!({"type": "thinking", "thinking": thought}),
        4 => json!({"type": "thinking", "thinking": thought, "thinkingSignature": blank(rng)}),
        5 => json!({"type": "thinking", "thinking": blank(rng), "thinkingSignature": signature(rng)}),
        6 => json!({"type": "thinking", "thinking": "", "thinkingSignature": signature(rng), "redacted": true}),
        7 => json!({"type": "redacted_thinking", "data": signature(rng)}),
        8 => json!({"type": "thinking", "thinking": thought, "signature": signature(rng)}),
        _ => responses_reasoning(rng),
    };
    maybe_thought_signature(rng, &mut block);
    block
}

/// OpenAI Responses reasoning as pi-ai stores it: a blank thinking block whose signature is
/// the JSON reasoning item.
pub fn responses_reasoning(rng: &mut Rng) -> Value {
    let id = format!("rs_{}", rng.hex_between(8, 32));
    let item = match rng.below(4) {
        0 => json!({"type": "reasoning", "id": id, "summary": [{"type": "summary_text", "text": "Checked the file."}]}),
        1 => json!({"type": "reasoning", "id": id, "summary": [], "encrypted_content": rng.alnum(24)}),
        _ => json!({"type": "reasoning", "id": id, "summary": []}),
    };
    let thinking = if rng.chance(80) {
        String::new()
    } else {
        "Checked the file.".to_owned()
    };
    json!({"type": "thinking", "thinking": thinking, "thinkingSignature": item.to_string()})
}

/// A tool-call id in one of the shapes providers and OpenClaw produce (or mangle).
pub fn tool_call_id(rng: &mut Rng, used: &[String]) -> String {
    if !used.is_empty() && rng.chance(7) {
        return rng.pick(used).clone();
    }
    match rng.below(13) {
        0 | 1 => format!("call_{}", rng.alnum(24)),
        2 | 3 => format!("call_{}|fc_{}", rng.alnum_between(4, 24), rng.hex_between(6, 40)),
        4 | 5 => format!("toolu_01{}", rng.alnum(22)),
        6 => format!("  call_{}  ", rng.alnum(6)),
        7 => format!("tool:{}/v1.{}", rng.pick(&TOOL_NAMES), rng.below(9)),
        8 => format!("呼び出し_{}", rng.below(99)),
        9 => format!("call_{}", rng.alnum_between(65, 90)),
        10 => rng.alnum(9),
        11 => format!(
            "{}_{}_{}",
            rng.pick(&TOOL_NAMES),
            1_712_000_000 + rng.below(9999),
            rng.below(3)
        ),
        _ => {
            if rng.chance(50) {
                String::new()
            } else {
                "call 1".to_owned()
            }
        }
    }
}

/// A tool name: usually a known tool, sometimes blank, padded, overlong or unknown.
pub fn tool_name(rng: &mut Rng) -> String {
    if rng.chance(85) {
        return (*rng.pick(&TOOL_NAMES)).to_owned();
    }
    match rng.below(7) {
        0 => String::new(),
        1 => "   ".to_owned(),
        2 => " read ".to_owned(),
        3 => "x".repeat(140),
        4 => "not_in_the_list".to_owned(),
        5 => "read file".to_owned(),
        _ => "functions.read".to_owned(),
    }
}

/// A tool-call block with arguments in one of the stored shapes.
pub fn tool_call(rng: &mut Rng, id: &str, name: &str) -> Value {
    let args = json!({"path": format!("src/{}.rs", rng.alnum(5)), "limit": rng.below(400)});
    let mut block = match rng.below(20) {
        0 => json!({"type": "toolCall", "id": id, "name": name}),
        1 => json!({"type": "toolCall", "id": id, "name": name, "arguments": {}, "partialJson": "{\"path\":\"sr"}),
        2 => json!({"type": "toolCall", "id": id, "name": name, "arguments": args.to_string()}),
        3 => json!({"type": "toolCall", "id": id, "name": name, "input": args}),
        4 => json!({"type": "toolCall", "id": id, "name": name, "arguments": null}),
        5 => json!({"type": "toolUse", "id": id, "name": name, "input": args}),
        6 => json!({"type": "functionCall", "id": id, "name": name, "arguments": args}),
        7 => json!({"type": "toolCall", "id": id, "name": name, "arguments": {}}),
        _ => json!({"type": "toolCall", "id": id, "name": name, "arguments": args}),
    };
    maybe_thought_signature(rng, &mut block);
    block
}
