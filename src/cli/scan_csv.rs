//! `scan --format csv`: one row per session, every cell made safe for a spreadsheet. A cell
//! that starts like a formula once leading whitespace is trimmed and fullwidth forms are folded
//! gets a leading `'`; a cell holding `;` (the list separator of many locales), a comma, a quote
//! or a line break is quoted, so no locale splits it into a formula of its own.

use std::borrow::Cow;
use std::io::Write;

/// The first character of `cell` a spreadsheet reads once it skips leading whitespace (any
/// Unicode white space: spaces, NBSP, tabs, line breaks), fullwidth and small forms folded to
/// ASCII (`＝` is `=`).
fn formula_starter(cell: &str) -> Option<char> {
    let c = cell.chars().find(|c| !c.is_whitespace())?;
    Some(match c {
        '\u{ff1d}' | '\u{fe66}' => '=',
        '\u{ff0b}' | '\u{fe62}' => '+',
        '\u{ff0d}' | '\u{fe63}' | '\u{2212}' => '-',
        '\u{ff20}' | '\u{fe6b}' => '@',
        c => c,
    })
}

/// A cell a spreadsheet will not run: text that starts like a formula (`=`, `+`, `-`, `@`, after
/// leading white space, fullwidth forms folded), or with a tab or a carriage return, gets a
/// leading `'`, as OWASP recommends for CSV; a session id `=HYPERLINK(…)` stays text when the
/// scan is opened in a spreadsheet.
pub fn spreadsheet_safe(cell: &str) -> Cow<'_, str> {
    let starts_blank = cell.starts_with(['\t', '\r']);
    match formula_starter(cell) {
        Some('=' | '+' | '-' | '@') => format!("'{cell}").into(),
        _ if starts_blank => format!("'{cell}").into(),
        _ => cell.into(),
    }
}

/// `cell` as one CSV field: quoted (quotes doubled) when it holds a comma, `;`, a quote or a
/// line break, or starts or ends with white space; as it is otherwise.
pub fn field(cell: &str) -> Cow<'_, str> {
    let needs = cell.contains([',', ';', '"', '\n', '\r'])
        || cell.starts_with(char::is_whitespace)
        || cell.ends_with(char::is_whitespace);
    if needs {
        format!("\"{}\"", cell.replace('"', "\"\"")).into()
    } else {
        cell.into()
    }
}

/// Write one record: every cell made [`spreadsheet_safe`], then quoted as a [`field`].
pub fn write_record<W: Write, S: AsRef<str>>(out: &mut W, cells: &[S]) -> std::io::Result<()> {
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(field(&spreadsheet_safe(cell.as_ref())).as_bytes())?;
    }
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(cells: &[&str]) -> String {
        let mut out = Vec::new();
        write_record(&mut out, cells).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn formula_starters_are_neutralized_after_white_space_and_fullwidth_folding() {
        for cell in [
            "=1+2",
            " =1+2",
            "\u{a0}=1+2",
            "\n=1+2",
            "\u{3000}@SUM(A1)",
            "\u{ff1d}1+2",
            "\u{ff0b}1",
            "\u{ff0d}1",
            "\u{ff20}SUM(A1)",
            " \u{ff1d}HYPERLINK(\"x\")",
            "\t1",
            "\r1",
        ] {
            assert!(spreadsheet_safe(cell).starts_with('\''), "{cell:?}");
        }
        for cell in ["plain", "1", "a=b", "", "   ", "'quoted"] {
            assert_eq!(spreadsheet_safe(cell), cell);
        }
    }

    #[test]
    fn cells_holding_or_starting_with_a_semicolon_are_quoted() {
        assert_eq!(record(&[";=1+2", "a;b", "plain"]), "\";=1+2\",\"a;b\",plain\n");
        assert_eq!(record(&["say \"hi\", bye"]), "\"say \"\"hi\"\", bye\"\n");
        assert_eq!(record(&[" =1"]), "' =1\n");
        let text = record(&[";=1", "x\ny", "\u{a0}=2", "k=1;m=2"]);
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes());
        let row = reader.records().next().unwrap().unwrap();
        assert_eq!(row.iter().collect::<Vec<_>>(), [";=1", "x\ny", "'\u{a0}=2", "k=1;m=2"]);
    }
}
