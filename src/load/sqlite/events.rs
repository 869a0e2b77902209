//! Reading a session's `transcript_events` rows without trusting their column types: a row
//! whose `seq`, `event_json` or `event_zstd` holds a value of the wrong type is read when it
//! can be (with a note or warning) and skipped with a report when it cannot, and the report
//! names the database, the session and the row (its seq, or its rowid when seq is not an
//! integer); one bad row never makes its session unreadable.

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

use rusqlite::types::{Value as SqlValue, ValueRef};
use rusqlite::{Connection, Row, params};

use super::Schema;
use crate::load::error::LoadError;
use crate::load::json_parse::parse_value;
use crate::load::jsonl::Builder;
use crate::model::{Diagnostic, Location, Severity};

/// Largest decoded event accepted from one `event_zstd` row (OpenClaw compresses ≤ 4 MiB).
const MAX_EVENT_BYTES: usize = 256 * 1024 * 1024;

/// The payload columns of one row, owned (for rows read out of `seq` order).
struct Payload {
    json: SqlValue,
    zstd: SqlValue,
    declared: SqlValue,
}

impl Payload {
    fn of(row: &Row<'_>) -> rusqlite::Result<Self> {
        Ok(Self {
            json: row.get_ref(2)?.into(),
            zstd: row.get_ref(3)?.into(),
            declared: row.get_ref(4)?.into(),
        })
    }
}

/// A row whose `seq` is not stored as an integer, read before the others.
struct OddRow {
    /// The integer its seq stands for (`'7'`, `7.0`), or `None` (then it is read last).
    seq: Option<i64>,
    loc: Location,
    /// Why its seq is odd, and how it was read.
    report: Diagnostic,
    payload: Payload,
}

/// Read the session's rows in `seq` order into `builder`. Rows whose seq is an integer stored
/// as text or as a real number take their place by that integer (after an integer seq equal
/// to it); rows whose seq is no integer at all follow every numbered row, in rowid order.
pub(super) fn read_events(
    conn: &Connection,
    schema: &Schema,
    path: &Path,
    session_id: &str,
    builder: &mut Builder<'_>,
) -> Result<(), LoadError> {
    let sql = |e| LoadError::sqlite(path, e);
    let col = |name: &'static str| {
        if schema.event_columns.contains(name) {
            name
        } else {
            "NULL"
        }
    };
    let (rowid, by_rowid) = if schema.events_have_rowid {
        ("rowid", "rowid")
    } else {
        ("NULL", "seq")
    };
    let select = format!(
        "SELECT seq, {rowid}, {}, {}, {} FROM transcript_events WHERE session_id = ?1",
        col("event_json"),
        col("event_zstd"),
        col("event_utf8_bytes")
    );
    let mut odd = Vec::new();
    {
        let q = format!("{select} AND typeof(seq) <> 'integer' ORDER BY {by_rowid}");
        let mut stmt = conn.prepare(&q).map_err(sql)?;
        let mut rows = stmt.query(params![session_id]).map_err(sql)?;
        while let Some(row) = rows.next().map_err(sql)? {
            let place = match row.get_ref(1).map_err(sql)? {
                ValueRef::Integer(rowid) => Location::Rowid(rowid),
                _ => Location::Index(odd.len()),
            };
            let (seq, payload) = (row.get_ref(0).map_err(sql)?, Payload::of(row).map_err(sql)?);
            odd.push(odd_row(path, session_id, seq, place, payload));
        }
    }
    // Numbered odd rows in seq order (stable: equal seqs keep rowid order), then the rest.
    odd.sort_by_key(|r| (r.seq.is_none(), r.seq));
    let mut odd = odd.into_iter().peekable();
    let q = format!("{select} AND typeof(seq) = 'integer' ORDER BY seq");
    let mut stmt = conn.prepare(&q).map_err(sql)?;
    let mut rows = stmt.query(params![session_id]).map_err(sql)?;
    while let Some(row) = rows.next().map_err(sql)? {
        let seq = row.get_ref(0).map_err(sql)?.as_i64().map_err(|e| sql(e.into()))?;
        while let Some(r) = odd.next_if(|r| r.seq.is_some_and(|s| s < seq)) {
            push_odd(builder, path, session_id, r);
        }
        let (json, zstd, declared) = (
            row.get_ref(2).map_err(sql)?,
            row.get_ref(3).map_err(sql)?,
            row.get_ref(4).map_err(sql)?,
        );
        push_row(builder, path, session_id, Location::Seq(seq), json, zstd, declared);
    }
    for r in odd {
        push_odd(builder, path, session_id, r);
    }
    Ok(())
}

/// Classify a row whose seq is not an integer value.
/// `place` is the row's rowid, or, in a table without rowids, its index among the session's
/// rows whose seq is not an integer.
fn odd_row(path: &Path, session_id: &str, seq: ValueRef<'_>, place: Location, payload: Payload) -> OddRow {
    let number = match seq {
        ValueRef::Text(t) => std::str::from_utf8(t).ok().and_then(|t| t.parse::<i64>().ok()),
        ValueRef::Real(r) if r.fract() == 0.0 && r >= i64::MIN as f64 && r < i64::MAX as f64 => Some(r as i64),
        _ => None,
    };
    let shown = shown(seq);
    match number {
        Some(n) => OddRow {
            seq: Some(n),
            loc: Location::Seq(n),
            report: Diagnostic::note(
                path,
                Some(Location::Seq(n)),
                format!(
                    "seq is stored as {} ({shown}), not as an integer; the row of session {session_id} is read as seq {n}",
                    kind(seq)
                ),
            ),
            payload,
        },
        None => {
            let order = match place {
                Location::Rowid(_) => "in rowid order",
                _ => "in the table's order (it has no rowid)",
            };
            OddRow {
                seq: None,
                loc: place,
                report: Diagnostic::warning(
                    path,
                    Some(place),
                    format!(
                        "seq is {} ({shown}), not an integer; the row of session {session_id} is read after its numbered rows, {order}",
                        kind(seq)
                    ),
                ),
                payload,
            }
        }
    }
}

fn push_odd(builder: &mut Builder<'_>, path: &Path, session_id: &str, r: OddRow) {
    builder.push_diagnostic(r.report);
    let p = &r.payload;
    push_row(
        builder,
        path,
        session_id,
        r.loc,
        (&p.json).into(),
        (&p.zstd).into(),
        (&p.declared).into(),
    );
}

/// Read one row's event into `builder`, or report why it cannot be read.
fn push_row(
    builder: &mut Builder<'_>,
    path: &Path,
    session_id: &str,
    loc: Location,
    json: ValueRef<'_>,
    zstd: ValueRef<'_>,
    declared: ValueRef<'_>,
) {
    let report = |builder: &mut Builder<'_>, severity: Severity, what: String| {
        builder.push_diagnostic(Diagnostic {
            file: path.to_owned(),
            location: Some(loc),
            severity,
            message: format!("{what} (session {session_id})"),
        });
    };
    use Severity::{Note, Skipped, Warning};
    let text: Cow<'_, str> = match json {
        ValueRef::Text(b) if !b.is_empty() => match std::str::from_utf8(b) {
            Ok(t) => Cow::Borrowed(t),
            Err(_) => {
                report(
                    builder,
                    Warning,
                    "event_json is not valid UTF-8; read with U+FFFD".to_owned(),
                );
                String::from_utf8_lossy(b)
            }
        },
        ValueRef::Blob(b) if !b.is_empty() => match std::str::from_utf8(b) {
            Ok(t) => {
                report(
                    builder,
                    Note,
                    "event_json is a BLOB, not text; its bytes are UTF-8 and read as the event".to_owned(),
                );
                Cow::Borrowed(t)
            }
            Err(_) => {
                report(
                    builder,
                    Skipped,
                    "event_json is a BLOB that is not valid UTF-8".to_owned(),
                );
                return;
            }
        },
        ValueRef::Integer(_) | ValueRef::Real(_) => {
            report(
                builder,
                Skipped,
                format!("event_json is {} ({}), not text", kind(json), shown(json)),
            );
            return;
        }
        _ => {
            let bytes = match zstd {
                ValueRef::Blob(b) => b,
                ValueRef::Null => {
                    report(
                        builder,
                        Skipped,
                        "the row has neither event_json nor event_zstd".to_owned(),
                    );
                    return;
                }
                other => {
                    report(builder, Skipped, format!("event_zstd is {}, not a BLOB", kind(other)));
                    return;
                }
            };
            let declared = match declared {
                ValueRef::Integer(n) => Some(n),
                ValueRef::Null => None,
                other => {
                    report(
                        builder,
                        Warning,
                        format!("event_utf8_bytes is {}, not an integer; ignored", kind(other)),
                    );
                    None
                }
            };
            match decode_zstd(bytes, declared) {
                Ok((text, w)) => {
                    if let Some(w) = w {
                        report(builder, Warning, w);
                    }
                    Cow::Owned(text)
                }
                Err(reason) => {
                    report(builder, Skipped, format!("event_zstd cannot be decoded: {reason}"));
                    return;
                }
            }
        }
    };
    match parse_value(text.as_bytes()) {
        Ok(v) if v.is_object() => builder.push_value(loc, v),
        Ok(_) => report(builder, Skipped, "the event is not a JSON object".to_owned()),
        Err(e) => report(builder, Skipped, format!("the event is not valid JSON ({e})")),
    }
}

/// The storage class of a value, as a phrase.
fn kind(v: ValueRef<'_>) -> &'static str {
    match v {
        ValueRef::Null => "NULL",
        ValueRef::Integer(_) => "an integer",
        ValueRef::Real(_) => "a real number",
        ValueRef::Text(_) => "text",
        ValueRef::Blob(_) => "a BLOB",
    }
}

/// A short rendering of a value for a report (text quoted and cut to 40 characters).
fn shown(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Null => "NULL".to_owned(),
        ValueRef::Integer(n) => n.to_string(),
        ValueRef::Real(r) => format!("{r:?}"),
        ValueRef::Text(t) => {
            let t = String::from_utf8_lossy(t);
            let cut: String = t.chars().take(40).collect();
            let more = if cut.len() < t.len() { "…" } else { "" };
            format!("'{}{more}'", crate::text::escape_controls_single_line(&cut))
        }
        ValueRef::Blob(b) => format!("{} bytes", b.len()),
    }
}

/// Why a blob that decodes to `size` bytes (or more) is refused.
fn too_large(blob: &[u8], size: u64) -> String {
    if size > MAX_EVENT_BYTES as u64 {
        format!("the decoded event exceeds {MAX_EVENT_BYTES} bytes")
    } else {
        format!(
            "{} compressed bytes decode to more than {} times their size; refused as a decompression bomb",
            blob.len(),
            crate::load::limits::MAX_EXPANSION
        )
    }
}

/// Decode one `event_zstd` blob, checking `event_utf8_bytes`: the event text and a warning when
/// the declared size differs, or why it cannot be decoded (the fuzz target `sqlite_payload`
/// calls it directly).
pub fn decode_zstd(blob: &[u8], declared: Option<i64>) -> Result<(String, Option<String>), String> {
    // What the blob may become: the event limit, and past 32 MiB no more than a thousand times
    // its size, as for a compressed file (a 70 KB row cannot make a load hold 256 MiB first).
    let most = (blob.len() as u64)
        .saturating_mul(crate::load::limits::MAX_EXPANSION)
        .max(crate::load::limits::EXPANSION_JUDGED_AFTER)
        .min(MAX_EVENT_BYTES as u64);
    // The frame header says its decoded size when the writer knew it: refused before decoding.
    if let Ok(Some(size)) = zstd::zstd_safe::get_frame_content_size(blob)
        && size > most
    {
        return Err(too_large(blob, size));
    }
    let cap = declared
        .and_then(|d| u64::try_from(d).ok())
        .filter(|d| *d <= most)
        .and_then(|d| usize::try_from(d).ok());
    let bytes = match cap.map(|c| zstd::bulk::decompress(blob, c.max(1))) {
        Some(Ok(bytes)) => bytes,
        _ => {
            let mut out = Vec::new();
            let decoder = zstd::Decoder::new(blob).map_err(|e| e.to_string())?;
            decoder
                .take(most + 1)
                .read_to_end(&mut out)
                .map_err(|e| e.to_string())?;
            if out.len() as u64 > most {
                return Err(too_large(blob, out.len() as u64));
            }
            out
        }
    };
    let warning = match declared {
        Some(d) if d != bytes.len() as i64 => Some(format!(
            "event_utf8_bytes says {d} but the event decodes to {} bytes",
            bytes.len()
        )),
        _ => None,
    };
    let text = String::from_utf8(bytes).map_err(|_| "the decoded event is not UTF-8".to_owned())?;
    Ok((text, warning))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_refused_before_it_decodes_past_its_limit() {
        // 256 MiB and a byte of zeros: the frame says its size, refused without decoding.
        let huge = zstd::bulk::compress(&vec![0u8; MAX_EVENT_BYTES + 1], 19).unwrap();
        assert!(zstd::zstd_safe::get_frame_content_size(&huge).unwrap().is_some());
        let err = decode_zstd(&huge, None).unwrap_err();
        assert!(err.contains("exceeds"), "{err}");
        // 64 MiB streamed (no size in the frame) from a few KB: stopped at a thousand times the
        // blob (or 32 MiB), not at 256 MiB.
        let mut enc = zstd::Encoder::new(Vec::new(), 19).unwrap();
        std::io::Write::write_all(&mut enc, &vec![b'a'; 64 << 20]).unwrap();
        let streamed = enc.finish().unwrap();
        assert!(streamed.len() < 32 << 10, "{}", streamed.len());
        let err = decode_zstd(&streamed, Some(64 << 20)).unwrap_err();
        assert!(err.contains("decompression bomb"), "{err}");
        // An ordinary event decodes.
        let event = br#"{"type":"message"}"#;
        let (text, warning) = decode_zstd(&zstd::bulk::compress(event, 3).unwrap(), Some(18)).unwrap();
        assert_eq!((text.as_bytes(), warning), (&event[..], None));
    }
}
