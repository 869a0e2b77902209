//! `canonicalizeBase64` of `@openclaw/ai` (2026.9.6), which the Anthropic and Responses
//! transports run on inline images and the Bedrock plugin on every byte payload: whitespace
//! and control characters (code units ≤ 32) removed, the alphabet, padding and pad bits
//! checked, missing padding added.

/// The canonical form of `text`; `None` when it is not valid standard base64 (the media
/// layer's port, [`crate::openclaw::image::ops::canonical_base64`]).
pub(crate) fn canonicalize_base64(text: &str) -> Option<String> {
    crate::openclaw::image::ops::canonical_base64(text).map(std::borrow::Cow::into_owned)
}

/// The value of a character of the standard base64 alphabet.
pub(crate) fn base64_value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_base64_like_openclaw() {
        assert_eq!(canonicalize_base64("QUJD").as_deref(), Some("QUJD"));
        assert_eq!(canonicalize_base64(" QU\nJD ").as_deref(), Some("QUJD"));
        assert_eq!(canonicalize_base64("iVBO Rw0K\nGgo=").as_deref(), Some("iVBORw0KGgo="));
        assert_eq!(canonicalize_base64("QUI").as_deref(), Some("QUI="));
        assert_eq!(canonicalize_base64("QQ").as_deref(), Some("QQ=="));
        assert_eq!(canonicalize_base64("QUJ"), None, "non-zero pad bits");
        assert_eq!(canonicalize_base64("QR"), None, "non-zero pad bits");
        assert_eq!(canonicalize_base64("Q"), None);
        assert_eq!(canonicalize_base64("QU=I"), None);
        assert_eq!(canonicalize_base64("QQ=A"), None);
        assert_eq!(canonicalize_base64("QUI*"), None);
        assert_eq!(canonicalize_base64("a-b_"), None, "URL-safe alphabet is not canonical");
        assert_eq!(canonicalize_base64("QUJD\u{e9}"), None);
        assert_eq!(canonicalize_base64(""), None);
    }
}
