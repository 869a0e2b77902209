//! OpenClaw rule sets: which release's behaviour a replay reproduces (`--openclaw VERSION`).
//!
//! A rule set is the newest behaviour plus a few named switches, each tied to the releases that
//! behave that way. Rules read the switches; nothing else in the pipeline depends on the set.
//! Adding a release is one more entry in [`RULE_SETS`] (and, when it behaves differently, one
//! more switch), then an oracle run (`oracle/README.md`) to confirm it.

use std::fmt;

pub mod release;
pub mod switches;

pub use release::Release;

/// The wording a synthesized missing tool result carries (outside the Responses family, which
/// always uses `aborted`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyntheticResultText {
    /// `[openclaw] missing tool result in session history; inserted synthetic error result for
    /// transcript repair.` (OpenClaw up to 2026.9.6).
    Legacy,
    /// The newest page: the outcome is unknown, retry only read-only or idempotent operations,
    /// verify state before repeating side effects.
    OutcomeUnknown,
}

/// Whether the policy marks runtime context append-only (the `appendOnlyRuntimeContext` flag,
/// which stops `anthropic-turn-merge` on prefix-binding Claude models).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppendOnlyContext {
    /// As the plugins of 2026.9.3 and later set it (Responses and prefix-binding Claude models).
    Plugins,
    /// 2026.9.2: as `Plugins`, except that OpenAI Responses sets it to `false`.
    NotOnResponses,
    /// Up to 2026.9.1: the flag does not exist (read as `false` everywhere).
    Absent,
}

/// The switches one rule set sets. Each is one documented difference from `newest`, listed
/// with its release range in [`switches::SWITCHES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Switches {
    /// Text of a synthesized missing tool result (`tool-result-pairing`).
    pub synthetic_result_text: SyntheticResultText,
    /// Whether `tool-result-details` keeps the synthetic-result marker in `details`
    /// (2026.9.6 strips every `details`, marker included).
    pub keep_synthetic_marker: bool,
    /// Whether a tool call that already has its result is exempt from the allowed-tool-name
    /// check (2026.9.5 and later); older releases drop it, result and all.
    pub completed_calls_skip_name_check: bool,
    /// Whether an empty failed assistant turn becomes the placeholder
    /// `[assistant turn failed before producing content]`, trailing ones being trimmed
    /// (up to 2026.9.2), instead of being dropped wherever it is.
    pub empty_turn_placeholder: bool,
    /// Whether the Responses family drops reasoning that no output item follows already in the
    /// history, emptied turns with it (`downgradeOpenAIReasoningBlocks`, up to 2026.9.1), instead
    /// of only from the outgoing request.
    pub responses_orphan_reasoning_in_history: bool,
    /// The policy's `appendOnlyRuntimeContext`.
    pub append_only_context: AppendOnlyContext,
    /// Whether content rewrites keep compaction checkpoints (`providerReplay`) in step and an
    /// emptied assistant turn that owns provider replay state is kept (2026.8 and later).
    pub compaction_checkpoints: bool,
    /// Whether Claude models keep their thinking blocks by the 2026.7 model list
    /// (`shouldPreserveThinkingBlocks`: any opus-4, sonnet-4, haiku-4, fable-5 or claude-5+),
    /// instead of the newer one (only opus-4-5 to 4-8, sonnet-4-6, sonnet-5, fable-5, mythos).
    pub legacy_claude_thinking: bool,
    /// Whether an `openclawDeliveryMirror` marker makes an assistant turn transcript-only
    /// (2026.8 and later); 2026.7 drops only `provider: openclaw` transcript-only models.
    pub delivery_mirror_marker: bool,
    /// Whether inbound metadata in assistant text is found by the exact label lines followed by
    /// a json fence (up to 2026.7), not by the `⟦openclaw:ctx⟧` marker; managed display blocks
    /// are then kept too.
    pub metadata_by_label: bool,
    /// Whether a bare zero-usage repeat of the previous assistant turn is dropped
    /// (`isBareDeliveryMirrorDuplicate`, 2026.8 and later).
    pub duplicate_mirror_check: bool,
    /// Whether the silent token counts inside edge punctuation (`NO_REPLY.`, 2026.7 and
    /// later).
    pub silent_token_edge_punctuation: bool,
    /// Whether OpenClaw refuses a Responses replay whose calls and results do not pair up
    /// (`assertOpenAIResponsesToolUseResultInvariant`, 2026.6.11 and later).
    pub responses_replay_invariant: bool,
    /// Whether a turn left reasoning-only by removing its `NO_REPLY` text is dropped
    /// (2026.8 and later); 2026.7 keeps the reasoning.
    pub silent_reply_drops_reasoning_only: bool,
    /// Whether a Responses `call|item` id that must be rebuilt gets its call part from the call
    /// part alone (up to 2026.7), not from the whole pair.
    pub legacy_responses_call_ids: bool,
    /// Whether tool-call ids are sanitized before results are paired, with the pairing of
    /// 2026.7 (forward scan, later results moved up; synthetic results without `reason` in
    /// `details`), instead of pairing first.
    pub legacy_pairing: bool,
    /// Whether an image payload whose estimated decoded size is over 10 MiB is refused before
    /// anything else (`image-sanitize`, 2026.6.11 and later).
    pub image_input_limit: bool,
    /// Whether image base64 is canonicalized the 2026.7 way: unpadded data padded, non-zero pad
    /// bits refused; 2026.6 refuses data whose length is not a multiple of 4 and keeps any pad
    /// bits.
    pub image_base64_padding: bool,
    /// Whether a HEIF/AVIF header is read from its primary item (size, `irot`/`imir`
    /// orientation), as rastermill 0.3.2 and later do; rastermill 0.3.1 takes the largest `ispe`
    /// and no orientation.
    pub heif_primary_item: bool,
    /// Whether an image that cannot be reduced names the cap as `formatBytesShort` does
    /// (`5.00MB`, 2026.9.2 and later) rather than in whole megabytes (`5MB`).
    pub reduce_error_short_format: bool,
    /// Whether the tool-call id sanitizer rewrites a tool result's id fields from one primary id
    /// written into all six alias fields (2026.6.11 and later), instead of only `toolCallId` and
    /// `toolUseId`, each from its own value (`rewriteToolResultIds` of 2026.6.9 and 2026.6.10).
    pub result_id_aliases: bool,
}

impl Switches {
    /// The newest behaviour throughout.
    pub const NEWEST: Switches = Switches {
        synthetic_result_text: SyntheticResultText::OutcomeUnknown,
        keep_synthetic_marker: true,
        completed_calls_skip_name_check: true,
        empty_turn_placeholder: false,
        responses_orphan_reasoning_in_history: false,
        append_only_context: AppendOnlyContext::Plugins,
        compaction_checkpoints: true,
        legacy_claude_thinking: false,
        delivery_mirror_marker: true,
        duplicate_mirror_check: true,
        metadata_by_label: false,
        silent_token_edge_punctuation: true,
        responses_replay_invariant: true,
        silent_reply_drops_reasoning_only: true,
        legacy_responses_call_ids: false,
        legacy_pairing: false,
        image_input_limit: true,
        image_base64_padding: true,
        heif_primary_item: true,
        reduce_error_short_format: true,
        result_id_aliases: true,
    };
}

/// One rule set: a name, the releases it reproduces and its switches.
#[derive(Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// The name `--openclaw` accepts (`newest`, `2026.9.6`, …).
    pub name: &'static str,
    /// Other names accepted for it (releases that behave the same).
    pub aliases: &'static [&'static str],
    /// The first release it reproduces.
    pub first: Release,
    /// The last release it reproduces.
    pub last: Release,
    /// The releases it reproduces, in words.
    pub releases: &'static str,
    /// How it was confirmed.
    pub checked: &'static str,
    /// Its switches.
    pub switches: Switches,
}

/// The default: 2026.9.6 plus the deltas of the newest revision of the hygiene page.
pub static NEWEST: RuleSet = RuleSet {
    name: "newest",
    aliases: &["main"],
    first: Release::new(2026, 9, 7),
    last: Release::new(u16::MAX, 12, u16::MAX),
    releases: "OpenClaw main after 2026.9.6 (newest revision of the transcript-hygiene page)",
    checked: "differential test against 2026.9.6; only the documented deltas differ",
    switches: Switches::NEWEST,
};

/// Exactly what the published releases 2026.9.5 and 2026.9.6 send.
pub static V2026_9_6: RuleSet = RuleSet {
    name: "2026.9.6",
    aliases: &["2026.9.5"],
    first: Release::new(2026, 9, 5),
    last: Release::new(2026, 9, 6),
    releases: "openclaw@2026.9.5 and 2026.9.6 on npm",
    checked: "differential test against openclaw@2026.9.6 (oracle/): 0 differences",
    switches: Switches {
        synthetic_result_text: SyntheticResultText::Legacy,
        keep_synthetic_marker: false,
        ..Switches::NEWEST
    },
};

/// 2026.9.3 and 2026.9.4: tool calls outside the allowed tools are dropped even when they
/// have a result.
pub static V2026_9_3: RuleSet = RuleSet {
    name: "2026.9.3",
    aliases: &["2026.9.4"],
    first: Release::new(2026, 9, 3),
    last: Release::new(2026, 9, 4),
    releases: "openclaw@2026.9.3 and 2026.9.4 on npm",
    checked: "differential test against openclaw@2026.9.4 (oracle/releases/)",
    switches: Switches {
        completed_calls_skip_name_check: false,
        ..V2026_9_6.switches
    },
};

/// 2026.9.2: empty failed assistant turns become the placeholder text.
pub static V2026_9_2: RuleSet = RuleSet {
    name: "2026.9.2",
    aliases: &[],
    first: Release::new(2026, 9, 2),
    last: Release::new(2026, 9, 2),
    releases: "openclaw@2026.9.2 on npm",
    checked: "differential test against openclaw@2026.9.2 (oracle/releases/)",
    switches: Switches {
        empty_turn_placeholder: true,
        append_only_context: AppendOnlyContext::NotOnResponses,
        ..V2026_9_3.switches
    },
};

/// 2026.8.x to 2026.9.1.
pub static V2026_8: RuleSet = RuleSet {
    name: "2026.8",
    aliases: &["2026.9.1"],
    first: Release::new(2026, 8, 0),
    last: Release::new(2026, 9, 1),
    releases: "openclaw@2026.8.1 to 2026.9.1 on npm",
    checked: "differential test against openclaw@2026.9.1 (oracle/releases/)",
    switches: Switches {
        responses_orphan_reasoning_in_history: true,
        append_only_context: AppendOnlyContext::Absent,
        reduce_error_short_format: false,
        ..V2026_9_2.switches
    },
};

/// 2026.7.x.
pub static V2026_7: RuleSet = RuleSet {
    name: "2026.7",
    aliases: &["2026.7.35"],
    first: Release::new(2026, 7, 0),
    last: Release::new(2026, 7, u16::MAX),
    releases: "openclaw@2026.7.1 to 2026.7.35 on npm",
    checked: "differential test against openclaw@2026.7.35 (oracle/releases/); the others in the release sweep",
    switches: Switches {
        legacy_claude_thinking: true,
        delivery_mirror_marker: false,
        duplicate_mirror_check: false,
        metadata_by_label: true,
        silent_reply_drops_reasoning_only: false,
        legacy_responses_call_ids: true,
        compaction_checkpoints: false,
        legacy_pairing: true,
        heif_primary_item: false,
        ..V2026_8.switches
    },
};

/// 2026.6.11 to 2026.6.x, most of the releases of the oldest revision of the hygiene page.
pub static V2026_6: RuleSet = RuleSet {
    name: "2026.6",
    aliases: &["2026.6.35"],
    first: Release::new(2026, 6, 11),
    last: Release::new(2026, 6, u16::MAX),
    releases: "openclaw@2026.6.11 to 2026.6.35 on npm",
    checked: "differential test against openclaw@2026.6.35 (oracle/releases/); the others in the release sweep",
    switches: Switches {
        silent_token_edge_punctuation: false,
        image_base64_padding: false,
        ..V2026_7.switches
    },
};

/// 2026.6.9 and 2026.6.10, the first releases of the oldest page revision.
pub static V2026_6_9: RuleSet = RuleSet {
    name: "2026.6.9",
    aliases: &["2026.6.10"],
    first: Release::new(2026, 6, 9),
    last: Release::new(2026, 6, 10),
    releases: "openclaw@2026.6.9 and 2026.6.10 on npm",
    checked: "differential test against openclaw@2026.6.10 (oracle/releases/); 2026.6.9 in the release sweep",
    switches: Switches {
        responses_replay_invariant: false,
        image_input_limit: false,
        result_id_aliases: false,
        ..V2026_6.switches
    },
};

/// Every rule set, newest first.
pub static RULE_SETS: [&RuleSet; 8] = [
    &NEWEST, &V2026_9_6, &V2026_9_3, &V2026_9_2, &V2026_8, &V2026_7, &V2026_6, &V2026_6_9,
];

/// One switch on which a rule set differs from `newest`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The switch's name.
    pub switch: &'static str,
    /// The rule whose behaviour changes.
    pub rule: &'static str,
    /// The releases that behave this way.
    pub releases: &'static str,
    /// What this rule set does instead.
    pub text: &'static str,
}

/// `--openclaw` named no known rule set or release.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnknownRuleSet {
    /// Neither a rule set name nor a release number.
    #[error("unknown OpenClaw rule set `{0}`; known: {known}, or a release number such as 2026.9.2", known = RuleSet::known_names())]
    Name(String),
    /// A release older than every rule set.
    #[error("OpenClaw {0} is older than every rule set; the oldest, {oldest}, covers {covers}", oldest = RuleSet::oldest().name, covers = RuleSet::oldest().releases)]
    TooOld(String),
}

impl RuleSet {
    /// The default rule set.
    pub fn newest() -> &'static RuleSet {
        &NEWEST
    }

    /// The rule set that covers the oldest releases.
    pub fn oldest() -> &'static RuleSet {
        RULE_SETS[RULE_SETS.len() - 1]
    }

    /// The rule set with this name or alias (a leading `v` is accepted).
    pub fn named(name: &str) -> Option<&'static RuleSet> {
        let name = name.trim();
        let name = name.strip_prefix('v').unwrap_or(name);
        RULE_SETS
            .iter()
            .copied()
            .find(|s| s.name.eq_ignore_ascii_case(name) || s.aliases.iter().any(|a| a.eq_ignore_ascii_case(name)))
    }

    /// The rule set whose release range holds `release`; a release after the newest published
    /// one gets `newest`, one before the oldest set gets `None`.
    pub fn for_release(release: Release) -> Option<&'static RuleSet> {
        RULE_SETS
            .iter()
            .copied()
            .find(|s| s.first <= release && release <= s.last)
    }

    /// A rule set name or alias, else any release number (the set that covers it).
    pub fn parse(name: &str) -> Result<&'static RuleSet, UnknownRuleSet> {
        if let Some(set) = Self::named(name) {
            return Ok(set);
        }
        let release = Release::parse(name).ok_or_else(|| UnknownRuleSet::Name(name.trim().to_owned()))?;
        Self::for_release(release).ok_or_else(|| UnknownRuleSet::TooOld(release.to_string()))
    }

    /// The rule set for the OpenClaw release a session file records (`version`), with a line
    /// saying where it came from; `None` when that release is older than every set or not a
    /// release number (the caller keeps its default and may show the line).
    pub fn for_recorded(version: &str) -> (Option<&'static RuleSet>, String) {
        match Release::parse(version).and_then(Self::for_release) {
            Some(set) => (
                Some(set),
                format!(
                    "rule set {} from the OpenClaw release the session records ({version})",
                    set.name
                ),
            ),
            None => (
                None,
                format!(
                    "the session records OpenClaw {version}, which no rule set covers (oldest: {}); using the default",
                    Self::oldest().name
                ),
            ),
        }
    }

    /// The names `--openclaw` accepts, comma-separated.
    pub fn known_names() -> String {
        RULE_SETS
            .iter()
            .flat_map(|s| std::iter::once(s.name).chain(s.aliases.iter().copied()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether this is the default set.
    pub fn is_newest(&self) -> bool {
        std::ptr::eq(self, &NEWEST)
    }

    /// The switches on which this set differs from `newest`, each naming its rule.
    pub fn differences(&self) -> Vec<Difference> {
        switches::SWITCHES
            .iter()
            .filter(|s| (s.in_force)(&self.switches))
            .map(|s| Difference {
                switch: s.name,
                rule: s.rule,
                releases: s.releases,
                text: s.text,
            })
            .collect()
    }

    /// The differences that concern one rule.
    pub fn differences_for(&self, rule: &str) -> Vec<Difference> {
        self.differences().into_iter().filter(|d| d.rule == rule).collect()
    }
}

impl Default for &'static RuleSet {
    /// `newest`.
    fn default() -> Self {
        &NEWEST
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests;
