//! Parsing one stored JSON document (a line, a row, a whole file) as OpenClaw's
//! `JSON.parse` reads it.
//!
//! serde_json stops at 128 levels of nesting; `JSON.parse` does not, so a valid line nested
//! deeper would otherwise be skipped where OpenClaw reads it. Documents up to
//! [`MAX_NESTING`] levels are parsed on a growable stack (serde_stacker); deeper ones are
//! reported, never silently dropped. Numbers keep their exact digits (serde_json's
//! `arbitrary_precision`; only an exponent's sign is spelled out, `1e400` → `1e+400`), so a
//! number beyond f64, which `JSON.parse` reads as `Infinity`, survives load → replay →
//! export instead of failing the line.

use crate::model::json::Value;
use serde::Deserialize;

/// The deepest nesting of arrays and objects replaylens reads. Every view, export and
/// rule walks values recursively, so the cap keeps them all on the stack with room to spare.
pub const MAX_NESTING: usize = 1000;

/// Why a stored document could not be read.
#[derive(Debug, thiserror::Error)]
pub enum JsonError {
    /// Not valid JSON.
    #[error("{0}")]
    Syntax(#[from] serde_json::Error),
    /// Valid JSON, nested deeper than [`MAX_NESTING`].
    #[error("nested {depth} levels deep, more than the {MAX_NESTING} levels replaylens reads (OpenClaw reads it)")]
    TooDeep {
        /// The document's deepest nesting.
        depth: usize,
    },
}

impl JsonError {
    /// The 1-based line of a syntax error within the document (0 when unknown).
    pub fn line(&self) -> usize {
        match self {
            Self::Syntax(e) => e.line(),
            Self::TooDeep { .. } => 0,
        }
    }

    /// The 1-based column of a syntax error within its line (0 when unknown).
    pub fn column(&self) -> usize {
        match self {
            Self::Syntax(e) => e.column(),
            Self::TooDeep { .. } => 0,
        }
    }
}

/// Parse one JSON document into a value, as `JSON.parse` would accept it.
pub fn parse_value(bytes: &[u8]) -> Result<Value, JsonError> {
    match serde_json::from_slice(bytes) {
        Ok(value) => Ok(value),
        Err(e) if is_recursion_limit(&e) => parse_deep(bytes),
        Err(e) => Err(e.into()),
    }
}

/// Whether the document is valid JSON at any depth, without building a value.
pub fn is_valid_json(bytes: &[u8]) -> bool {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    serde::de::IgnoredAny::deserialize(serde_stacker::Deserializer::new(&mut de)).is_ok() && de.end().is_ok()
}

/// Whether serde_json gave up because of its recursion limit.
fn is_recursion_limit(e: &serde_json::Error) -> bool {
    e.to_string().starts_with("recursion limit exceeded")
}

/// The slow path for documents nested deeper than serde_json's default limit.
fn parse_deep(bytes: &[u8]) -> Result<Value, JsonError> {
    let depth = nesting_depth(bytes);
    if depth > MAX_NESTING {
        return Err(JsonError::TooDeep { depth });
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    let value = Value::deserialize(serde_stacker::Deserializer::new(&mut de))?;
    de.end()?;
    Ok(value)
}

/// The deepest nesting of `[` and `{` outside strings, in one linear scan.
fn nesting_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &b in bytes {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> String {
        format!(r#"{{"a":{}1{}}}"#, "[".repeat(depth - 1), "]".repeat(depth - 1))
    }

    #[test]
    fn shallow_documents_take_the_fast_path() {
        let v = parse_value(br#"{"a":[1,{"b":"[{"}]}"#).unwrap();
        assert_eq!(v["a"][1]["b"], "[{");
    }

    #[test]
    fn nesting_beyond_serde_jsons_limit_is_read() {
        let text = nested(130);
        assert!(serde_json::from_str::<Value>(&text).is_err(), "serde_json's own limit");
        let v = parse_value(text.as_bytes()).unwrap();
        assert_eq!(nesting_depth(text.as_bytes()), 130);
        assert_eq!(serde_json::to_string(&v).unwrap(), text);
    }

    #[test]
    fn nesting_up_to_the_cap_is_read_and_beyond_it_reported() {
        assert!(parse_value(nested(MAX_NESTING).as_bytes()).is_ok());
        let err = parse_value(nested(MAX_NESTING + 5).as_bytes()).unwrap_err();
        assert!(matches!(err, JsonError::TooDeep { depth } if depth == MAX_NESTING + 5));
        assert!(err.to_string().contains("1005 levels deep"), "{err}");
    }

    #[test]
    fn validity_is_checked_at_any_depth() {
        assert!(is_valid_json(nested(50_000).as_bytes()));
        assert!(!is_valid_json(nested(50_000).trim_end_matches('}').as_bytes()));
    }

    #[test]
    fn brackets_inside_strings_do_not_count() {
        assert_eq!(nesting_depth(br#"{"a":"[[[[\"{{{"}"#), 1);
    }

    #[test]
    fn numbers_beyond_f64_keep_their_digits() {
        let text = r#"{"t":1e400,"u":-1e-400,"big":123456789012345678901234567890,"f":1.50}"#;
        let v = parse_value(text.as_bytes()).unwrap();
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            r#"{"t":1e+400,"u":-1e-400,"big":123456789012345678901234567890,"f":1.50}"#
        );
    }

    #[test]
    fn invalid_json_keeps_its_position() {
        let err = parse_value(b"{\"a\":\n 1,}").unwrap_err();
        assert_eq!((err.line(), err.column() > 0), (2, true));
    }
}
