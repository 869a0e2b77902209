//! The Markdown and HTML reports show the messages their verdict names, with context, even
//! when no rewrite touches them (the bundled Mistral sample: `messages[4]` is stored s3, an
//! unchanged user message after a tool result).

mod common;

use std::process::Command;

fn export(format: &str) -> String {
    let session = common::tmux::samples().join("mistral-ids-and-images.jsonl");
    let out = Command::new(common::bin())
        .args(["export", "--format", format])
        .arg(&session)
        .output()
        .expect("run replaylens");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The stored indices the verdict and the lint section name (`(stored sN)`), before the changes.
fn named(report: &str) -> Vec<String> {
    let head = &report[..report.find("\n## Changes").unwrap_or(report.len())];
    head.split("(stored s")
        .skip(1)
        .filter_map(|r| r.split(')').next())
        .map(|n| format!("s{n}"))
        .fold(Vec::new(), |mut all, s| {
            if !all.contains(&s) {
                all.push(s);
            }
            all
        })
}

#[test]
fn the_markdown_report_of_the_mistral_sample_shows_the_message_its_verdict_names() {
    let md = export("md");
    let names = named(&md);
    assert!(
        names.contains(&"s3".to_owned()),
        "the verdict names messages[4] (stored s3):\n{md}"
    );
    for s in &names {
        assert!(md.contains(&format!("\n### {s} → ")), "no change block for {s}:\n{md}");
    }
    // s3 is unchanged: shown all the same, with the message before it as context.
    let at = md.find("\n### s3 → r3: unchanged").expect("s3's block");
    assert!(md[..at].contains("\n### s2 → "), "{md}");
}

#[test]
fn the_html_report_shows_it_too() {
    let html = export("html");
    assert!(html.contains("s3 → r3"), "no card for s3");
}
