//! Acceptance tests of `replaylens lint` against the provider constraints (issue 12).
//!
//! `tests/lint_cases/<constraint-id>.json` holds one transcript per constraint:
//!
//! ```json
//! {"why": "one line: what the transcript holds",
//!  "target": {"provider": "…", "api": "…", "model": "…"},
//!  "expect": "fixed" | "unfixed",
//!  "message": "the finding's exact text",
//!  "messages": [ OpenClaw / pi messages ]}
//! ```
//!
//! - `fixed` (the constraint names a hygiene rule in `fixed_by`): the stored stage reports the
//!   constraint with `message`, the replay stage is clean (exit status 0), and `replay` shows
//!   the `fixed_by` rule among its rewrites (the claim is checked, not only the outcome).
//! - `unfixed` (`fixed_by: None`): the replay stage reports the constraint with `message`,
//!   and `lint` exits 1.
//!
//! In both, the message must also fit the constraint's error template (`{…}` stands for what
//! the provider fills in, `[.…]` for an optional part).
//!
//! Big payloads are generated, not stored. Before the messages are written to a session file
//! these placeholders are expanded, anywhere in `messages`:
//!
//! - `{"$image": {"width": W, "height": H, "bytes": N}}` in place of a string: the base64 of a
//!   real grey W×H PNG; with `bytes`, zero bytes follow its `IEND` up to N bytes in all
//!   (decoders stop at `IEND`, size limits count them);
//! - `{"$text": N}` in place of a string: N bytes of ASCII text;
//! - `{"$repeat": N, "item": V}` as an array element: V, expanded, N times.
//!
//! Constraints without a case are listed in [`NO_CASE`] with the reason no transcript can
//! trigger them.

use std::collections::BTreeSet;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use regex::Regex;
use replaylens::lint::Constraint;
use replaylens::lint::registry;
use replaylens::model::json::{Map, Value};
use serde::Deserialize;

/// Constraints no transcript can trigger through OpenClaw's converters, with the reason.
const NO_CASE: &[(&str, &str)] = &[
    (
        "ollama-field-type",
        "the converter always sends string content and object arguments",
    ),
    (
        "anthropic-empty-text",
        "the converter drops empty text blocks (empty tool-result texts too)",
    ),
    (
        "anthropic-empty-content",
        "the converter drops blank user turns and empty assistant turns; tool results always have content",
    ),
    (
        "anthropic-thinking-signature-missing",
        "the converter sends unsigned thinking as text",
    ),
    (
        "anthropic-thinking-signature-blank",
        "the converter sends thinking with a blank signature as text",
    ),
    (
        "anthropic-thinking-text-missing",
        "the converter always writes `thinking` (empty when the block has none)",
    ),
    (
        "openai-chat-null-content",
        "the converter drops an assistant turn with neither text nor tool calls",
    ),
    (
        "openai-chat-image-role",
        "the converter drops assistant images and moves tool-result images to a user message",
    ),
    (
        "openai-responses-reasoning-following",
        "item ids are never replayed (store: false), and only reasoning items with an id are checked",
    ),
    (
        "openai-responses-item-id-prefix",
        "item ids are never replayed (store: false)",
    ),
    (
        "openai-responses-item-id-charset",
        "item ids are never replayed (store: false)",
    ),
    (
        "openai-responses-duplicate-item",
        "item ids are never replayed (store: false)",
    ),
    (
        "gemini-empty-contents",
        "the converter sends an empty conversation as one user content with a \" \" part",
    ),
    (
        "gemini-empty-parts",
        "the converter gives an empty user turn a \" \" part and drops empty model turns",
    ),
    (
        "gemini-empty-text",
        "the converter turns blank user text into \" \" and drops blank model text",
    ),
    (
        "gemini-thought-signature",
        "on Gemini 3 Pro/Flash the converter signs every call (its own, a replayed or the skip signature)",
    ),
    (
        "bedrock-empty-content",
        "the converter drops empty user and assistant turns; tool results always have content",
    ),
    (
        "bedrock-reasoning-text",
        "the converter always writes reasoningText.text (empty when the block has none)",
    ),
    (
        "bedrock-error-result-content",
        "the converter gives a tool result without content a `(no output)` text",
    ),
    (
        "mistral-assistant-content",
        "the converter drops an assistant turn with neither content nor tool calls",
    ),
];

/// One case file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    /// What the transcript holds.
    why: String,
    /// The target the session is linted for.
    target: Target,
    /// `fixed` or `unfixed`.
    expect: Expect,
    /// The finding's exact text (stored stage when fixed, replay stage when unfixed).
    message: String,
    /// The session, with placeholders.
    messages: Vec<Value>,
}

/// `--provider`, `--api`, `--model`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Target {
    provider: String,
    api: String,
    model: String,
}

/// What hygiene does about the constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Expect {
    /// Hygiene fixes it: reported at the stored stage, not at the replay stage.
    Fixed,
    /// Hygiene does not: reported at the replay stage.
    Unfixed,
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lint_cases")
}

/// The case files, by constraint id.
fn case_files() -> Vec<(String, PathBuf)> {
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(cases_dir())
        .expect("tests/lint_cases")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| (p.file_stem().expect("file name").to_string_lossy().into_owned(), p))
        .collect();
    files.sort();
    files
}

/// A real grey `width`×`height` PNG, padded with zero bytes to `bytes`, as base64.
fn png_base64(width: u32, height: u32, bytes: Option<usize>) -> String {
    let img = image::RgbImage::from_pixel(width, height, image::Rgb([128, 128, 128]));
    let mut png = Vec::new();
    img.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("PNG encoding");
    if let Some(n) = bytes {
        assert!(
            n >= png.len(),
            "$image bytes {n} is below the PNG's own {} bytes",
            png.len()
        );
        png.resize(n, 0);
    }
    STANDARD.encode(png)
}

/// `n` bytes of text.
fn text_of_len(n: usize) -> String {
    let mut text = "lorem ipsum ".repeat(n / 12 + 1);
    text.truncate(n);
    text
}

fn as_count(v: &Value, what: &str) -> usize {
    let n = v.as_u64().unwrap_or_else(|| panic!("{what} must be a number, got {v}"));
    usize::try_from(n).expect("count fits usize")
}

/// Expand the placeholders of the scheme in the module documentation.
fn expand(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            if let Some(spec) = o.get("$image") {
                let side = |k: &str| u32::try_from(as_count(&spec[k], k)).expect("side fits u32");
                let bytes = spec.get("bytes").map(|b| as_count(b, "bytes"));
                return Value::from(png_base64(side("width"), side("height"), bytes));
            }
            if let Some(n) = o.get("$text") {
                return Value::from(text_of_len(as_count(n, "$text")));
            }
            Value::Object(o.iter().map(|(k, v)| (*k, expand(v))).collect::<Map>())
        }
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                match item.get("$repeat") {
                    Some(n) => {
                        let one = expand(item.get("item").expect("$repeat needs an item"));
                        out.extend(std::iter::repeat_n(one, as_count(n, "$repeat")));
                    }
                    None => out.push(expand(item)),
                }
            }
            Value::Array(out.into())
        }
        other => other.clone(),
    }
}

/// A regex that matches the texts an error template stands for: `{…}` is anything, `[.…]` an
/// optional part, the rest literal.
fn template_regex(template: &str) -> Regex {
    let placeholder = Regex::new(r"\{[^}]*\}").expect("regex");
    let literal = |s: &str| placeholder.split(s).map(regex::escape).collect::<Vec<_>>().join(".*?");
    let mut pattern = String::from("^");
    let mut rest = template;
    while let Some(start) = rest.find("[.") {
        let end = start + rest[start..].find(']').expect("optional part closes");
        pattern.push_str(&literal(&rest[..start]));
        pattern.push_str(&format!("(?:{})?", literal(&rest[start + 1..end])));
        rest = &rest[end + 1..];
    }
    pattern.push_str(&literal(rest));
    pattern.push('$');
    Regex::new(&pattern).expect("template regex")
}

/// The findings of one stage of a `lint --format json` document.
fn findings<'a>(doc: &'a Value, stage: &str) -> &'a [Value] {
    doc["stages"]
        .as_array()
        .and_then(|stages| stages.iter().find(|s| s["stage"] == stage))
        .and_then(|s| s["findings"].as_array())
        .map_or(&[], |a| a.as_slice())
}

/// `constraint: message` of each finding, for failure messages.
fn summary(found: &[Value]) -> String {
    let lines: Vec<String> = found
        .iter()
        .map(|f| format!("{}: {}", f["constraint"], f["message"]))
        .collect();
    format!("[{}]", lines.join("; "))
}

/// Run `replaylens <command> SESSION <target> <rest>`: its exit status and JSON output.
fn run_json(session: &Path, command: &[&str], target: &[&str], rest: &[&str]) -> Result<(Option<i32>, Value), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_replaylens"))
        .args(command)
        .arg(session)
        .args(target)
        .args(rest)
        .output()
        .map_err(|e| e.to_string())?;
    let status = out.status.code();
    let doc = serde_json::from_slice(&out.stdout).map_err(|e| {
        let stderr = String::from_utf8_lossy(&out.stderr);
        format!("{command:?}: exit status {status:?}, no JSON on stdout ({e}); stderr: {stderr}")
    })?;
    Ok((status, doc))
}

/// Run one case; the first broken expectation.
fn run_case(id: &str, path: &Path, dir: &Path) -> Result<(), String> {
    let case: Case = serde_json::from_str(&std::fs::read_to_string(path).map_err(|e| e.to_string())?)
        .map_err(|e| format!("bad case file: {e}"))?;
    let c: &Constraint = registry::find(id).ok_or("no constraint has this id")?;
    if case.why.trim().is_empty() {
        return Err("`why` is empty".into());
    }
    let expect = if c.fixed_by.is_some() {
        Expect::Fixed
    } else {
        Expect::Unfixed
    };
    if case.expect != expect {
        return Err(format!("expect is {:?}, but fixed_by is {:?}", case.expect, c.fixed_by));
    }
    if !template_regex(c.error).is_match(&case.message) {
        return Err(format!(
            "message {:?} does not fit the template {:?}",
            case.message, c.error
        ));
    }
    let session = dir.join(format!("{id}.json"));
    let messages = expand(&Value::Array(case.messages.into()));
    std::fs::write(&session, serde_json::to_vec(&messages).expect("JSON")).map_err(|e| e.to_string())?;
    let t = &case.target;
    let target = ["--provider", &t.provider, "--api", &t.api, "--model", &t.model];
    let lint = run_json(&session, &["lint"], &target, &["--stage", "both", "--format", "json"]);
    let replayed = match (lint.is_ok(), c.fixed_by) {
        (true, Some(_)) => Some(run_json(&session, &["replay"], &target, &["--format", "json"])),
        _ => None,
    };
    // The session file can be tens of megabytes: gone as soon as it is read.
    let _ = std::fs::remove_file(&session);
    let (status, doc) = lint?;
    let (stored, replay) = (findings(&doc, "stored"), findings(&doc, "replay"));
    let wanted = |found: &[Value]| {
        found
            .iter()
            .filter(|f| f["constraint"] == id)
            .any(|f| f["message"] == case.message.as_str() && f["fixed_by"] == replaylens::json!(c.fixed_by))
    };
    match expect {
        Expect::Fixed => {
            if !wanted(stored) {
                return Err(format!("stored stage lacks the finding; it has {}", summary(stored)));
            }
            if !replay.is_empty() || status != Some(0) {
                return Err(format!("replay stage not clean (exit {status:?}): {}", summary(replay)));
            }
            let (_, projection) = replayed.expect("replay was run")?;
            let rule = c.fixed_by.expect("fixed");
            let acted: BTreeSet<&str> = projection["rewrites"]
                .as_array()
                .map_or(&[][..], |a| a.as_slice())
                .iter()
                .filter_map(|r| r["rule"].as_str())
                .collect();
            if !acted.contains(rule) {
                return Err(format!(
                    "the replay is clean, but fixed_by rule {rule} did not act (rules: {acted:?})"
                ));
            }
        }
        Expect::Unfixed => {
            if !wanted(replay) {
                return Err(format!("replay stage lacks the finding; it has {}", summary(replay)));
            }
            if status != Some(1) || doc["verdict"] != "would be rejected" {
                return Err(format!("exit status {status:?}, verdict {}", doc["verdict"]));
            }
        }
    }
    Ok(())
}

#[test]
fn every_case_meets_its_expectation() {
    let files = case_files();
    assert!(!files.is_empty(), "no case in {}", cases_dir().display());
    let dir = tempfile::tempdir().expect("temp dir");
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    // The big request-size cases take seconds each in a debug build: two at a time.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(2));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some((id, path)) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if let Err(e) = run_case(id, path, dir.path()) {
                        failures.lock().expect("lock").push(format!("{id}: {e}"));
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().expect("lock");
    failures.sort();
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_constraint_has_a_case_or_a_reason() {
    let cases: BTreeSet<String> = case_files().into_iter().map(|(id, _)| id).collect();
    let exempt: BTreeSet<&str> = NO_CASE.iter().map(|(id, _)| *id).collect();
    assert_eq!(exempt.len(), NO_CASE.len(), "NO_CASE lists a constraint twice");
    let known: BTreeSet<&str> = registry::all().map(|c| c.id).collect();
    let mut problems = Vec::new();
    for id in &known {
        match (cases.contains(*id), exempt.contains(id)) {
            (false, false) => problems.push(format!("{id}: no case file and not in NO_CASE")),
            (true, true) => problems.push(format!("{id}: has a case file but is in NO_CASE")),
            _ => {}
        }
    }
    for id in cases.iter().map(String::as_str).chain(exempt.iter().copied()) {
        if !known.contains(id) {
            problems.push(format!("{id}: no such constraint"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn templates_match_what_they_stand_for() {
    let image = template_regex("messages.{N}.content.{M}[.tool_result.content.{K}].image: {bytes} bytes");
    assert!(image.is_match("messages.0.content.1.image: 6 bytes"));
    assert!(image.is_match("messages.3.content.0.tool_result.content.2.image: 6 bytes"));
    assert!(!image.is_match("messages.0.content.1.image: 6 bytes!"));
    let literal =
        template_regex("messages.{N}.content.{M}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'");
    assert!(literal.is_match("messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"));
}

#[test]
fn placeholders_expand() {
    let v = replaylens::json!([
        {"$repeat": 3, "item": {"data": {"$image": {"width": 9, "height": 4, "bytes": 500}}}},
        {"text": {"$text": 20}}
    ]);
    let out = expand(&v);
    let items = out.as_array().expect("array");
    assert_eq!(items.len(), 4);
    let png = STANDARD
        .decode(items[0]["data"].as_str().expect("base64"))
        .expect("valid base64");
    assert_eq!(png.len(), 500);
    let img = image::load_from_memory(&png).expect("a decodable PNG despite the padding");
    assert_eq!((img.width(), img.height()), (9, 4));
    assert_eq!(items[3]["text"].as_str().map(str::len), Some(20));
}
