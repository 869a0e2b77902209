//! JSON numbers, kept as the exact text that was stored.

use std::fmt;

use ecow::EcoString;

/// A JSON number, kept as its text (as serde_json's `arbitrary_precision` reads it), so that
/// `1.50`, `1e+400` and 20-digit integers survive load → replay → export unchanged. Texts up
/// to 15 bytes (almost every number) are stored inline, without an allocation.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Number(EcoString);

impl Number {
    /// A number from text that is known to be a valid JSON number.
    #[cfg(test)]
    fn from_text(text: impl Into<EcoString>) -> Self {
        Self(text.into())
    }

    /// The number as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The number as an `i64`, when it is an integer in range.
    pub fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    /// The number as a `u64`, when it is a non-negative integer in range.
    pub fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }

    /// The number as a finite `f64`.
    pub fn as_f64(&self) -> Option<f64> {
        self.0.parse::<f64>().ok().filter(|f| f.is_finite())
    }

    /// Whether [`Number::as_i64`] gives a value.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether [`Number::as_u64`] gives a value.
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// Whether the number is written as a float (a fraction or an exponent) within f64 range.
    pub fn is_f64(&self) -> bool {
        self.0.contains(['.', 'e', 'E']) && self.as_f64().is_some()
    }

    /// A finite `f64` as serde_json writes it; `None` for NaN and the infinities.
    pub fn from_f64(f: f64) -> Option<Self> {
        serde_json::Number::from_f64(f).map(Self::from)
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({})", self.0)
    }
}

impl From<serde_json::Number> for Number {
    fn from(n: serde_json::Number) -> Self {
        Self(n.as_str().into())
    }
}

impl From<&Number> for serde_json::Number {
    fn from(n: &Number) -> Self {
        n.0.parse().expect("a stored number is valid JSON")
    }
}

macro_rules! from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Number {
            fn from(n: $t) -> Self {
                Self(EcoString::from(itoa::Buffer::new().format(n)))
            }
        }
    )*};
}

from_integer!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_integers_and_floats_as_serde_json_does() {
        let n = Number::from_text("42");
        assert_eq!((n.as_i64(), n.as_u64(), n.as_f64()), (Some(42), Some(42), Some(42.0)));
        assert!(n.is_u64() && n.is_i64() && !n.is_f64());
        let f = Number::from_text("1.50");
        assert_eq!((f.as_i64(), f.as_f64(), f.as_str()), (None, Some(1.5), "1.50"));
        assert!(f.is_f64());
        let huge = Number::from_text("1e+400");
        assert_eq!((huge.as_f64(), huge.is_f64()), (None, false));
        assert_eq!(Number::from(-7i64).as_str(), "-7");
        assert_eq!(
            Number::from_f64(0.1).unwrap().as_str(),
            serde_json::Number::from_f64(0.1).unwrap().to_string()
        );
        assert!(Number::from_f64(f64::NAN).is_none());
    }
}
