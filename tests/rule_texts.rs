//! What `replaylens rules`, the inspector and the exports tell a user about each rule: no
//! citation of notes a user cannot open, and a reference to the published OpenClaw page
//! (`docs/reference/transcript-hygiene.md`) by a real section name plus the OpenClaw function.

use std::path::Path;

use replaylens::hygiene::registry as rules;
use replaylens::rule_set::RULE_SETS;

/// The headings of OpenClaw's published "Transcript hygiene" page.
const SECTIONS: [&str; 11] = [
    "Failed attempts and recovery",
    "Global rule: runtime context is not user transcript",
    "Where this runs",
    "Global rule: image sanitization",
    "Global rule: malformed tool calls",
    "Global rule: tool result pairing",
    "Global rule: incomplete or silent reasoning-only turns",
    "Global rule: inter-session input provenance",
    "Provider matrix (current behavior)",
    "Historical behavior (pre-2026.1.22)",
    "Related",
];

/// The provider entries of the page's provider matrix (their bold labels start so).
const MATRIX_ENTRIES: [&str; 9] = [
    "OpenAI / OpenAI Codex",
    "OpenAI-compatible Chat Completions",
    "Google",
    "Anthropic",
    "Amazon Bedrock",
    "Mistral",
    "OpenRouter Gemini",
    "OpenRouter Anthropic",
    "Everything else",
];

/// Words that point at internal notes (case-insensitive), or at their section numbers.
const INTERNAL: [&str; 6] = ["hygiene-a", "hygiene-b", "§", "ambiguity", "seed page", "the reference"];

fn internal_citations(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut found: Vec<String> = INTERNAL
        .iter()
        .filter(|w| lower.contains(*w))
        .map(|w| (*w).to_owned())
        .collect();
    // Ambiguity labels of the notes: `(A3)`, `A6`, `B0`, `(N)`.
    for word in text.split(|c: char| !c.is_ascii_alphanumeric() && c != '(' && c != ')') {
        let bare = word.trim_matches(|c| c == '(' || c == ')');
        let label = bare.len() >= 2
            && matches!(bare.as_bytes()[0], b'A' | b'B')
            && bare[1..].bytes().all(|b| b.is_ascii_digit());
        if label || word == "(N)" {
            found.push(word.to_owned());
        }
    }
    found
}

#[test]
fn no_rule_text_cites_internal_notes() {
    let mut bad = Vec::new();
    for rule in rules::pipeline() {
        let i = rule.info();
        for (field, text) in [
            ("summary", i.summary),
            ("explanation", i.explanation),
            ("families", i.families),
            ("reference", i.reference),
        ] {
            let found = internal_citations(text);
            if !found.is_empty() {
                bad.push(format!("{} {field}: {found:?}", i.id));
            }
        }
    }
    for set in RULE_SETS {
        for text in [set.releases, set.checked] {
            if !internal_citations(text).is_empty() {
                bad.push(format!("rule set {}: {text}", set.name));
            }
        }
        for d in set.differences() {
            if !internal_citations(d.text).is_empty() {
                bad.push(format!("rule set {} ({}): {}", set.name, d.rule, d.text));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "internal citations in user-facing rule texts:\n{}",
        bad.join("\n")
    );
}

/// A reference: `transcript-hygiene.md › "Section" [› matrix entries] · functions`.
struct Reference<'a> {
    section: &'a str,
    entries: Vec<&'a str>,
    functions: Vec<&'a str>,
}

fn parse(reference: &str) -> Result<Reference<'_>, String> {
    let rest = reference
        .strip_prefix("transcript-hygiene.md › \"")
        .ok_or("does not start with `transcript-hygiene.md › \"Section\"`")?;
    let (section, rest) = rest.split_once('"').ok_or("unterminated section name")?;
    let (entries, functions) = rest.split_once(" · ").ok_or("no ` · function`")?;
    let entries = match entries.strip_prefix(" › ") {
        Some(e) => e.split(", ").collect(),
        None if entries.is_empty() => Vec::new(),
        None => return Err(format!("unexpected text after the section: {entries:?}")),
    };
    let functions: Vec<&str> = functions
        .split(", ")
        .map(|f| f.split(' ').next().unwrap_or(""))
        .collect();
    Ok(Reference {
        section,
        entries,
        functions,
    })
}

#[test]
fn every_reference_names_a_section_of_the_published_page_and_an_openclaw_function() {
    for rule in rules::pipeline() {
        let i = rule.info();
        assert!(
            i.reference.contains("transcript-hygiene.md"),
            "{}: {}",
            i.id,
            i.reference
        );
        let r = parse(i.reference).unwrap_or_else(|e| panic!("{}: {e}: {}", i.id, i.reference));
        assert!(
            SECTIONS.contains(&r.section),
            "{}: no section {:?} on the page",
            i.id,
            r.section
        );
        if r.section == "Provider matrix (current behavior)" {
            assert!(!r.entries.is_empty(), "{}: name the provider entry", i.id);
        }
        for e in &r.entries {
            assert!(MATRIX_ENTRIES.contains(e), "{}: no provider entry {e:?}", i.id);
        }
        assert!(!r.functions.is_empty(), "{}: no function", i.id);
        for f in &r.functions {
            let ident = !f.is_empty()
                && f.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && f.chars().all(|c| c.is_ascii_alphanumeric());
            assert!(ident, "{}: {f:?} is not a function name", i.id);
        }
    }
}

/// When the pinned OpenClaw release is installed (`oracle/`), its copy of the page has every
/// section and provider entry a reference names, and its code defines every function named.
#[test]
fn references_match_the_installed_openclaw_release() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("oracle/node_modules");
    let page = root.join("openclaw/docs/reference/transcript-hygiene.md");
    let Ok(page) = std::fs::read_to_string(&page) else {
        eprintln!("SKIPPED: {} is absent (oracle/ not installed)", page.display());
        return;
    };
    let headings: Vec<&str> = page.lines().filter_map(|l| l.strip_prefix("## ")).collect();
    assert_eq!(headings, SECTIONS, "the page's headings changed");
    for e in MATRIX_ENTRIES {
        assert!(page.contains(&format!("**{e}")), "no provider entry **{e}… on the page");
    }
    let mut wanted: Vec<&str> = rules::pipeline()
        .iter()
        .flat_map(|r| parse(r.info().reference).map(|r| r.functions).unwrap_or_default())
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut missing: Vec<&str> = wanted.clone();
    let dirs = [root.join("openclaw/dist"), root.join("@openclaw/ai/dist")];
    for dir in dirs {
        for entry in walkdir::WalkDir::new(dir).into_iter().filter_map(Result::ok) {
            let p = entry.path();
            if missing.is_empty() {
                break;
            }
            if p.extension().is_none_or(|x| x != "mjs" && x != "js")
                || p.components().any(|c| c.as_os_str() == "worker")
            {
                continue;
            }
            let Ok(code) = std::fs::read_to_string(p) else { continue };
            missing.retain(|f| !code.contains(&format!("function {f}(")));
        }
    }
    assert!(missing.is_empty(), "OpenClaw defines no function {missing:?}");
}

#[test]
fn rules_prints_the_reference_and_where_the_page_is_published() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_replaylens"))
        .args(["rules", "tool-call-id"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "reference:  transcript-hygiene.md › \"Provider matrix (current behavior)\" › Google, Mistral · \
             sanitizeToolCallIdsForCloudCodeAssist\n            (transcript-hygiene.md is published at \
             https://docs.openclaw.ai/reference/transcript-hygiene)\n"
        ),
        "{text}"
    );
}

#[test]
fn rules_with_a_release_number_names_the_switches_in_force() {
    let rules = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_replaylens"))
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, text, _) = rules(&["rules", "--openclaw", "2026.9.2"]);
    assert_eq!(code, Some(0));
    assert!(
        text.contains("OpenClaw rule set 2026.9.2: openclaw@2026.9.2 on npm"),
        "{text}"
    );
    for switch in [
        "legacy-synthetic-result-text",
        "strip-synthetic-marker",
        "name-check-completed-calls",
        "empty-turn-placeholder",
        "append-only-off-on-responses",
    ] {
        assert!(text.contains(&format!("  {switch} (")), "{switch} missing:\n{text}");
    }
    assert!(!text.contains("no-append-only-context"), "{text}");
    let (_, text, _) = rules(&["rules", "--openclaw", "2026.9.4"]);
    assert!(
        text.contains("OpenClaw rule set 2026.9.3") && text.contains("name-check-completed-calls"),
        "{text}"
    );
    let (code, _, err) = rules(&["rules", "--openclaw", "2026.5.28"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("older than every rule set"), "{err}");
}

/// Every place the documentation states how many rules there are ("the 26 rules", "all 26",
/// "25 of the 26 rules") says the registry's count: the number is computed, the prose follows it.
#[test]
fn documented_rule_counts_equal_the_registry() {
    let count = rules::pipeline().len();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("src/hygiene/rules/mod.rs")];
    for dir in ["docs", "tests"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md" || e == "rs") {
                files.push(path);
            }
        }
    }
    let claim = regex::Regex::new(r"(?:the|all) (\d+)(?: rules| rule ids|\b)").unwrap();
    let mut checked = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| l.contains("rule")) {
            for cap in claim.captures_iter(line) {
                let n: usize = cap[1].parse().unwrap();
                if (20..40).contains(&n) {
                    checked += 1;
                    assert_eq!(n, count, "{}: {line}", path.display());
                }
            }
        }
    }
    assert!(checked >= 5, "only {checked} rule counts found in the documentation");
}
