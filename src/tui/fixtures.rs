//! Hand-made replays for tests and the render benchmark: projections built directly from
//! `Projection`/`Rewrite` values, so they do not depend on which rules exist yet.

use std::borrow::Cow;

use replaylens::hygiene::{Action, Projection, ReplayMessage, ReplayOptions, Rewrite, RuleInfo, Stage};
use replaylens::json;
use replaylens::model::json::Value;
use replaylens::model::{Message, ModelRef, Origin, StoredMessage, Transcript};
use replaylens::policy::{Family, Target, preset, resolve};
use replaylens::replay::Replay;

use super::image_info::synthetic_base64;
use super::inspection::{Inspection, SessionInfo};

fn msg(v: Value) -> Message {
    Message::from_value(v).unwrap_or_default()
}

fn stored(messages: Vec<Message>) -> Transcript<'static> {
    Transcript {
        messages: messages
            .into_iter()
            .enumerate()
            .map(|(i, m)| StoredMessage {
                entry_id: Some(format!("e{i}").into()),
                location: None,
                origin: Origin::Message,
                message: Cow::Owned(m),
            })
            .collect(),
        model: ModelRef {
            provider: Some("anthropic".into()),
            api: Some("anthropic-messages".into()),
            model: Some("claude-sonnet-4-6".into()),
        },
        ..Transcript::default()
    }
}

/// Build an inspection from stored messages, replay messages (`source`, `None` = unchanged
/// copy of the single source) and rewrites.
pub fn build(
    id: &str,
    messages: Vec<Message>,
    replay: Vec<(Vec<usize>, Option<Message>)>,
    rewrites: Vec<Rewrite>,
) -> Inspection {
    let transcript = stored(messages);
    let replay_messages = replay
        .into_iter()
        .map(|(source, m)| {
            let message = m.unwrap_or_else(|| (*transcript.messages[source[0]].message).clone());
            ReplayMessage {
                source,
                message: Cow::Owned(message),
            }
        })
        .collect();
    let mut rules_run: Vec<&'static str> = rewrites.iter().map(|r| r.rule).collect();
    rules_run.dedup();
    let target = preset(Family::Anthropic);
    let computed = Replay {
        transcript,
        resolved: resolve(&target),
        options: ReplayOptions::default(),
        projection: Projection {
            messages: replay_messages,
            history: None,
            refusal: None,
            rewrites,
            rules_run,
        },
    };
    let info = SessionInfo {
        path: format!("{id}.jsonl").into(),
        id: id.into(),
        format: "openclaw-jsonl".into(),
        db_session: None,
    };
    Inspection::from_replay(info, Target::default(), computed)
}

fn rw(rule: &'static str, action: Action, stored: &[usize], replay: &[usize], detail: &str) -> Rewrite {
    Rewrite {
        rule,
        action,
        stage: Stage::History,
        stored: stored.to_vec(),
        replay: replay.to_vec(),
        detail: detail.into(),
    }
}

fn call(id: &str, name: &str, args: Value) -> Value {
    json!({"type": "toolCall", "id": id, "name": name, "arguments": args})
}

/// One replay with every kind of row: a stripped thinking block, a moved result, a dropped
/// error turn, an inserted synthetic result, a merge and an image recompression.
pub fn every_kind() -> Inspection {
    let png = synthetic_base64(true, 2600, 400, 1_800_000);
    let jpeg = synthetic_base64(false, 1200, 185, 140_000);
    let messages = vec![
        msg(json!({"role": "user", "content": "The invoice totals test fails. Please fix it."})),
        msg(json!({"role": "assistant", "stopReason": "toolUse", "content": [
            {"type": "thinking", "thinking": "Read the test first, then the totals module.", "thinkingSignature": "EqQBCkgIARABGAIiQ"},
            {"type": "text", "text": "I'll read the failing test."},
            call("toolu_01", "read", json!({"path": "tests/invoice.test.ts"}))]})),
        msg(json!({"role": "user", "content": "Also check the rounding."})),
        msg(
            json!({"role": "toolResult", "toolCallId": "toolu_01", "toolName": "read",
            "content": [{"type": "text", "text": "expect(total([1.005])).toBe(1.01)\nexpect(total([])).toBe(0)"}]}),
        ),
        msg(json!({"role": "assistant", "stopReason": "error", "errorMessage": "overloaded_error", "content": []})),
        msg(json!({"role": "assistant", "stopReason": "toolUse", "content": [
            call("toolu_02", "bash", json!({"command": "npm test -- invoice"}))]})),
        msg(json!({"role": "assistant", "content": [{"type": "text", "text": "The rounding uses floats."}]})),
        msg(json!({"role": "assistant", "content": [{"type": "text", "text": "I will switch to integer cents."}]})),
        msg(json!({"role": "user", "content": [
            {"type": "text", "text": "Here is the screenshot of the overflowing table."},
            {"type": "image", "mimeType": "image/png", "data": png}]})),
    ];
    let stripped = msg(json!({"role": "assistant", "stopReason": "toolUse", "content": [
        {"type": "text", "text": "I'll read the failing test."},
        call("toolu_01", "read", json!({"path": "tests/invoice.test.ts"}))]}));
    let synthetic = msg(
        json!({"role": "toolResult", "toolCallId": "toolu_02", "toolName": "bash", "isError": true,
        "content": [{"type": "text", "text": "[openclaw] missing tool result in session history; inserted synthetic error result for transcript repair."}]}),
    );
    let merged = msg(json!({"role": "assistant", "content": [
        {"type": "text", "text": "The rounding uses floats."},
        {"type": "text", "text": "I will switch to integer cents."}]}));
    let recompressed = msg(json!({"role": "user", "content": [
        {"type": "text", "text": "Here is the screenshot of the overflowing table."},
        {"type": "image", "mimeType": "image/jpeg", "data": jpeg}]}));
    let replay = vec![
        (vec![0], None),
        (vec![1], Some(stripped)),
        (vec![3], None),
        (vec![2], None),
        (vec![5], None),
        (vec![], Some(synthetic)),
        (vec![6, 7], Some(merged)),
        (vec![8], Some(recompressed)),
    ];
    let rewrites = vec![
        rw(
            "drop-thinking",
            Action::Modify,
            &[1],
            &[1],
            "dropped 1 thinking block from an older assistant turn",
        ),
        rw(
            "tool-result-pairing",
            Action::Move,
            &[3],
            &[2],
            "moved result for toolu_01 (read) to follow its call",
        ),
        rw(
            "stream-error-turn",
            Action::Drop,
            &[4],
            &[],
            "dropped empty assistant turn with stopReason error",
        ),
        rw(
            "tool-result-pairing",
            Action::Insert,
            &[],
            &[5],
            "synthesized missing result for toolu_02 (bash)",
        ),
        rw(
            "anthropic-turn-merge",
            Action::Merge,
            &[6, 7],
            &[6],
            "merged 2 consecutive assistant turns",
        ),
        rw(
            "image-sanitize",
            Action::Modify,
            &[8],
            &[7],
            "recompressed image/png 2600×400 → image/jpeg 1200×185",
        ),
    ];
    build("every-kind", messages, replay, rewrites)
}

/// A transcript of `n` plain messages, replayed unchanged.
pub fn plain(n: usize) -> Inspection {
    let messages: Vec<Message> = (0..n)
        .map(|i| msg(json!({"role": if i % 2 == 0 { "user" } else { "assistant" }, "content": format!("message {i}")})))
        .collect();
    let replay = (0..n).map(|i| (vec![i], None)).collect();
    build("plain", messages, replay, Vec::new())
}

/// A synthetic coding session of `n` messages (calls, results, long text), with a rewrite
/// every 50 messages, for the render benchmark.
pub fn synthetic(n: usize) -> Inspection {
    let messages: Vec<Message> = (0..n)
        .map(|i| match i % 4 {
            0 => msg(json!({"role": "user", "content": format!("Step {i}: please look at module {i} and explain what the function does. ").repeat(3)})),
            1 => msg(json!({"role": "assistant", "stopReason": "toolUse", "content": [
                {"type": "thinking", "thinking": "Think about it.", "thinkingSignature": "sig"},
                call(&format!("call_{i}"), "read", json!({"path": format!("src/module_{i}.rs")}))]})),
            2 => msg(json!({"role": "toolResult", "toolCallId": format!("call_{}", i - 1), "toolName": "read",
                "content": [{"type": "text", "text": (0..30).map(|l| format!("line {l} of module {i}\n")).collect::<String>()}]})),
            _ => msg(json!({"role": "assistant", "content": [{"type": "text", "text": format!("Module {i} parses the input.")}]})),
        })
        .collect();
    let mut rewrites = Vec::new();
    let replay = (0..n)
        .map(|i| {
            if i % 50 == 1 {
                rewrites.push(rw("drop-thinking", Action::Modify, &[i], &[i], "dropped thinking"));
                let m = msg(json!({"role": "assistant", "stopReason": "toolUse", "content": [
                    call(&format!("call_{i}"), "read", json!({"path": format!("src/module_{i}.rs")}))]}));
                (vec![i], Some(m))
            } else {
                (vec![i], None)
            }
        })
        .collect();
    build("synthetic", messages, replay, rewrites)
}

/// Stable rule documentation for snapshot tests.
pub fn rule_info(id: &str) -> Option<&'static RuleInfo> {
    const fn info(id: &'static str, summary: &'static str) -> RuleInfo {
        RuleInfo {
            id,
            summary,
            explanation: "Fixture explanation: what the rule does and why.",
            families: "fixture",
            reference: "fixture.md",
        }
    }
    static RULES: [RuleInfo; 5] = [
        info("drop-thinking", "drop thinking blocks from older assistant turns"),
        info("tool-result-pairing", "move displaced results, synthesize missing ones"),
        info("stream-error-turn", "drop empty error turns"),
        info(
            "anthropic-turn-merge",
            "merge consecutive turns (Anthropic alternation)",
        ),
        info("image-sanitize", "downscale / recompress oversized images"),
    ];
    RULES.iter().find(|r| r.id == id)
}
