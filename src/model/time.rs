//! Timestamp conversions between ISO-8601 strings and Unix milliseconds.

use chrono::{DateTime, NaiveDateTime, SecondsFormat, Utc};

/// Parse an ISO-8601 timestamp as JavaScript's `Date.parse` would for the shapes seen in
/// transcripts (RFC 3339 with offset or `Z`; a bare date-time is taken as UTC).
pub fn iso_to_ms(text: &str) -> Option<f64> {
    if let Ok(dt) = DateTime::parse_from_rfc3339(text) {
        return Some(dt.timestamp_millis() as f64);
    }
    NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f")
        .ok()
        .map(|n| n.and_utc().timestamp_millis() as f64)
}

/// Format Unix milliseconds as an ISO-8601 UTC string with milliseconds.
pub fn ms_to_iso(ms: f64) -> Option<String> {
    if !ms.is_finite() {
        return None;
    }
    DateTime::<Utc>::from_timestamp_millis(ms as i64).map(|d| d.to_rfc3339_opts(SecondsFormat::Millis, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_timestamp_shapes_in_samples() {
        assert_eq!(iso_to_ms("2026-02-24T10:00:00Z"), Some(1_771_927_200_000.0));
        assert_eq!(iso_to_ms("2026-02-24T10:00:00.250Z"), Some(1_771_927_200_250.0));
        assert_eq!(iso_to_ms("2026-02-24T11:00:00+01:00"), Some(1_771_927_200_000.0));
        assert_eq!(iso_to_ms("2026-02-24T10:00:00"), Some(1_771_927_200_000.0));
        assert_eq!(iso_to_ms("yesterday"), None);
        assert_eq!(
            ms_to_iso(1_771_927_200_250.0).as_deref(),
            Some("2026-02-24T10:00:00.250Z")
        );
    }
}
