//! One check per kind of limit of the [limits table](super::limits): each takes its row and the
//! payload and fills the row's error template.

mod image_bytes;
mod image_count;
mod image_pixels;
mod request_size;

use std::fmt::Display;

use super::Hit;
use super::limits::{Kind, Limit};
use crate::wire::Payload;

/// Check a payload against one row of the table.
pub(crate) fn check(row: &Limit, payload: &Payload) -> Vec<Hit> {
    match row.kind {
        Kind::RequestSize => request_size::check(row, payload),
        Kind::ImageBytes => image_bytes::check(row, payload),
        Kind::ImageBytesAndFormat => image_bytes::check_with_format(row, payload),
        Kind::ImageSide => image_pixels::check(row, payload),
        Kind::ManyImagesSide { images } => image_pixels::check_many(row, images, payload),
        Kind::ImageCount => image_count::check(row, payload),
    }
}

/// `template` with each `{name}` of `values` replaced by its value, in one pass (other braces
/// stay as they are).
fn fill(template: &str, values: &[(&str, &dyn Display)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after
            .find('}')
            .and_then(|close| Some((close, values.iter().find(|(name, _)| *name == &after[..close])?.1)));
        match value {
            Some((close, value)) => {
                out.push_str(&value.to_string());
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_fill_their_placeholders_once() {
        let values: &[(&str, &dyn Display)] = &[("path", &"a{bytes}"), ("bytes", &7)];
        assert_eq!(fill("{path}: {bytes} {other}", values), "a{bytes}: 7 {other}");
        assert_eq!(fill("{bytes} bytes {", values), "7 bytes {");
    }
}
