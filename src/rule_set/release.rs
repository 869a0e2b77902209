//! OpenClaw release numbers (`2026.9.2`, `v2026.7.2-beta.4`) and their order.

use std::fmt;

/// A release number `YEAR.MONTH.PATCH`. A pre-release (`-beta.N`) is read as the release it
/// precedes belongs to: `2026.7.2-beta.4` falls in the range of 2026.7.x.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Release {
    /// The year.
    pub year: u16,
    /// The month.
    pub month: u16,
    /// The patch number within the month.
    pub patch: u16,
}

impl Release {
    /// A release from its three numbers.
    pub const fn new(year: u16, month: u16, patch: u16) -> Self {
        Self { year, month, patch }
    }

    /// Parse `2026.9.2`, `v2026.9.2`, `2026.9.2-beta.4` or `2026.9` (patch 0); `None` for
    /// anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
        let text = text.strip_prefix(['v', 'V']).unwrap_or(text);
        let core = text.split_once('-').map_or(text, |(core, _)| core);
        let parts: Vec<&str> = core.split('.').collect();
        let number = |p: &str| -> Option<u16> {
            (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
                .then(|| p.parse().ok())
                .flatten()
        };
        let (year, month, patch) = match parts[..] {
            [y, m] => (number(y)?, number(m)?, 0),
            [y, m, p] => (number(y)?, number(m)?, number(p)?),
            _ => return None,
        };
        ((2000..3000).contains(&year) && (1..=12).contains(&month)).then_some(Self { year, month, patch })
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.year, self.month, self.patch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_numbers_parse_and_order() {
        assert_eq!(Release::parse("2026.9.2"), Some(Release::new(2026, 9, 2)));
        assert_eq!(Release::parse("v2026.7.2-beta.4"), Some(Release::new(2026, 7, 2)));
        assert_eq!(Release::parse("2026.8"), Some(Release::new(2026, 8, 0)));
        assert_eq!(Release::parse(" 2026.10.1 "), Some(Release::new(2026, 10, 1)));
        for bad in [
            "newest",
            "2026",
            "2026.13.1",
            "2026.9.x",
            "2026.9.1.1",
            "",
            "1.2.3",
            "2026..1",
        ] {
            assert_eq!(Release::parse(bad), None, "{bad}");
        }
        assert!(Release::new(2026, 9, 10) > Release::new(2026, 9, 9));
        assert!(Release::new(2026, 10, 1) > Release::new(2026, 9, 35));
        assert_eq!(Release::new(2026, 9, 2).to_string(), "2026.9.2");
    }
}
