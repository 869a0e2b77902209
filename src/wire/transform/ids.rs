//! The tool-call id normalizers each transport hands its transform (`normalizeToolCallId`).
//! A normalizer only runs on tool calls of another model's turns (and on same-model turns
//! where the transport asks for it); results follow through the transform's id map.

use std::collections::HashMap;

use crate::model::Message;

/// A normalizer: `(id, source assistant message) → id`. Some keep state across calls.
pub type Normalizer<'a> = dyn FnMut(&str, &Message) -> String + 'a;

/// `s.replace(/[^a-zA-Z0-9_-]/g, "_")`: every UTF-16 unit outside the alphabet becomes `_`
/// (a character beyond the BMP becomes two).
pub(crate) fn replace_unsafe_id_chars(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            out.push(c);
        } else {
            out.extend(std::iter::repeat_n('_', c.len_utf16()));
        }
    }
    out
}

/// `normalizeAnthropicToolCallId`: ASCII word characters and dashes, at most 64. Google
/// (for `claude-*` / `gpt-oss-*` models) and Bedrock use the same rule.
pub fn anthropic(id: &str) -> String {
    truncate_utf16(&replace_unsafe_id_chars(id), 64)
}

/// The first `n` UTF-16 code units of `s` (`truncateUtf16Safe`: a surrogate pair is never split).
pub fn truncate_utf16(s: &str, n: usize) -> String {
    let mut units = 0;
    let mut out = String::new();
    for c in s.chars() {
        units += c.len_utf16();
        if units > n {
            break;
        }
        out.push(c);
    }
    out
}

/// `shortHash` of `@openclaw/ai` (two 32-bit multiplicative hashes over UTF-16 units, base 36).
pub fn short_hash(s: &str) -> String {
    let mut h1: u32 = 3_735_928_559;
    let mut h2: u32 = 1_103_547_991;
    for ch in s.encode_utf16() {
        let ch = u32::from(ch);
        h1 = (h1 ^ ch).wrapping_mul(2_654_435_761);
        h2 = (h2 ^ ch).wrapping_mul(1_597_334_677);
    }
    let a = (h1 ^ (h1 >> 16)).wrapping_mul(2_246_822_507) ^ (h2 ^ (h2 >> 13)).wrapping_mul(3_266_489_909);
    h1 = a;
    let b = (h2 ^ (h2 >> 16)).wrapping_mul(2_246_822_507) ^ (h1 ^ (h1 >> 13)).wrapping_mul(3_266_489_909);
    h2 = b;
    format!("{}{}", radix36(h2), radix36(h1))
}

fn radix36(mut n: u32) -> String {
    if n == 0 {
        return "0".to_owned();
    }
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    while n > 0 {
        out.push(digits[(n % 36) as usize]);
        n /= 36;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Mistral's tool-call id length.
const MISTRAL_ID_LEN: usize = 9;

/// `deriveMistralToolCallId`.
fn derive_mistral(id: &str, attempt: u32) -> String {
    let normalized: String = id.chars().filter(char::is_ascii_alphanumeric).collect();
    if attempt == 0 && normalized.len() == MISTRAL_ID_LEN {
        return normalized;
    }
    let base = if normalized.is_empty() { id } else { &normalized };
    let seed = if attempt == 0 {
        base.to_owned()
    } else {
        format!("{base}:{attempt}")
    };
    let mut hashed: String = short_hash(&seed).chars().filter(char::is_ascii_alphanumeric).collect();
    while hashed.len() < MISTRAL_ID_LEN {
        hashed.push('0');
    }
    hashed.truncate(MISTRAL_ID_LEN);
    hashed
}

/// `createMistralToolCallIdNormalizer`: nine alphanumerics, collision-free within a request.
pub fn mistral() -> impl FnMut(&str, &Message) -> String {
    let mut by_id: HashMap<String, String> = HashMap::new();
    let mut owner: HashMap<String, String> = HashMap::new();
    move |id, _| {
        if let Some(existing) = by_id.get(id) {
            return existing.clone();
        }
        let mut attempt = 0;
        loop {
            let candidate = derive_mistral(id, attempt);
            match owner.get(&candidate) {
                Some(o) if o != id => attempt += 1,
                _ => {
                    by_id.insert(id.to_owned(), candidate.clone());
                    owner.insert(candidate.clone(), id.to_owned());
                    return candidate;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_characters_become_underscores_per_utf16_unit() {
        assert_eq!(replace_unsafe_id_chars("a.b😀"), "a_b__");
    }

    #[test]
    fn anthropic_ids() {
        assert_eq!(anthropic("call_1|fc_2.x"), "call_1_fc_2_x");
        assert_eq!(anthropic(&"a".repeat(70)).len(), 64);
        assert_eq!(anthropic("é😀"), "___");
    }
}
