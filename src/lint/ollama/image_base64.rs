//! Every entry of a message's `images` is standard base64 (padded, `+/`, line breaks
//! ignored): Go's decoder of the `ImageData` byte slice stops at the first byte it cannot
//! read. A data URL (`data:image/png;base64,…`) fails at byte 4, a web address at byte 5.
//! OpenClaw's image sanitizer replaces an image it cannot decode by a note on replay.

use crate::lint::shape::{array, hit, provider_index};
use crate::lint::{Check, Constraint, Hit};
use crate::wire::{Payload, WireApi, WireModel};

/// Go's `base64.CorruptInputError` text; `{offset}` is the byte where decoding failed.
const ERROR: &str = "illegal base64 data at input byte {offset}";

/// The constraint.
pub static CONSTRAINT: Constraint = Constraint {
    id: "ollama-image-base64",
    apis: &[WireApi::Ollama],
    summary: "images are plain standard base64, without a data: prefix",
    error: ERROR,
    reference: "Ollama /api/chat, https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion",
    fixed_by: Some("image-sanitize"),
    check: Check::Code(check),
};

fn is_alphabet(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/'
}

fn is_newline(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

/// Where Go's `base64.StdEncoding.Decode` fails on `src`, quantum by quantum as its
/// `decodeQuantum` reads it; `None` when it decodes.
fn corrupt_at(src: &[u8]) -> Option<usize> {
    let len = src.len();
    let mut si = 0;
    while si < len {
        let mut j = 0;
        while j < 4 {
            if si == len {
                return (j > 0).then(|| si - j);
            }
            let c = src[si];
            si += 1;
            if is_alphabet(c) {
                j += 1;
                continue;
            }
            if is_newline(c) {
                continue;
            }
            if c != b'=' || j < 2 {
                return Some(si - 1);
            }
            if j == 2 {
                while si < len && is_newline(src[si]) {
                    si += 1;
                }
                if si == len {
                    return Some(len);
                }
                if src[si] != b'=' {
                    return Some(si - 1);
                }
                si += 1;
            }
            while si < len && is_newline(src[si]) {
                si += 1;
            }
            return (si < len).then_some(si);
        }
    }
    None
}

fn check(payload: &Payload, _model: &WireModel) -> Vec<Hit> {
    let mut hits = Vec::new();
    for (i, item) in payload.items.iter().enumerate() {
        let n = provider_index(payload, i);
        for (j, image) in array(&item.value, "images").iter().enumerate() {
            if let Some(offset) = image.as_str().and_then(|s| corrupt_at(s.as_bytes())) {
                let text = ERROR.replace("{offset}", &offset.to_string());
                hits.push(hit(i, format!("messages[{n}].images[{j}]"), text));
            }
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::lint::test_support::{run, texts};

    #[test]
    fn go_s_offsets() {
        assert_eq!(corrupt_at(b""), None);
        assert_eq!(corrupt_at(b"QUJD"), None);
        assert_eq!(corrupt_at(b"QUI=\nQUJD"), Some(5), "trailing data after padding");
        assert_eq!(corrupt_at(b"QQ=="), None);
        assert_eq!(corrupt_at(b"QU\r\nJD"), None);
        assert_eq!(corrupt_at(b"data:image/png;base64,QUJD"), Some(4));
        assert_eq!(corrupt_at(b"https://x/y.png"), Some(5));
        assert_eq!(
            corrupt_at(b"QUJ"),
            Some(0),
            "an unfinished quantum fails where it began"
        );
        assert_eq!(corrupt_at(b"QUJDQ"), Some(4));
        assert_eq!(corrupt_at(b"QQ="), Some(3), "not enough padding");
        assert_eq!(corrupt_at(b"Q==="), Some(1));
        assert_eq!(corrupt_at(b"QQ=A"), Some(2));
    }

    #[test]
    fn a_data_url_is_reported_at_its_image() {
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
        let bad = format!("data:image/png;base64,{png}");
        let hits = run(
            &CONSTRAINT,
            json!([{"role": "user", "content": "a", "images": [png, null]}, {"role": "tool", "content": "b", "images": [png, bad]}]),
        );
        assert_eq!(texts(&hits), ["illegal base64 data at input byte 4"]);
        assert_eq!(hits[0].path, "messages[2].images[1]");
        assert_eq!(hits[0].item, 1);
    }
}
