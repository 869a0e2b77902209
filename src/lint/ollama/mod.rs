//! Ollama native chat constraints (https://github.com/ollama/ollama/blob/main/docs/api.md), for `ollama`
//! (`/api/chat`).
//!
//! The server decodes the body with Go's `encoding/json` into its `ChatRequest`, so what it
//! rejects is what does not fit that struct: a non-string `content`, tool-call arguments that
//! are not an object, images that are not standard base64. Each is refused with Go's own
//! error text, as `{"error": "<text>"}` with status 400, naming only the first problem.
//!
//! Not checked: image formats and image counts (they depend on the model and its runner, and
//! the runner's errors, such as `image: unknown format`, are logged rather than returned), and
//! images sent to a model without vision (no error text on record).

mod field_type;
mod image_base64;

use super::Constraint;

/// Every Ollama constraint, in report order.
pub static CONSTRAINTS: &[&Constraint] = &[&field_type::CONSTRAINT, &image_base64::CONSTRAINT];
