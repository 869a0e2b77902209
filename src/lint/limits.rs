//! The size and count limits of the providers, as one table: which APIs a limit applies to,
//! its constraint id, the kind of limit (and so the check of [`super::limit_checks`] that
//! applies), the number, and the error text as a template.
//!
//! A template's `{…}` marks what the check fills in; each kind names its placeholders (see
//! [`Kind`]). Where no provider text is on record the template says what was measured, after
//! `(no provider error text on record)`.
//!
//! The registry appends each API's rows, in table order, after the API's hand-written
//! constraints; findings of one payload item are reported in that order.

use std::sync::LazyLock;

use super::constraint::{Check, Constraint};
use super::{google, openai_responses};
use crate::wire::WireApi;

/// What a limit bounds; each kind has one check in [`super::limit_checks`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The serialized conversation, in bytes: a hit at the item whose end takes the body over
    /// the limit, at the conversation key. Placeholders `{bytes}` (the body size), `{limit}`.
    RequestSize,
    /// Every inline image, in decoded bytes: a hit at each image over the limit.
    /// Placeholders `{path}` (the image's), `{bytes}` (its decoded size), `{limit}`.
    ImageBytes,
    /// Every inline image, in decoded bytes, and its declared format (PNG, JPEG, GIF or WEBP):
    /// a hit at each image over the limit or of another format. No placeholders.
    ImageBytesAndFormat,
    /// The longer side of every inline image, in pixels: a hit at each image with a side over
    /// the limit, at the path the provider names for its dimensions. Placeholders `{path}`,
    /// `{width}`, `{height}`, `{limit}`.
    ImageSide,
    /// The longer side of every inline image when the request holds more than `images`
    /// images, as [`Kind::ImageSide`]; images over the API's own [`Kind::ImageSide`] limit are
    /// left to that row.
    ManyImagesSide {
        /// Images a request may hold before this limit applies.
        images: usize,
    },
    /// The inline images of the request: a hit at the item holding image number `limit + 1`,
    /// at the conversation key. Placeholders `{count}` (the images of the payload), `{limit}`.
    ImageCount,
}

/// One row of the table: a limit and the constraint it makes.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// The constraint's id.
    pub id: &'static str,
    /// The APIs whose payloads it applies to.
    pub apis: &'static [WireApi],
    /// What it bounds.
    pub kind: Kind,
    /// The limit: bytes, pixels or images, as the kind counts.
    pub limit: usize,
    /// The error text, `{…}` marking what the check fills in.
    pub error: &'static str,
    /// One line: what the provider requires.
    pub summary: &'static str,
    /// Where it is documented: the provider's published documentation and, where one is on
    /// record, a public issue that shows the rejection or the measurement.
    pub reference: &'static str,
    /// The hygiene rule that makes a replay meet it, or `None`.
    pub fixed_by: Option<&'static str>,
}

/// `(no provider error text on record) ` before what was measured.
macro_rules! measured {
    ($what:literal) => {
        concat!("(no provider error text on record) ", $what)
    };
}

/// No request-size text on record.
const MEASURED_BODY: &str = measured!("request body {bytes} bytes > {limit} bytes");
/// No image-size text on record.
const MEASURED_IMAGE_BYTES: &str = measured!("{path}: image {bytes} bytes > {limit} bytes");
/// No image-dimension text on record.
const MEASURED_IMAGE_SIDE: &str = measured!("{path}: image {width}x{height} px > {limit} px");
/// No image-count text on record.
const MEASURED_IMAGE_COUNT: &str = measured!("{count} images > {limit}");

/// OpenAI's text for an image too large or of another format (Chat Completions, 2024, tag V;
/// Responses sends the same).
const OPENAI_UNSUPPORTED_IMAGE: &str = "You uploaded an unsupported image. Please make sure your image is below 20 MB in size and is of one the following formats: ['png', 'jpeg', 'gif', 'webp'].";

const MIB: usize = 1024 * 1024;

/// Every limit, grouped by API, each API's rows in report order.
///
/// Notes on the numbers:
///
/// - `anthropic-request-size`: 32 MB read as 32 MiB of serialized conversation; the system
///   prompt and tools, not part of this payload, count too, and 413s have been reported from
///   about 18 MB of images, so a body under the limit can still be refused.
/// - `anthropic-image-count`: OpenClaw's converter sends no document blocks, so the page count
///   is always 0 here.
/// - `openai-*-request-size`: no error text is on record; the limit used is the documented
///   50 MB of image bytes per request (a doc mirror, read as 50 MiB), applied to the whole
///   conversation; reports put the real limit between 30 and 45 MB.
/// - `openai-*-image-size`: 20 MB read as 20 MiB; the format is the data URL's declared MIME
///   type.
/// - `gemini-request-size`: no error text is on record for the Gemini API (a 413); the limit
///   used is the 20 MB total request size of the Google docs and forum, read as 20 MiB.
/// - `bedrock-request-size`: no Converse limit is documented and no error text is on record;
///   the limit used is Bedrock's 20 MB InvokeModel payload limit for Anthropic models, read as
///   20 MiB.
/// - `bedrock-image-*`: documented (tag D) with no rejection text seen; a newer AWS page says
///   Bedrock leaves image limits to the model. 3.75 MB is read as 3.75 MiB; `image-sanitize`
///   caps images at 5 MiB, above that limit, so hygiene does not guarantee it.
/// - `mistral-*`: measured by a client's probe (tag C), against pixtral-12b for the images:
///   about 40 MB total gives a 413 (read as 40 MiB), about 15 MB per image (read as 15 MiB);
///   no error text is on record.
pub static LIMITS: &[Limit] = &[
    Limit {
        id: "anthropic-image-bytes",
        apis: &[WireApi::AnthropicMessages],
        kind: Kind::ImageBytes,
        limit: 5_242_880,
        error: "{path}: image exceeds 5 MB maximum: {bytes} bytes > {limit} bytes",
        summary: "every image is at most 5 MB (5242880 bytes) decoded",
        reference: "Anthropic vision, https://docs.claude.com/en/docs/build-with-claude/vision; rejection: https://github.com/cg-dot/vertexai-cf-workers/issues/16",
        fixed_by: Some("image-sanitize"),
    },
    Limit {
        id: "anthropic-image-pixels",
        apis: &[WireApi::AnthropicMessages],
        kind: Kind::ImageSide,
        limit: 8000,
        error: "{path}: At least one of the image dimensions exceed max allowed size: {limit} pixels",
        summary: "every image is at most 8000 px per side",
        reference: "Anthropic vision, https://docs.claude.com/en/docs/build-with-claude/vision; rejection: https://github.com/anthropics/claude-code/issues/5147",
        fixed_by: Some("image-sanitize"),
    },
    Limit {
        id: "anthropic-image-many-pixels",
        apis: &[WireApi::AnthropicMessages],
        kind: Kind::ManyImagesSide { images: 20 },
        limit: 2000,
        error: "{path}: At least one of the image dimensions exceed max allowed size for many-image requests: {limit} pixels",
        summary: "with more than 20 images in the request, every image is at most 2000 px per side",
        reference: "Anthropic vision, https://docs.claude.com/en/docs/build-with-claude/vision; rejection: https://github.com/anthropics/claude-code/issues/24630",
        fixed_by: Some("image-sanitize"),
    },
    Limit {
        id: "anthropic-image-count",
        apis: &[WireApi::AnthropicMessages],
        kind: Kind::ImageCount,
        limit: 100,
        error: "Too much media: 0 document pages + {count} images > {limit}",
        summary: "at most 100 images and document pages per request",
        reference: "Anthropic vision, https://docs.claude.com/en/docs/build-with-claude/vision; rejection: https://github.com/anthropics/claude-code/issues/19822",
        fixed_by: None,
    },
    Limit {
        id: "anthropic-request-size",
        apis: &[WireApi::AnthropicMessages],
        kind: Kind::RequestSize,
        limit: 32 * MIB,
        error: "Request exceeds the maximum size",
        summary: "the request body is at most 32 MB (limit used: 33554432 bytes)",
        reference: "Anthropic vision, https://docs.claude.com/en/docs/build-with-claude/vision; rejection: https://github.com/earendil-works/pi/issues/401",
        fixed_by: None,
    },
    Limit {
        id: "openai-chat-image-size",
        apis: &[WireApi::OpenAiCompletions],
        kind: Kind::ImageBytesAndFormat,
        limit: 20 * MIB,
        error: OPENAI_UNSUPPORTED_IMAGE,
        summary: "every image is below 20 MB (limit used: 20971520 bytes) and png, jpeg, gif or webp",
        reference: "OpenAI images and vision, https://platform.openai.com/docs/guides/images-vision; rejection: https://github.com/CosmosShadow/gptpdf/issues/6",
        fixed_by: Some("image-sanitize"),
    },
    Limit {
        id: "openai-chat-request-size",
        apis: &[WireApi::OpenAiCompletions],
        kind: Kind::RequestSize,
        limit: 50 * MIB,
        error: MEASURED_BODY,
        summary: "the request body is at most 50 MB (limit used: 52428800 bytes)",
        reference: "OpenAI images and vision, https://platform.openai.com/docs/guides/images-vision",
        fixed_by: None,
    },
    Limit {
        id: "openai-responses-image-size",
        apis: openai_responses::APIS,
        kind: Kind::ImageBytesAndFormat,
        limit: 20 * MIB,
        error: OPENAI_UNSUPPORTED_IMAGE,
        summary: "every input_image is below 20 MB (limit used: 20971520 bytes) and png, jpeg, gif or webp",
        reference: "OpenAI images and vision, https://platform.openai.com/docs/guides/images-vision; rejection: https://github.com/CosmosShadow/gptpdf/issues/6",
        fixed_by: Some("image-sanitize"),
    },
    Limit {
        id: "openai-responses-request-size",
        apis: openai_responses::APIS,
        kind: Kind::RequestSize,
        limit: 50 * MIB,
        error: MEASURED_BODY,
        summary: "the request body is at most 50 MB (limit used: 52428800 bytes)",
        reference: "OpenAI images and vision, https://platform.openai.com/docs/guides/images-vision",
        fixed_by: None,
    },
    Limit {
        id: "gemini-request-size",
        apis: google::APIS,
        kind: Kind::RequestSize,
        limit: 20 * MIB,
        error: MEASURED_BODY,
        summary: "the request body is at most 20 MB (limit used: 20971520 bytes)",
        reference: "Firebase AI Logic input files, https://firebase.google.com/docs/vertex-ai/input-file-requirements",
        fixed_by: None,
    },
    Limit {
        id: "bedrock-image-count",
        apis: &[WireApi::BedrockConverseStream],
        kind: Kind::ImageCount,
        limit: 20,
        error: MEASURED_IMAGE_COUNT,
        summary: "at most 20 images per request",
        reference: "Amazon Bedrock Converse Message, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html",
        fixed_by: None,
    },
    Limit {
        id: "bedrock-image-bytes",
        apis: &[WireApi::BedrockConverseStream],
        kind: Kind::ImageBytes,
        limit: 3_932_160,
        error: MEASURED_IMAGE_BYTES,
        summary: "every image is at most 3.75 MB (limit used: 3932160 bytes)",
        reference: "Amazon Bedrock Converse Message, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html",
        fixed_by: None,
    },
    Limit {
        id: "bedrock-image-pixels",
        apis: &[WireApi::BedrockConverseStream],
        kind: Kind::ImageSide,
        limit: 8000,
        error: MEASURED_IMAGE_SIDE,
        summary: "every image is at most 8000 px per side",
        reference: "Amazon Bedrock Converse Message, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html",
        fixed_by: Some("image-sanitize"),
    },
    Limit {
        id: "bedrock-request-size",
        apis: &[WireApi::BedrockConverseStream],
        kind: Kind::RequestSize,
        limit: 20 * MIB,
        error: MEASURED_BODY,
        summary: "the request body is at most 20 MB (InvokeModel's limit; limit used: 20971520 bytes)",
        reference: "Anthropic Claude on Amazon Bedrock, https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html",
        fixed_by: None,
    },
    Limit {
        id: "mistral-image-count",
        apis: &[WireApi::MistralConversations],
        kind: Kind::ImageCount,
        limit: 8,
        error: MEASURED_IMAGE_COUNT,
        summary: "at most 8 images per request",
        reference: "Mistral chat completions, https://docs.mistral.ai/api/#tag/chat; measured by https://github.com/badlogic/pi-mono/blob/main/packages/ai/test/image-limits.test.ts",
        fixed_by: None,
    },
    Limit {
        id: "mistral-image-bytes",
        apis: &[WireApi::MistralConversations],
        kind: Kind::ImageBytes,
        limit: 15 * MIB,
        error: MEASURED_IMAGE_BYTES,
        summary: "every image is at most about 15 MB (limit used: 15728640 bytes)",
        reference: "Mistral chat completions, https://docs.mistral.ai/api/#tag/chat; measured by https://github.com/badlogic/pi-mono/blob/main/packages/ai/test/image-limits.test.ts",
        fixed_by: Some("image-sanitize"),
    },
    Limit {
        id: "mistral-image-pixels",
        apis: &[WireApi::MistralConversations],
        kind: Kind::ImageSide,
        limit: 8000,
        error: MEASURED_IMAGE_SIDE,
        summary: "every image is at most 8000 px per side",
        reference: "Mistral chat completions, https://docs.mistral.ai/api/#tag/chat; measured by https://github.com/badlogic/pi-mono/blob/main/packages/ai/test/image-limits.test.ts",
        fixed_by: Some("image-sanitize"),
    },
    Limit {
        id: "mistral-request-size",
        apis: &[WireApi::MistralConversations],
        kind: Kind::RequestSize,
        limit: 40 * MIB,
        error: MEASURED_BODY,
        summary: "the request body is at most about 40 MB (limit used: 41943040 bytes)",
        reference: "Mistral chat completions, https://docs.mistral.ai/api/#tag/chat; measured by https://github.com/badlogic/pi-mono/blob/main/packages/ai/test/image-limits.test.ts",
        fixed_by: None,
    },
];

/// The constraints of the table, in table order.
pub static CONSTRAINTS: LazyLock<Vec<Constraint>> = LazyLock::new(|| LIMITS.iter().map(Limit::constraint).collect());

impl Limit {
    /// The constraint this row makes: checked by its kind's check.
    fn constraint(&'static self) -> Constraint {
        Constraint {
            id: self.id,
            apis: self.apis,
            summary: self.summary,
            error: self.error,
            reference: self.reference,
            fixed_by: self.fixed_by,
            check: Check::Limit(self),
        }
    }
}

/// The row of `id`.
#[cfg(test)]
pub(crate) fn row(id: &str) -> &'static Limit {
    LIMITS.iter().find(|r| r.id == id).expect("a row of the limits table")
}

/// The [`Kind::ImageSide`] limit of the APIs of `row`, if the table has one.
pub(crate) fn side_limit_of(row: &Limit) -> Option<usize> {
    LIMITS
        .iter()
        .find(|r| r.kind == Kind::ImageSide && r.apis == row.apis)
        .map(|r| r.limit)
}
