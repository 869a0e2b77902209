//! `sessions` and `scan` text tables fit the terminal (`COLUMNS`): the id and paths are cut in
//! the middle, a path goes under its row when the row has no room for it, and lists wrap;
//! piped output without `COLUMNS` is whole, and JSON never changes.

mod common;

use std::process::Command;

fn run(args: &[&str], columns: Option<&str>) -> String {
    let mut cmd = Command::new(common::bin());
    cmd.args(args).env_remove("COLUMNS");
    if let Some(c) = columns {
        cmd.env("COLUMNS", c);
    }
    let out = cmd.output().expect("run replaylens");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn sessions_and_scan_tables_fit_80_columns() {
    let samples = common::bundled_samples();
    let dir = samples.to_str().unwrap();
    for args in [vec!["sessions", dir], vec!["scan", dir]] {
        let narrow = run(&args, Some("80"));
        for line in narrow.lines() {
            assert!(
                line.chars().count() <= 80,
                "{args:?}: {} columns: {line}",
                line.chars().count()
            );
        }
        assert!(
            narrow.contains("anthropic-tool-repair.jsonl"),
            "{args:?}: paths stay readable\n{narrow}"
        );
        let whole = run(&args, None);
        assert!(
            whole.lines().any(|l| l.chars().count() > 100),
            "{args:?}: piped without COLUMNS the table is whole"
        );
    }
    let json = |c| run(&["scan", dir, "--format", "json"], c);
    let strip = |s: String| {
        let mut v: serde_json::Value = serde_json::from_str(&s).unwrap();
        v["summary"]["seconds"] = serde_json::Value::Null;
        v
    };
    assert_eq!(
        strip(json(Some("80"))),
        strip(json(None)),
        "JSON does not depend on the width"
    );
}
