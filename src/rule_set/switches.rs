//! The named switches: each one difference of an older release from `newest`, the rule it
//! concerns, the releases that behave that way, and how to tell whether a set has it.

use super::{AppendOnlyContext, Switches, SyntheticResultText};

/// One switch as `replaylens rules --openclaw V` lists it.
pub struct Switch {
    /// Its name.
    pub name: &'static str,
    /// The rule whose behaviour it changes.
    pub rule: &'static str,
    /// The releases that behave this way.
    pub releases: &'static str,
    /// What those releases do, against `newest`.
    pub text: &'static str,
    /// Whether a set's switches have this older behaviour.
    pub in_force: fn(&Switches) -> bool,
}

/// Every switch, newest change first.
pub static SWITCHES: [Switch; 22] = [
    Switch {
        name: "legacy-synthetic-result-text",
        rule: "tool-result-pairing",
        releases: "2026.9.6 and older",
        text: "synthesized missing results carry the legacy text `[openclaw] missing tool result in session \
               history; inserted synthetic error result for transcript repair.` (newest: the outcome-unknown \
               wording); the Responses family keeps `aborted` in both",
        in_force: |s| s.synthetic_result_text == SyntheticResultText::Legacy,
    },
    Switch {
        name: "strip-synthetic-marker",
        rule: "tool-result-details",
        releases: "2026.9.6 and older",
        text: "every `details` is removed, the synthetic-result marker included (newest keeps the marker on \
               synthetic results)",
        in_force: |s| !s.keep_synthetic_marker,
    },
    Switch {
        name: "name-check-completed-calls",
        rule: "malformed-tool-call",
        releases: "2026.9.4 and older",
        text: "a tool call whose name is not among the allowed tools is dropped even when it already has its \
               result (2026.9.5 and later exempt completed calls from the name check); its result then goes \
               with it, and a signed thinking turn holding such a call is no longer replay-safe",
        in_force: |s| !s.completed_calls_skip_name_check,
    },
    Switch {
        name: "empty-turn-placeholder",
        rule: "stream-error-turn",
        releases: "2026.9.2 and older",
        text: "an assistant turn left with no content that failed (`stopReason: error`) or stopped with zero \
               usage is replayed as the text `[assistant turn failed before producing content]`, and only such \
               turns at the end of the history are dropped (2026.9.3 and later drop them wherever they are, so \
               the turns around them can merge); a compaction checkpoint on a turn given the placeholder is removed",
        in_force: |s| s.empty_turn_placeholder,
    },
    Switch {
        name: "append-only-off-on-responses",
        rule: "anthropic-turn-merge",
        releases: "2026.9.2",
        text: "the OpenAI Responses policy sets `appendOnlyRuntimeContext: false` (2026.9.3 and later: true); \
               it only changes `anthropic-turn-merge`, which no Responses target runs",
        in_force: |s| s.append_only_context == AppendOnlyContext::NotOnResponses,
    },
    Switch {
        name: "no-append-only-context",
        rule: "anthropic-turn-merge",
        releases: "2026.9.1 and older",
        text: "no policy has `appendOnlyRuntimeContext`, so consecutive turns are merged for prefix-binding \
               Claude models too",
        in_force: |s| s.append_only_context == AppendOnlyContext::Absent,
    },
    Switch {
        name: "responses-orphan-reasoning-in-history",
        rule: "responses-reasoning",
        releases: "2026.9.1 and older",
        text: "on the OpenAI Responses family, reasoning that no output item follows in its turn is dropped \
               already in the history, and a turn left empty goes with it, before pairing and turn validation \
               (`downgradeOpenAIReasoningBlocks`); 2026.9.2 and later drop it only from the outgoing request",
        in_force: |s| s.responses_orphan_reasoning_in_history,
    },
    Switch {
        name: "reduce-error-whole-megabytes",
        rule: "image-sanitize",
        releases: "2026.9.1 and older",
        text: "an image that cannot be brought under the byte cap is reported as `Error: Image could not be \
               reduced below 5MB (got 6.12MB)`: the cap in whole megabytes (2026.9.2 and later: `5.00MB`)",
        in_force: |s| !s.reduce_error_short_format,
    },
    Switch {
        name: "legacy-claude-thinking",
        rule: "drop-thinking",
        releases: "2026.7.x and older",
        text: "Claude models keep thinking blocks by the older list (any opus-4, sonnet-4, haiku-4, fable-5, \
               claude-5 or later), so claude-sonnet-4-5 keeps them; newer releases keep them only for opus-4-5 \
               to 4-8, sonnet-4-6, sonnet-5, fable-5 and mythos",
        in_force: |s| s.legacy_claude_thinking,
    },
    Switch {
        name: "no-delivery-mirror-marker",
        rule: "transcript-only-assistant",
        releases: "2026.7.x and older",
        text: "an `openclawDeliveryMirror` marker does not make a turn transcript-only; only `provider: \
               openclaw` with a transcript-only model is dropped",
        in_force: |s| !s.delivery_mirror_marker,
    },
    Switch {
        name: "no-duplicate-mirror-check",
        rule: "duplicate-mirror",
        releases: "2026.7.x and older",
        text: "a bare zero-usage repeat of the previous assistant turn is kept (the check came in 2026.8)",
        in_force: |s| !s.duplicate_mirror_check,
    },
    Switch {
        name: "metadata-by-label",
        rule: "internal-metadata",
        releases: "2026.7.x and older",
        text: "inbound metadata in assistant text is recognised by its exact label line followed by a json \
               fence (a label carrying the `⟦openclaw:ctx⟧` marker is not), and display-only assistant blocks \
               (attachment, audio, image, video) are kept",
        in_force: |s| s.metadata_by_label,
    },
    Switch {
        name: "keep-reasoning-after-silent-reply",
        rule: "silent-reply",
        releases: "2026.7.x and older",
        text: "a turn left with only reasoning once its `NO_REPLY` text is removed is kept",
        in_force: |s| !s.silent_reply_drops_reasoning_only,
    },
    Switch {
        name: "legacy-responses-call-ids",
        rule: "responses-reasoning",
        releases: "2026.7.x and older",
        text: "a Responses `call|item` id that must be rebuilt gets its `call_` part from the call part alone \
               (newer releases hash the whole pair); a tool result's `toolCallId` and `toolUseId` are each \
               normalized from their own value and its other id aliases are left as they are (newer releases \
               write one primary id into every alias and add `toolCallId`)",
        in_force: |s| s.legacy_responses_call_ids,
    },
    Switch {
        name: "no-compaction-checkpoints",
        rule: "blank-text",
        releases: "2026.7.x and older",
        text: "content rewrites leave a compaction checkpoint (`providerReplay`) as it is, and an assistant \
               turn emptied by blank-text removal is dropped even when it owns provider replay state",
        in_force: |s| !s.compaction_checkpoints,
    },
    Switch {
        name: "legacy-pairing",
        rule: "tool-result-pairing",
        releases: "2026.7.x and older",
        text: "tool-call ids are sanitized before results are paired (together with image sanitizing), and \
               pairing scans forward from each tool-call turn, moving later matching results up; a synthesized \
               result's `details` holds only the synthetic marker, without `reason`",
        in_force: |s| s.legacy_pairing,
    },
    Switch {
        name: "rastermill-0.3.1-heif",
        rule: "image-sanitize",
        releases: "2026.7.x and older",
        text: "rastermill 0.3.1 reads a HEIF or AVIF header's size from its largest `ispe` box and no \
               orientation (0.3.2 and later: the primary item's `ispe`, turned by its `irot`/`imir`), so a \
               HEIF whose primary item is small but holds a larger thumbnail or grid tile is judged by the \
               larger size",
        in_force: |s| !s.heif_primary_item,
    },
    Switch {
        name: "silent-token-exact",
        rule: "silent-reply",
        releases: "2026.6.x",
        text: "the silent token counts only as itself (`NO_REPLY`, repeated, any case), not inside edge \
               punctuation such as `NO_REPLY.` or `**NO_REPLY**`",
        in_force: |s| !s.silent_token_edge_punctuation,
    },
    Switch {
        name: "unpadded-image-base64",
        rule: "image-sanitize",
        releases: "2026.6.x",
        text: "image base64 is canonicalized without padding: data whose length (whitespace removed) is not a \
               multiple of 4 is `invalid base64` (2026.7 and later pad it), and non-zero pad bits are accepted \
               (later refused) and decoded as Node decodes them",
        in_force: |s| !s.image_base64_padding,
    },
    Switch {
        name: "no-image-input-limit",
        rule: "image-sanitize",
        releases: "2026.6.9 and 2026.6.10",
        text: "no 10 MiB estimate check: a payload over it is not refused as `image exceeds input size limit \
               (10.00MB)` but canonicalized and read like any other (2026.6.11 and later refuse it first)",
        in_force: |s| !s.image_input_limit,
    },
    Switch {
        name: "no-responses-invariant",
        rule: "responses-reasoning",
        releases: "2026.6.9 and 2026.6.10",
        text: "a Responses replay whose tool calls and results do not pair up is sent as it is; later \
               releases refuse it (`invalid_replay_transcript`)",
        in_force: |s| !s.responses_replay_invariant,
    },
    Switch {
        name: "legacy-result-id-fields",
        rule: "tool-call-id",
        releases: "2026.6.9 and 2026.6.10",
        text: "a tool result's `toolCallId` and `toolUseId` are each rewritten from their own value (one \
               resolution when they are equal), its other id alias fields are left as they are and no \
               `toolCallId` is added (2026.6.11 and later resolve one primary id and write it into every alias)",
        in_force: |s| !s.result_id_aliases,
    },
];
