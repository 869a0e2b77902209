//! A 5,000-way merge is a few short lines, not one 30 KB line: index lists fold runs
//! (`s0–s4999`) and a merge rewrite names its first members and its last.

mod common;

use std::fmt::Write as _;
use std::process::Command;

#[test]
fn a_five_thousand_way_merge_prints_short_lines_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m5k.jsonl");
    let mut text =
        String::from(r#"{"type":"session","version":3,"id":"m5k","timestamp":"2026-03-09T08:41:07.000Z","cwd":"/x"}"#);
    text.push('\n');
    for i in 0..5_000 {
        let parent = if i == 0 {
            "null".to_owned()
        } else {
            format!("\"u{}\"", i - 1)
        };
        let _ = writeln!(
            text,
            r#"{{"type":"message","id":"u{i}","parentId":{parent},"timestamp":"2026-03-09T08:41:08.000Z","message":{{"role":"user","content":[{{"type":"text","text":"msg {i}"}}],"timestamp":{i}}}}}"#
        );
    }
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let target = ["--provider", "anthropic", "--model", "claude-sonnet-4-6"];
    for args in [
        vec!["replay", p],
        vec!["lint", p],
        vec!["payload", p],
        vec!["export", p, "--format", "md"],
    ] {
        let out = Command::new(common::bin()).args(&args).args(target).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        // No member is listed one by one (a Markdown paragraph may be long; a list may not).
        assert!(
            !stdout.contains("s4998") && !stdout.contains("[4998]"),
            "{args:?} lists every member"
        );
        if args[0] != "export" {
            let longest = stdout.lines().map(|l| l.chars().count()).max().unwrap_or(0);
            assert!(longest < 400, "{args:?}: a line of {longest} characters");
        }
        if args[0] == "replay" {
            assert!(stdout.contains("← s0–s4999"), "{stdout:.500}");
            assert!(
                stdout.contains("… 4993 more + [4999]"),
                "the merge names its members briefly"
            );
        }
    }
}
