//! Gemini on Vertex AI (`google-vertex`): the `contents` array.
//!
//! For providers `google` and `google-vertex`, OpenClaw 2026.9.6 sends Vertex requests through
//! the same Google transport as the Gemini API: the google plugin's `createStreamFn` picks
//! `createGoogleVertexTransportStreamFn` for API `google-vertex` (and for
//! `google-generative-ai` on a Vertex base URL), and both kinds
//! build their body with `buildGoogleGenerativeAiParams`. Only the URL and the credentials
//! differ, so the conversation is the Gemini one ([`super::google`]); what tells the two
//! apart is the model: `google-vertex` is kept as the API of the target and of the turns it
//! produced, so only Vertex turns count as the model's own (signatures, call ids, thinking).
//! Other providers on this API take `@openclaw/ai`'s built-in provider
//! ([`super::google_vertex_pi_ai`]).

#[cfg(test)]
mod tests;

use super::{WireInput, WireItem, WireModel, google};

/// Convert prepared messages to the Vertex `contents` array (the Gemini conversion).
pub fn convert(inputs: &[WireInput], model: &WireModel) -> Vec<WireItem> {
    google::convert(inputs, model)
}
