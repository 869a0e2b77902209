//! `replaylens show` on a pi session with shell commands the user ran (`bashExecution`
//! messages): each shows its command, the first lines of its output and how it ended.

mod common;

use std::process::Command;

#[test]
fn show_prints_the_command_and_output_of_shell_runs() {
    let Some(samples) = common::shared_samples() else {
        return;
    };
    let path = samples.join("pi/pi-mono/before-compaction.jsonl");
    let out = Command::new(common::bin()).arg("show").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let runs: Vec<&[&str]> = lines
        .windows(6)
        .filter(|w| w[0].split_whitespace().nth(1) == Some("bashExecution"))
        .collect();
    assert_eq!(runs.len(), 3, "{text}");
    for run in &runs[..2] {
        assert_eq!(
            &run[1..],
            [
                "      $ ls",
                "        AGENTS.md",
                "        biome.json",
                "        LICENSE",
                "        … 9 more lines"
            ],
            "{run:#?}"
        );
    }
    let find = runs[2];
    assert!(
        find[1].starts_with("      $ find .  (output truncated, full output in /var/folders/"),
        "{find:#?}"
    );
    assert_eq!(find[2], "        ./.git/objects/2d");
    assert!(
        find[5].starts_with("        … ") && find[5].ends_with(" more lines"),
        "{find:#?}"
    );
}
