//! Random user configurations through replaylens' configuration reader and policy, and through
//! OpenClaw 2026.9.6 itself (`oracle/openclaw_chain.mjs` with `policyOnly` and the same
//! configuration per request): custom providers (`models.providers.<id>.api`, per-model `api`)
//! on every API of the release and on `ollama`, the ClawHub stand-in loaded from
//! `plugins.load.paths` or not, disabled by `plugins.entries.<id>.enabled`, `plugins.deny` or an
//! allow list. Each configuration is written to a file and read back with
//! `policy::config::OpenClawConfig`, so the reader, the custom-provider API and the
//! installation are all under test. ≥ 100 configurations per run, fresh seed each run (printed;
//! `REPLAYLENS_SEED` replays one).
//!
//! Needs Node ≥ 24.16 and `oracle/node_modules` (skipped with a note otherwise, failed with
//! `REPLAYLENS_REQUIRE_ORACLE=1`).

#[allow(dead_code)]
#[path = "oracle_support/oracle.rs"]
mod oracle;

use std::collections::BTreeSet;
use std::path::Path;

use replaylens::model::json::Value;
use replaylens::policy::Target;
use replaylens::policy::config::apply::resolve;
use replaylens::policy::config::{OpenClawConfig, apply, plugins};
use replaylens::policy::providers::catalog;
use replaylens::rule_set::RuleSet;
use serde_json::json;

const CONFIGS: usize = 120;

/// xorshift64*: enough for picking cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Policies equal: every key of either side; absent equals `false`.
fn same_policy(ours: &Value, theirs: &Value) -> bool {
    let keys: BTreeSet<String> = [ours, theirs]
        .iter()
        .filter_map(|v| v.as_object())
        .flat_map(|o| o.keys().map(|k| k.to_string()))
        .filter(|k| k != "family")
        .collect();
    let norm = |v: Option<&Value>| match v {
        None | Some(Value::Bool(false)) => None,
        Some(v) => Some(v.to_string()),
    };
    keys.iter()
        .all(|k| norm(ours.get(k.as_str())) == norm(theirs.get(k.as_str())))
}

/// One random configuration and the targets asked of it (provider, model; the API comes from
/// the configuration).
fn random_case(
    rng: &mut Rng,
    apis: &[String],
    npm_paths: &[String],
    stand_in: &str,
) -> (serde_json::Value, Vec<(String, String)>) {
    let custom = *rng.pick(&["lab", "corp-proxy", "my-gateway", "LiteLLM"]);
    let provider_api = rng.pick(apis).clone();
    let model_api = rng.pick(apis).clone();
    let model = *rng.pick(&["qwen3", "claude-sonnet-4-6", "gpt-5.1", "gemini-2.5-pro", "kimi-k2.6"]);
    let mut models = vec![json!({"id": "plain-model"})];
    if rng.chance(50) {
        models.push(json!({"id": model, "api": model_api}));
    } else {
        models.push(json!({"id": model}));
    }
    let mut paths: Vec<String> = npm_paths.to_vec();
    if rng.chance(60) {
        paths.push(stand_in.to_owned());
    }
    let mut plugins = json!({"load": {"paths": paths}});
    match rng.next() % 5 {
        0 => plugins["entries"] = json!({"amazon-bedrock": {"enabled": false}}),
        1 => plugins["deny"] = json!(["amazon-bedrock"]),
        2 => plugins["entries"] = json!({"amazon-bedrock": {"enabled": true}}),
        _ => {}
    }
    let config = json!({
        "models": {"providers": {custom: {"api": provider_api, "baseUrl": "http://127.0.0.1:9", "models": models}}},
        "plugins": plugins,
    });
    let bedrock_model = *rng.pick(&["anthropic.claude-sonnet-4-6", "amazon.nova-pro-v1:0"]);
    let targets = vec![
        (custom.to_owned(), model.to_owned()),
        (custom.to_owned(), "plain-model".to_owned()),
        ("amazon-bedrock".to_owned(), bedrock_model.to_owned()),
    ];
    (config, targets)
}

#[test]
fn random_configurations_resolve_as_openclaw_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(setup) = oracle::locate_or_skip(root, "random configurations") else {
        return;
    };
    let paths = oracle::plugin_paths(&setup);
    let stand_ins = root.join("oracle/plugins").to_string_lossy().into_owned();
    let (stand_in, npm): (Vec<String>, Vec<String>) = paths.into_iter().partition(|p| p.starts_with(&stand_ins));
    let stand_in = stand_in.first().expect("the oracle loads the ClawHub stand-in").clone();

    let seed = oracle::seed_from("REPLAYLENS_SEED");
    eprintln!("seed {seed} (REPLAYLENS_SEED={seed} replays this run)");
    let mut rng = Rng(seed);
    let mut apis: Vec<String> = catalog().apis.clone();
    apis.retain(|a| replaylens::policy::owner::no_route("x", a).is_none());
    if !apis.iter().any(|a| a == "ollama") {
        apis.push("ollama".to_owned());
    }

    let dir = tempfile::tempdir().expect("temp dir");
    let mut requests = Vec::new();
    let mut ours = Vec::new();
    for n in 0..CONFIGS {
        let (config, targets) = random_case(&mut rng, &apis, &npm, &stand_in);
        let file = dir.path().join(format!("openclaw-{n}.json"));
        std::fs::write(&file, serde_json::to_string_pretty(&config).unwrap()).unwrap();
        let read = OpenClawConfig::load(&file).unwrap_or_else(|e| panic!("{e}"));
        let installation = plugins::installation(&read);
        for (provider, model) in targets {
            let applied = apply(&read, &Target::new(Some(&provider), None, Some(&model)));
            let api = applied
                .target
                .api
                .clone()
                .unwrap_or_else(|| "bedrock-converse-stream".to_owned());
            let target = Target::new(Some(&provider), Some(&api), Some(&model));
            let resolved = resolve(&read, &target, RuleSet::newest(), &installation);
            requests.push(
                json!({"id": requests.len(), "provider": provider, "api": api, "model": model,
                       "messages": [], "policyOnly": true, "config": config})
                .to_string(),
            );
            ours.push((format!("config {n}: {provider} / {api} / {model}"), resolved));
        }
    }
    let mut pool = oracle::OraclePool::start(&setup, 2).unwrap_or_else(|e| panic!("oracle: {e}"));
    let replies = pool.run(&requests).unwrap_or_else(|e| panic!("oracle: {e}"));
    let mut found = Vec::new();
    for ((label, resolved), reply) in ours.iter().zip(&replies) {
        let Some(theirs) = reply.get("policy") else {
            found.push(format!("{label}: oracle error {reply}"));
            continue;
        };
        let their_plugin = reply.get("plugin").and_then(Value::as_str);
        let our_plugin = resolved.owner.registration().and(resolved.owner.plugin());
        if our_plugin != their_plugin {
            found.push(format!(
                "{label}: plugin ours {our_plugin:?}, OpenClaw {their_plugin:?}"
            ));
        }
        if !same_policy(&resolved.to_json(), theirs) {
            found.push(format!(
                "{label}: policy ours {} ({}), OpenClaw {theirs}",
                resolved.to_json(),
                resolved.owner.describe()
            ));
        }
    }
    eprintln!(
        "{CONFIGS} configurations, {} targets: {} differences",
        ours.len(),
        found.len()
    );
    assert!(
        found.is_empty(),
        "seed {seed}: {} differences:\n{}",
        found.len(),
        found.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}
