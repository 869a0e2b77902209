//! `replaylens providers` and the provider list behind it.
//!
//! - the committed list (`src/policy/providers/openclaw-2026.9.6.json`) equals what
//!   `oracle/openclaw_providers.mjs` makes of the installed release, so a provider plugin a
//!   future release adds (or drops) is noticed. Needs Node ≥ 24.16 and `oracle/node_modules`
//!   (see `oracle/README.md`); skipped with a note otherwise, failed with
//!   `REPLAYLENS_REQUIRE_ORACLE=1`. Regenerate with `scripts/gen-providers.sh`;
//! - the text, JSON and Markdown outputs, and the "did you mean" of an unknown provider or API.

#[allow(dead_code)]
#[path = "oracle_support/oracle.rs"]
mod oracle;

use std::path::Path;
use std::process::{Command, Output};

use replaylens::policy::providers::{Origin, catalog};

const COMMITTED: &str = include_str!("../src/policy/providers/openclaw-2026.9.6.json");

fn replaylens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_replaylens"))
        .args(args)
        .output()
        .expect("run replaylens")
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn the_committed_list_is_what_the_release_gives() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(setup) = oracle::locate_or_skip(root, "the provider list") else {
        return;
    };
    let out = Command::new(&setup.node)
        .arg(root.join("oracle/openclaw_providers.mjs"))
        .output()
        .expect("run oracle/openclaw_providers.mjs");
    assert!(
        out.status.success(),
        "oracle/openclaw_providers.mjs failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let generated = String::from_utf8(out.stdout).expect("UTF-8");
    if generated != COMMITTED {
        let changed: Vec<String> = similar::TextDiff::from_lines(COMMITTED, generated.as_str())
            .iter_all_changes()
            .filter(|c| c.tag() != similar::ChangeTag::Equal)
            .map(|c| format!("{}{}", c.tag(), c.value().trim_end()))
            .collect();
        panic!(
            "src/policy/providers/openclaw-2026.9.6.json is not what the installed release gives \
             (run scripts/gen-providers.sh):\n{}",
            changed.join("\n")
        );
    }
}

#[test]
fn json_lists_every_provider_with_its_profiles_and_families() {
    let doc: serde_json::Value =
        serde_json::from_str(&stdout(&replaylens(&["providers", "--format", "json"]))).unwrap();
    let c = catalog();
    assert_eq!(doc["openclaw"], "2026.9.6");
    assert_eq!(doc["ruleSet"], "newest");
    let providers = doc["providers"].as_array().unwrap();
    assert_eq!(providers.len(), c.providers.len() + 1 + c.clawhub_only.len());
    let by_id = |id: &str| providers.iter().find(|p| p["provider"] == id).unwrap();

    let anthropic = by_id("anthropic");
    assert_eq!(anthropic["origin"], "bundled");
    assert_eq!(anthropic["plugin"], "anthropic");
    assert_eq!(anthropic["apis"], serde_json::json!(["anthropic-messages"]));
    assert_eq!(anthropic["anyApi"], false);
    assert_eq!(anthropic["inPicker"], true);
    assert_eq!(anthropic["profiles"][0]["api"], "anthropic-messages");
    assert_eq!(anthropic["profiles"][0]["family"], "anthropic");

    let mistral = by_id("mistral");
    assert_eq!(
        (&mistral["origin"], &mistral["package"]),
        (&"npm".into(), &"@openclaw/mistral-provider".into())
    );
    assert_eq!(by_id("amazon-bedrock")["origin"], "stand-in");
    assert_eq!(by_id("vllm")["anyApi"], true);
    assert_eq!(by_id("vllm")["profiles"].as_array().unwrap().len(), c.apis.len());

    let groq = by_id("groq");
    assert_eq!(
        (&groq["origin"], &groq["plugin"]),
        (&"clawhub-only".into(), &serde_json::Value::Null)
    );
    assert_eq!(groq["inPicker"], false);
    let unowned = by_id("custom-provider");
    assert_eq!(unowned["origin"], "unowned fallback");
    assert!(
        unowned["profiles"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["family"] == "unowned-anthropic")
    );
    for p in providers {
        for x in p["profiles"].as_array().unwrap() {
            let family = x["family"].as_str().unwrap();
            assert!(replaylens::policy::Family::from_id(family).is_some(), "{family}");
        }
    }
}

#[test]
fn text_fits_80_columns_and_names_every_provider() {
    let text = stdout(&replaylens(&["providers"]));
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{} columns: {line}", line.chars().count());
    }
    assert!(text.starts_with("OpenClaw 2026.9.6 (rule set newest): "), "{text}");
    for id in catalog().provider_ids() {
        assert!(
            text.split(|c: char| c.is_whitespace() || c == ',').any(|w| w == id),
            "{id} missing:\n{text}"
        );
    }
    let anthropic = text.lines().find(|l| l.starts_with("anthropic ")).unwrap();
    assert!(
        anthropic.contains("bundled") && anthropic.ends_with("anthropic"),
        "{anthropic}"
    );
    assert!(text.contains("the unowned fallback policy applies"), "{text}");
}

#[test]
fn markdown_is_one_table_row_per_provider() {
    let md = stdout(&replaylens(&["providers", "--format", "markdown"]));
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| `")).collect();
    let c = catalog();
    assert_eq!(rows.len(), c.providers.len() + 1 + c.clawhub_only.len());
    assert!(md.starts_with("| provider | APIs | policy owner | origin |\n|---|---|---|---|\n"));
    assert!(
        rows.contains(&"| `anthropic` | `anthropic-messages` | `anthropic` | bundled |"),
        "{md}"
    );
    assert!(
        rows.contains(&"| `groq` | any | unowned fallback | clawhub-only |"),
        "{md}"
    );
    let origins = [
        Origin::Bundled,
        Origin::Npm,
        Origin::StandIn,
        Origin::ClawhubOnly,
        Origin::Unowned,
    ];
    for origin in origins {
        assert!(
            rows.iter().any(|r| r.ends_with(&format!("| {} |", origin.id()))),
            "{origin:?}"
        );
    }
    assert!(md.contains("ClawHub-only providers"), "{md}");
}

#[test]
fn an_older_rule_set_has_no_provider_list() {
    let out = replaylens(&["providers", "--openclaw", "2026.9.2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("provider list of OpenClaw 2026.9.6 only"), "{err}");
    assert!(out.stdout.is_empty());
    let out = replaylens(&["providers", "--openclaw", "2026.9.6", "--format", "json"]);
    assert!(stdout(&out).contains("\"ruleSet\": \"2026.9.6\""));
}

#[test]
fn an_unknown_provider_or_api_is_named_with_the_nearest_known_ones() {
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-sessions/anthropic-tool-repair.jsonl"
    );
    // Without --api an unknown provider is refused; with it, it runs with the warning.
    let out = replaylens(&["replay", sample, "--provider", "qwen-cloud", "--format", "json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(r#"unknown provider "qwen-cloud"; did you mean "qwencloud"?"#),
        "{err}"
    );
    let args = [
        "--provider",
        "qwen-cloud",
        "--api",
        "openai-completions",
        "--format",
        "json",
    ];
    let out = replaylens(&[&["replay", sample][..], &args].concat());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(r#"warning: unknown provider "qwen-cloud"; did you mean "qwencloud"?"#),
        "{err}"
    );
    let out = replaylens(&["policy", "--provider", "grok", "--api", "pi-message"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(r#"unknown provider "grok"; did you mean "groq"?"#),
        "{err}"
    );
    assert!(
        err.contains(r#"unknown API "pi-message"; did you mean "pi-messages"?"#),
        "{err}"
    );
    let out = replaylens(&["policy", "--provider", "olamma"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(r#"did you mean "ollama"?"#), "{err}");
    assert_eq!(out.status.code(), Some(2), "{err}");
    let out = replaylens(&["policy", "--provider", "my-gateway", "--api", "openai-completions"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "note: custom provider my-gateway over API openai-completions\n",
        "a custom provider over a given API is one note"
    );
}
