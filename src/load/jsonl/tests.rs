//! Tests of the JSONL builder and its line batches.

use std::path::Path;

use super::lines::BATCH_LINES;
use super::load_jsonl;
use crate::load::limits::Limits;
use crate::model::Location;

/// Lines parsed across cores reach the session in file order, over several batches,
/// with every skipped line reported at its own number.
#[test]
fn batches_keep_the_order_of_entries_and_diagnostics() {
    let bad = [
        2usize,
        BATCH_LINES,
        BATCH_LINES + 1,
        2 * BATCH_LINES + 7,
        3 * BATCH_LINES,
    ];
    let lines = 3 * BATCH_LINES + 10;
    let mut text = String::from("{\"type\":\"session\",\"version\":3,\"id\":\"s\"}\n");
    for n in 2..=lines {
        if bad.contains(&n) {
            text.push_str("{not json\n");
        } else {
            let parent = if n == 3 {
                "null".to_owned()
            } else {
                format!("\"e{}\"", n - 1)
            };
            text.push_str(&format!(
                "{{\"type\":\"message\",\"id\":\"e{n}\",\"parentId\":{parent},\"message\":{{\"role\":\"user\",\"content\":\"{n}\"}}}}\n"
            ));
        }
    }
    let session = load_jsonl(Path::new("s.jsonl"), text.as_bytes(), &Limits::default()).unwrap();
    let ids: Vec<usize> = session
        .entries
        .iter()
        .map(|e| e.id.as_deref().unwrap()[1..].parse().unwrap())
        .collect();
    let expected: Vec<usize> = (2..=lines).filter(|n| !bad.contains(n)).collect();
    assert_eq!(ids, expected);
    let skipped: Vec<Location> = session.diagnostics.iter().filter_map(|d| d.location).collect();
    assert_eq!(skipped, bad.iter().map(|&n| Location::Line(n)).collect::<Vec<_>>());
}
