//! The report a maintainer reads: on a large generated session (thousands of messages,
//! hundreds of rewrites), the Markdown export stays within its character budget, says what it
//! left out, keeps its structure valid, reproduces from the command it prints, and honours
//! `--only-rule` and `--messages`; the HTML export keeps to its budget the same way.

mod common;

#[path = "../benches/support/session_gen.rs"]
#[allow(dead_code)]
mod session_gen;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use replaylens::model::json::Value;

/// The generated session, written once per test run.
fn session() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export_report");
        let path = dir.join("session.jsonl");
        let partial = dir.join(format!("session.jsonl.{}", std::process::id()));
        let config = session_gen::Config {
            bytes: 4_000_000,
            messages: 3000,
            seed: 7,
            screenshots: 0,
        };
        session_gen::generate(&partial, &config).expect("generate the session");
        std::fs::rename(&partial, &path).expect("move the session in place");
        path
    })
}

/// Mistral's tool-call id rule rewrites every call id of this session: hundreds of rewrites.
const MISTRAL: &[&str] = &[
    "--provider",
    "mistral",
    "--api",
    "mistral-conversations",
    "--model",
    "mistral-large-latest",
];

fn run(args: &[&str]) -> Output {
    Command::new(common::bin())
        .arg("export")
        .arg(session())
        .args(args)
        .output()
        .expect("run replaylens")
}

fn export(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Cells of a table line: unescaped `|` between the outer ones.
fn columns(line: &str) -> usize {
    let mut pipes = 0;
    let mut escaped = false;
    for c in line.trim().chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '|' => pipes += 1,
            _ => {}
        }
    }
    pipes - 1
}

/// Check what GitHub needs to render the report as meant: every fence closes, `<details>`
/// balance outside fences, every table row has the header's columns, and the Markdown parser
/// sees exactly the `diff` blocks written, holding only diff lines (nothing leaked in or out).
fn check_structure(md: &str) {
    let lines: Vec<&str> = md.lines().collect();
    let mut fence: Option<usize> = None;
    let (mut details, mut diff_fences, mut tables) = (0i64, 0, 0);
    let mut table: Option<usize> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let ticks = line.chars().take_while(|&c| c == '`').count();
        if let Some(open) = fence {
            if ticks >= open && line[ticks..].trim().is_empty() {
                fence = None;
            }
        } else if ticks >= 3 {
            fence = Some(ticks);
            diff_fences += usize::from(&line[ticks..] == "diff");
            table = None;
        } else {
            details += line.matches("<details>").count() as i64;
            details -= line.matches("</details>").count() as i64;
            assert!(details >= 0, "line {i}: </details> before <details>");
            if line.starts_with('|') {
                match table {
                    Some(n) => assert_eq!(columns(line), n, "line {i}: {line}"),
                    None => {
                        let delimiter = lines.get(i + 1).copied().unwrap_or_default();
                        assert!(
                            delimiter.starts_with("|--") || delimiter.starts_with("|:-"),
                            "line {i}: a table header without its delimiter row: {line}"
                        );
                        assert_eq!(columns(delimiter), columns(line), "line {i}: {line}");
                        table = Some(columns(line));
                        tables += 1;
                        i += 1;
                    }
                }
            } else {
                table = None;
            }
        }
        i += 1;
    }
    assert!(fence.is_none(), "a fence is left open");
    assert_eq!(details, 0, "<details> and </details> balance");
    assert!(tables >= 2, "the tables are there");
    let (mut code_blocks, mut diff_blocks, mut open, mut html_details) = (0, 0, 0i64, 0i64);
    let mut in_diff = false;
    for event in Parser::new_ext(md, pulldown_cmark::Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                code_blocks += 1;
                open += 1;
                in_diff = matches!(&kind, CodeBlockKind::Fenced(lang) if lang.as_ref() == "diff");
                diff_blocks += usize::from(in_diff);
            }
            Event::End(TagEnd::CodeBlock) => {
                open -= 1;
                in_diff = false;
            }
            Event::Text(t) if in_diff => {
                for l in t.lines() {
                    assert!(
                        l.starts_with([' ', '-', '+', '@']),
                        "not a diff line in a diff block: {l:?}"
                    );
                }
            }
            Event::Html(h) | Event::InlineHtml(h) => {
                html_details += h.matches("<details>").count() as i64 - h.matches("</details>").count() as i64;
            }
            _ => {}
        }
    }
    assert_eq!(open, 0, "every code block closes");
    assert_eq!(diff_blocks, diff_fences, "the parser sees the diff blocks written");
    assert!(code_blocks > diff_blocks, "plus the policy and the command");
    assert_eq!(html_details, 0, "the parser sees balanced <details>");
}

/// The `### sA+sB → rN: kind (role)` headings of the changes.
fn change_headings(md: &str) -> Vec<&str> {
    md.lines()
        .filter(|l| l.starts_with("### ") && l.contains(" → "))
        .collect()
}

/// The blocks of the changes: heading to the next heading.
fn change_blocks(md: &str) -> Vec<&str> {
    let changes = &md[md.find("\n## Changes\n").expect("a Changes section")..];
    let changes = &changes[..changes.find("\n## Rules\n").unwrap_or(changes.len())];
    changes.split("\n### ").skip(1).collect()
}

/// The command printed after "Reproduce this report:", split as a POSIX shell would.
fn reproduce_args(report: &str) -> Vec<String> {
    let at = report.find("Reproduce this report:").expect("a reproduce command");
    // Markdown: a line of a `sh` block; HTML: `<pre class="command">…</pre>`.
    let line = report[at..]
        .lines()
        .find_map(|l| l.find("replaylens export ").map(|i| &l[i..]))
        .expect("the command line");
    split_command(line)
}

/// A command line split into its arguments as a POSIX shell would, HTML entities decoded,
/// without the leading `replaylens`.
fn split_command(line: &str) -> Vec<String> {
    let line = line
        .trim_end_matches("</pre>")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'");
    let mut args = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            '\\' if !quoted => word.get_or_insert_with(String::new).extend(chars.next()),
            ' ' if !quoted => args.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    args.extend(word);
    assert_eq!(args[0], "replaylens");
    args.remove(0);
    args
}

fn assert_round_trips(args: &[&str]) {
    let report = export(args);
    let again = reproduce_args(&report);
    // A redacted report names the session by its base name (issue 45 finding 12): the command
    // is run beside the file.
    let folder = session().parent().map(std::path::Path::to_path_buf).unwrap();
    let out = Command::new(common::bin())
        .args(&again)
        .current_dir(folder)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{again:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stdout == report.as_bytes(),
        "{args:?}: the printed command {again:?} gives another report"
    );
}

#[test]
fn default_markdown_fits_and_says_what_it_left_out() {
    for target in [&[][..], MISTRAL] {
        let md = export(&[target, &["--format", "md"]].concat());
        let chars = md.chars().count();
        assert!(chars <= 65_536, "{target:?}: {chars} characters");
        assert!(chars > 50_000, "{target:?}: the budget is used ({chars})");
        check_structure(&md);
        let h2: Vec<&str> = md.lines().filter(|l| l.starts_with("## ")).collect();
        assert_eq!(h2.first(), Some(&"## Verdict"), "the verdict comes first");
        assert_eq!(h2.last(), Some(&"## Left out"), "{target:?}: {h2:?}");
        let left = &md[md.find("## Left out").unwrap()..];
        for how in ["--format html", "--only-rule ", "--messages ", "--max-chars 0"] {
            assert!(left.contains(how), "{target:?}: Left out names {how}");
        }
        assert!(left.contains("| rule | shown | left out |"));
        assert!(md.contains("- **This report:** cut to 65,536 characters: "));
        let verdict = &md[..md.find("## Rewrites by rule").unwrap()];
        for part in [
            "**Messages:**",
            "**Rewrites:**",
            "**Stored transcript as is:**",
            "**Replay:**",
        ] {
            assert!(verdict.contains(part), "{target:?}: the verdict has {part}");
        }
        // One example per rule before repeats: every rule used has a change shown.
        let blocks = change_blocks(&md);
        assert!(blocks.len() >= 20, "{target:?}: {} changes", blocks.len());
        let rules: Vec<String> = md[md.find("## Rules").unwrap()..]
            .lines()
            .filter_map(|l| l.strip_prefix("### <a id=\"rule-"))
            .map(|l| l[..l.find('"').unwrap()].to_owned())
            .collect();
        assert!(rules.len() >= 5, "{rules:?}");
        for rule in &rules {
            assert!(
                blocks.iter().any(|b| b.contains(&format!("](#rule-{rule})"))),
                "{target:?}: an example of {rule}"
            );
        }
    }
}

#[test]
fn changes_are_diffs_of_the_changed_paths() {
    let md = export(&[MISTRAL, &["--format", "md"]].concat());
    let blocks = change_blocks(&md);
    let id_change = blocks
        .iter()
        .find(|b| b.contains("(#rule-tool-call-id)") && b.contains("modified (toolResult)"))
        .expect("a tool result whose call id was rewritten");
    assert!(
        id_change.contains("\n- toolCallId: \"") && id_change.contains("\n+ toolCallId: \""),
        "{id_change}"
    );
    assert!(
        !id_change.contains("\n  content[0].text") && !id_change.contains("\n  \"role\""),
        "unchanged paths far from the change are not dumped: {id_change}"
    );
    assert!(md.contains(" unchanged message"), "unchanged runs collapse to one line");
    assert!(md.contains(" chars …"), "long values are elided with their length");
}

#[test]
fn the_json_export_names_the_command_that_reproduces_it() {
    let json = export(&[MISTRAL, &["--format", "json"]].concat());
    let doc: replaylens::model::json::Value = serde_json::from_str(&json).unwrap();
    let command = doc["export"]["command"].as_str().expect("export.command");
    let again = split_command(command);
    let out = Command::new(common::bin()).args(&again).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{again:?}");
    assert!(out.stdout == json.as_bytes(), "{again:?} gives another JSON export");
}

#[test]
fn the_printed_command_reproduces_the_report() {
    assert_round_trips(&["--format", "md"]);
    assert_round_trips(&["--format", "md", "--redact"]);
    assert_round_trips(&[MISTRAL, &["--format", "html", "--only-changed", "--context", "1"]].concat());
}

/// Needs `--only-rule`, `--messages` and `--max-chars` on the command line.
#[test]
fn the_printed_command_reproduces_a_focused_report() {
    assert_round_trips(
        &[
            MISTRAL,
            &[
                "--format",
                "md",
                "--only-rule",
                "tool-call-id,tool-result-details",
                "--messages",
                "10..400",
            ],
        ]
        .concat(),
    );
    assert_round_trips(&["--format", "md", "--max-chars", "30000", "--redact=all-text"]);
    let whole = export(&["--format", "md", "--max-chars", "0"]);
    assert!(whole.chars().count() > 65_536 && !whole.contains("## Left out"));
    check_structure(&whole);
}

/// Needs `--only-rule`.
#[test]
fn only_rule_keeps_that_rules_rows() {
    let md = export(&[MISTRAL, &["--format", "md", "--only-rule", "tool-call-id"]].concat());
    check_structure(&md);
    let blocks = change_blocks(&md);
    assert!(blocks.len() >= 20);
    for b in &blocks {
        assert!(
            b.contains("(#rule-tool-call-id)"),
            "a row tool-call-id did not touch: {b}"
        );
    }
    assert!(md.contains("- **Filter:** this report shows only rows touched by tool-call-id"));
    let doc: Value = serde_json::from_str(&export(
        &[MISTRAL, &["--format", "json", "--only-rule", "tool-call-id"]].concat(),
    ))
    .unwrap();
    let rewrites = doc["rewrites"].as_array().unwrap();
    assert!(rewrites.len() > 100 && rewrites.iter().all(|r| r["rule"] == "tool-call-id"));
    assert_eq!(
        doc["export"]["filter"]["onlyRules"],
        replaylens::json!(["tool-call-id"])
    );
    for key in ["session", "target", "policy", "stored", "replay", "rewrites", "export"] {
        assert!(doc.get(key).is_some(), "the contract keeps {key}");
    }
}

/// Needs `--messages`.
#[test]
fn messages_limits_rows_to_a_stored_range() {
    let md = export(&[MISTRAL, &["--format", "md", "--messages", "0..5"]].concat());
    check_structure(&md);
    let headings = change_headings(&md);
    assert!(!headings.is_empty());
    for h in &headings {
        let stored = &h[4..h.find(" → ").unwrap()];
        for s in stored.split('+').filter(|s| *s != "new") {
            let index: usize = s.trim_start_matches('s').parse().unwrap();
            assert!(index <= 5, "{h}");
        }
    }
    let html = export(&[MISTRAL, &["--format", "html", "--messages", "0..5"]].concat());
    let cards = html.matches("<article class=\"change ").count();
    assert!(
        (1..=6).contains(&cards),
        "HTML rows are limited too: {cards} change cards"
    );
    let doc: Value = serde_json::from_str(&export(
        &[MISTRAL, &["--format", "json", "--messages", "0..5"]].concat(),
    ))
    .unwrap();
    assert_eq!(doc["export"]["filter"]["messages"], replaylens::json!([0, 5]));
    for r in doc["rewrites"].as_array().unwrap() {
        let stored: Vec<u64> = r["stored"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        assert!(stored.is_empty() || stored.iter().any(|&s| s <= 5), "{r}");
    }
}

/// Needs `--only-rule`.
#[test]
fn an_unknown_rule_is_refused_with_the_valid_ids() {
    let out = run(&["--format", "md", "--only-rule", "tool-call"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("tool-call") && err.contains("valid ids: ") && err.contains("tool-call-id"),
        "{err}"
    );
}

/// Tags that must balance in an HTML report: what a cut must never leave open.
fn check_html_balance(html: &str) {
    for tag in ["section", "article", "details", "table", "pre", "div", "nav", "main"] {
        let open = html.matches(&format!("<{tag}>")).count() + html.matches(&format!("<{tag} ")).count();
        let close = html.matches(&format!("</{tag}>")).count();
        assert_eq!(open, close, "<{tag}> opened {open} times, closed {close} times");
    }
    assert!(html.trim_end().ends_with("</html>"));
}

/// The change cards of an HTML report (`<article class="change …" id="row-N">`), by row.
fn html_cards(html: &str) -> Vec<usize> {
    html.match_indices("<article class=\"change ")
        .map(|(i, _)| {
            let rest = &html[i..];
            let id = &rest[rest.find("id=\"row-").unwrap() + 8..];
            id[..id.find('"').unwrap()].parse().unwrap()
        })
        .collect()
}

/// Needs `--max-chars` for HTML.
#[test]
fn html_keeps_to_its_budget_and_says_what_it_left_out() {
    let args = [MISTRAL, &["--format", "html", "--max-chars", "300000"]].concat();
    let cut = export(&args);
    let chars = cut.chars().count();
    assert!(chars <= 300_000, "{chars} characters");
    assert!(chars > 200_000, "the budget is used ({chars})");
    check_html_balance(&cut);
    // At the top: the verdict says the report was cut.
    let top = &cut[..cut.find("<section id=\"changes\"").expect("a Changes section")];
    assert!(
        top.contains("<dt>This report</dt><dd>cut to 300,000 characters: "),
        "the verdict says the report was cut"
    );
    assert!(top.contains("see Left out after the changes"));
    // At the cut: right after the changes, what was left out and how to get it.
    let left = &cut[cut.find("<section id=\"left-out\"").expect("a Left out section")..];
    assert!(
        cut[..cut.find("<section id=\"left-out\"").unwrap()].ends_with("</section>\n"),
        "Left out follows the Changes section"
    );
    let left = &left[..left.find("</section>").unwrap()];
    assert!(left.contains("This report stops at 300,000 characters (<code>--max-chars</code>)"));
    assert!(left.contains("<th>rule</th><th>shown</th><th>left out</th>"));
    for how in ["--max-chars 0", "--only-rule ", "--messages "] {
        assert!(left.contains(how), "Left out names {how}");
    }
    // One example per rule: every rule with rewrites has a card.
    let whole = export(&[MISTRAL, &["--format", "html", "--max-chars", "0"]].concat());
    check_html_balance(&whole);
    assert!(!whole.contains("id=\"left-out\"") && !whole.contains("<dt>This report</dt>"));
    assert!(whole.chars().count() > 2 * chars, "the whole report is much longer");
    let (kept, all) = (html_cards(&cut), html_cards(&whole));
    assert!(
        kept.len() >= 10 && kept.len() < all.len(),
        "{} of {} cards",
        kept.len(),
        all.len()
    );
    assert!(kept.iter().all(|i| all.contains(i)));
    let thousands = |n: usize| {
        let digits = n.to_string();
        let mut out = String::new();
        for (k, c) in digits.chars().enumerate() {
            if k > 0 && (digits.len() - k).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    let counts = format!(
        "{} of {} changed messages shown",
        thousands(kept.len()),
        thousands(all.len())
    );
    assert!(top.contains(&counts), "the verdict counts the cards: {counts}");
    let changes = &cut[cut.find("<section id=\"changes\"").unwrap()..cut.find("<section id=\"left-out\"").unwrap()];
    for (rule, _) in whole.match_indices("<section class=\"rule\" id=\"") {
        let id = &whole[rule + 26..];
        let id = &id[..id.find('"').unwrap()];
        assert!(
            changes.contains(&format!("<a class=\"tag\" href=\"#{id}\"")),
            "an example of {id}"
        );
    }
    // No link to a card that was left out.
    for (i, _) in cut.match_indices("href=\"#row-") {
        let id = &cut[i + 11..];
        let row: usize = id[..id.find('"').unwrap()].parse().unwrap();
        assert!(
            cut.contains(&format!("id=\"row-{row}\"")),
            "a link to row {row}, not drawn"
        );
    }
    // The printed commands give the same report, and the whole one.
    assert_round_trips(&args);
    let again = split_command(
        left.lines()
            .find(|l| l.contains("--max-chars 0"))
            .map(|l| &l[l.find("replaylens export ").unwrap()..])
            .unwrap(),
    );
    let out = Command::new(common::bin()).args(&again).output().unwrap();
    assert!(out.stdout == whole.as_bytes(), "{again:?} gives the whole report");
}

/// The default HTML budget (5,000,000 characters) holds for a session whose whole report is
/// larger, and `--max-chars 0` lifts it.
#[test]
fn html_has_a_default_budget() {
    let html = export(&[MISTRAL, &["--format", "html"]].concat());
    let whole = run(&[MISTRAL, &["--format", "html", "--max-chars", "0"]].concat());
    assert_eq!(whole.status.code(), Some(0));
    let whole_chars = String::from_utf8_lossy(&whole.stdout).chars().count();
    let chars = html.chars().count();
    assert!(
        whole_chars > 5_000_000,
        "the whole report ({whole_chars} characters) passes the default budget"
    );
    assert!(chars <= 5_000_000, "{chars} characters");
    assert!(chars > 4_000_000, "the budget is used ({chars})");
    assert!(html.contains("<dt>This report</dt><dd>cut to 5,000,000 characters: "));
    assert!(html.contains("<section id=\"left-out\""));
    check_html_balance(&html);
}
