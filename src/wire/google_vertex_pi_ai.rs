//! Gemini on Vertex AI through `@openclaw/ai`'s built-in `google-vertex` provider (the pi-ai
//! API registry): the `contents` array.
//!
//! OpenClaw 2026.9.6 hands API `google-vertex` to the google plugin's own transport only for
//! providers `google` and `google-vertex` ([`super::google_vertex`]). Every other provider on
//! that API (a custom provider, `vllm`, `amazon-bedrock`, `google-gemini-cli`, …) has no
//! stream of its own, so the session's default stream takes it: `streamSimpleGoogleVertex`
//! of `@openclaw/ai/providers` (`packages/ai/src/providers/google-vertex.ts`), whose
//! `buildGoogleGenerateContentParams` runs google-shared's `convertMessages`:
//!
//! - `transformProviderMessages` ([`super::transform::provider`]) instead of OpenClaw's
//!   transport transform: ids trimmed, `No result provided` results synthesized for every
//!   unanswered call, failed turns per pi-ai, user media projected; tool-call ids rewritten
//!   to `[A-Za-z0-9_-]{1,64}` for `claude-*` / `gpt-oss-*` models only;
//! - `projectGoogleMessages` in its `signed-parts` replay ([`google::Replay::SignedParts`]);
//! - Gemini 3 Pro / Flash models (unanchored match) need a call signature, except on
//!   provider `google-gemini-cli`.

#[cfg(test)]
mod tests;

use std::sync::LazyLock;

use regex::Regex;

use super::google::{self, Replay};
use super::{WireInput, WireItem, WireModel};

static GEMINI_3_PRO: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"gemini-(?:3(?:\.\d+)?-pro|pro-latest)").expect("regex"));
static GEMINI_3_FLASH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"gemini-(?:3(?:\.\d+)?-flash|flash(?:-lite)?-latest)").expect("regex"));

/// Whether a provider's `google-vertex` models go through the built-in provider: every
/// provider but the two whose google plugin stream takes the API (`google`, `google-vertex`,
/// matched as OpenClaw normalizes provider ids).
pub fn routes(provider: &str) -> bool {
    let provider = provider.trim().to_ascii_lowercase();
    provider != "google" && provider != "google-vertex"
}

/// Whether the model needs a thought signature on a turn's first function call
/// (`requiresToolCallSignature` of google-shared's `convertMessages`).
pub fn requires_tool_call_signature(model: &WireModel) -> bool {
    let id = model.model.to_lowercase();
    model.provider != "google-gemini-cli" && (GEMINI_3_PRO.is_match(&id) || GEMINI_3_FLASH.is_match(&id))
}

/// Convert prepared messages to the Vertex `contents` array of the built-in provider.
pub fn convert(inputs: &[WireInput], model: &WireModel) -> Vec<WireItem> {
    google::project(inputs, model, Replay::SignedParts, requires_tool_call_signature(model))
}
