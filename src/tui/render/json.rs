//! Raw JSON of a message: long values folded, pretty printed, highlighted with syntect
//! (only the lines on screen are highlighted).

use std::sync::OnceLock;

use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use replaylens::model::json::Value;
use replaylens::text::escape_controls_single_line;
use syntect::easy::HighlightLines;
use syntect::highlighting::{Theme as SyntaxTheme, ThemeSet};
use syntect::parsing::SyntaxSet;

/// How values are cut before they reach the screen, so that a 2 MB image does not become a
/// 2 MB line.
pub struct Fold {
    /// Strings longer than this many characters are cut.
    pub max_string: usize,
    /// Arrays longer than this keep this many elements and one that counts the rest.
    pub max_items: usize,
    /// The cut form of a long string (given its length in characters).
    pub cut: fn(&str, usize) -> String,
}

/// The payload pane's cut: the first 160 characters, then how many were folded; 40 elements.
pub const PAYLOAD: Fold = Fold {
    max_string: 160,
    max_items: 40,
    cut: |s, n| {
        let head: String = s.chars().take(160).collect();
        format!("{head}… ({n} chars folded)")
    },
};

/// `value` cut as the payload pane shows it.
pub fn fold(value: &Value) -> Value {
    fold_with(value, &PAYLOAD)
}

/// `value` cut by `f`, copying only what is shown (a 50 MB message costs its folded size,
/// not a copy of itself).
pub fn fold_with(value: &Value, f: &Fold) -> Value {
    match value {
        Value::String(s) if s.len() > f.max_string && s.chars().count() > f.max_string => {
            Value::String((f.cut)(s, s.chars().count()).into())
        }
        Value::Array(items) if items.len() > f.max_items => {
            let mut v: Vec<Value> = items.iter().take(f.max_items).map(|i| fold_with(i, f)).collect();
            v.push(Value::String(
                format!("… {} more items", items.len() - f.max_items).into(),
            ));
            Value::Array(v.into())
        }
        Value::Array(items) => Value::Array(items.iter().map(|i| fold_with(i, f)).collect()),
        Value::Object(map) => fold_map_with(map, f),
        other => other.clone(),
    }
}

/// An object's values cut by `f`.
pub fn fold_map_with(map: &replaylens::model::json::Map, f: &Fold) -> Value {
    Value::Object(map.iter().map(|(k, v)| (*k, fold_with(v, f))).collect())
}

/// Pretty-printed lines of an already folded value (control characters are escaped by JSON
/// itself).
pub fn pretty_folded(folded: &Value) -> Vec<String> {
    serde_json::to_string_pretty(folded)
        .unwrap_or_default()
        .lines()
        .map(|l| escape_controls_single_line(l).into_owned())
        .collect()
}

/// Load the syntax definitions and themes on a background thread, so the first frame that
/// highlights JSON does not wait for them.
pub fn preload() {
    std::thread::spawn(|| {
        syntaxes();
        themes();
    });
}

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

fn themes() -> &'static ThemeSet {
    static SET: OnceLock<ThemeSet> = OnceLock::new();
    SET.get_or_init(ThemeSet::load_defaults)
}

/// A syntect theme by name, if it exists.
pub fn syntax_theme(name: Option<&str>) -> Option<&'static SyntaxTheme> {
    name.and_then(|n| themes().themes.get(n))
}

/// Highlight one line of pretty JSON (each line parses on its own); plain without a theme.
pub fn highlight(line: &str, theme: Option<&SyntaxTheme>, plain: Style) -> Line<'static> {
    crate::tui::wrap::separate_skin_tones(highlight_spans(line, theme, plain))
}

fn highlight_spans(line: &str, theme: Option<&SyntaxTheme>, plain: Style) -> Line<'static> {
    let Some(theme) = theme else {
        return Line::from(Span::styled(line.to_owned(), plain));
    };
    let set = syntaxes();
    let Some(syntax) = set.find_syntax_by_extension("json") else {
        return Line::from(Span::styled(line.to_owned(), plain));
    };
    let mut h = HighlightLines::new(syntax, theme);
    match h.highlight_line(line, set) {
        Ok(ranges) => Line::from(
            ranges
                .into_iter()
                .map(|(style, text)| {
                    let c = style.foreground;
                    Span::styled(text.to_owned(), plain.fg(Color::Rgb(c.r, c.g, c.b)))
                })
                .collect::<Vec<_>>(),
        ),
        Err(_) => Line::from(Span::styled(line.to_owned(), plain)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use replaylens::json;

    #[test]
    fn folds_long_values_and_escapes_controls() {
        let long = "x".repeat(500);
        let lines = pretty_folded(&fold(&json!({"data": long, "t": "\u{1b}[2J\u{9b}"})));
        assert!(lines.iter().any(|l| l.contains("(500 chars folded)")));
        assert!(lines.iter().all(|l| !l.contains('\u{1b}') && !l.contains('\u{9b}')));
        let styled = highlight("  \"a\": 1", syntax_theme(Some("base16-ocean.dark")), Style::new());
        assert!(styled.spans.len() > 1);
    }
}
