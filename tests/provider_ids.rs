//! Every provider id and alias of the release's catalog resolves to OpenClaw's owning plugin and
//! policy: each id of `src/policy/providers/openclaw-2026.9.6.json` (`ids`, written from the
//! release by `oracle/openclaw_providers.mjs`), written as given and in upper case, plus the
//! ClawHub aliases replaylens takes, on every API of the release with models that load and do
//! not load the plugins of hook aliases, goes through `oracle/openclaw_chain.mjs` (`policyOnly`)
//! and through `policy::resolve_with`, in two installations:
//!
//! - the oracle's own (its configuration loads the npm plugins and the stand-in of the ClawHub
//!   plugin `amazon-bedrock`): replaylens told that `amazon-bedrock` is installed (the ClawHub
//!   aliases are left out here: the stand-in registers no alias);
//! - a configuration that installs no ClawHub plugin (the stand-in left out of
//!   `plugins.load.paths`): replaylens told of a plain installation, so every ClawHub-only
//!   provider must equal OpenClaw's unowned fallback.
//!
//! Needs Node ≥ 24.16 and `oracle/node_modules` (skipped with a note otherwise, failed with
//! `REPLAYLENS_REQUIRE_ORACLE=1`).

#[allow(dead_code)]
#[path = "oracle_support/oracle.rs"]
mod oracle;

use std::collections::BTreeSet;
use std::path::Path;

use replaylens::model::json::Value;
use replaylens::policy::owner::clawhub_alias;
use replaylens::policy::providers::catalog;
use replaylens::policy::{Installation, Target, resolve_with};
use replaylens::rule_set::RuleSet;
use serde_json::json;

/// Models that load the openai and anthropic plugins (bare prefix, `vendor/`), and ones that load
/// none; the catalog's own model per API is added for each provider.
const MODELS: [&str; 5] = [
    "gpt-5.1",
    "claude-sonnet-4-6",
    "openai/gpt-oss-120b",
    "kimi-k2.6",
    "MiniMax-M2.7",
];

/// One id as written, on one API with one model.
struct Probe {
    provider: String,
    api: String,
    model: String,
}

fn probes() -> Vec<Probe> {
    let c = catalog();
    let mut ids: BTreeSet<String> = c.ids.iter().map(|e| e.id.clone()).collect();
    ids.extend(c.ids.iter().map(|e| e.id.to_uppercase()));
    ids.extend(
        [
            "kimi-coding",
            "moonshotai",
            "Z.AI",
            "aws-bedrock",
            "opencode-zen",
            "doubao",
        ]
        .map(str::to_owned),
    );
    ids.extend(["openai-codex", "my-gateway"].map(str::to_owned));
    let mut out = Vec::new();
    for id in &ids {
        let own = c.provider(&id.to_lowercase());
        for api in &c.apis {
            let mut models: Vec<String> = MODELS.iter().map(|m| (*m).to_owned()).collect();
            if let Some((_, m)) = own.and_then(|p| p.models.iter().find(|(a, _)| a == api)) {
                models.push(m.clone());
            }
            for model in models {
                out.push(Probe {
                    provider: id.clone(),
                    api: api.clone(),
                    model,
                });
            }
        }
    }
    out
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

/// Run every probe through the oracle with `config` and replaylens with `installation`; the
/// differences, one line each.
fn differences(
    pool: &mut oracle::OraclePool,
    probes: &[Probe],
    config: &serde_json::Value,
    installation: &Installation,
) -> Vec<String> {
    let requests: Vec<String> = probes
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({"id": i, "provider": p.provider, "api": p.api, "model": p.model, "messages": [],
                   "policyOnly": true, "config": config})
            .to_string()
        })
        .collect();
    let replies = pool.run(&requests).unwrap_or_else(|e| panic!("oracle: {e}"));
    let mut out = Vec::new();
    for (p, reply) in probes.iter().zip(&replies) {
        let target = Target::new(Some(&p.provider), Some(&p.api), Some(&p.model));
        let ours = resolve_with(&target, RuleSet::newest(), installation);
        let label = format!("{} / {} / {}", p.provider, p.api, p.model);
        let Some(theirs) = reply.get("policy") else {
            out.push(format!("{label}: oracle error {reply}"));
            continue;
        };
        let their_plugin = reply.get("plugin").and_then(Value::as_str);
        let our_plugin = ours.owner.registration().and(ours.owner.plugin());
        if our_plugin != their_plugin {
            out.push(format!(
                "{label}: plugin ours {our_plugin:?}, OpenClaw {their_plugin:?}"
            ));
        }
        if !same_policy(&ours.to_json(), theirs) {
            out.push(format!(
                "{label}: policy ours {} ({}), OpenClaw {theirs}",
                ours.to_json(),
                ours.owner.describe()
            ));
        }
    }
    out
}

#[test]
fn every_provider_id_and_alias_resolves_as_openclaw_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(setup) = oracle::locate_or_skip(root, "provider ids") else {
        return;
    };
    let paths = oracle::plugin_paths(&setup);
    let stand_ins = root.join("oracle/plugins");
    let stand_ins = stand_ins.to_string_lossy();
    let without_clawhub: Vec<&String> = paths.iter().filter(|p| !p.starts_with(stand_ins.as_ref())).collect();
    assert!(
        without_clawhub.len() < paths.len(),
        "the oracle loads a ClawHub stand-in: {paths:?}"
    );

    let probes = probes();
    let mut pool = oracle::OraclePool::start(&setup, 2).unwrap_or_else(|e| panic!("oracle: {e}"));
    // The stand-in registers the provider id alone, not the aliases replaylens takes for the
    // real ClawHub plugin: those are compared in the plain installation only.
    let comparable: Vec<Probe> = probes
        .iter()
        .filter(|p| clawhub_alias(&p.provider.to_lowercase()).is_none())
        .map(|p| Probe {
            provider: p.provider.clone(),
            api: p.api.clone(),
            model: p.model.clone(),
        })
        .collect();
    let oracle_state = Installation::Known(["amazon-bedrock".to_owned()].into());
    let mut found = differences(&mut pool, &comparable, &json!({}), &oracle_state);
    let plain = json!({"plugins": {"load": {"paths": without_clawhub}}});
    found.extend(
        differences(&mut pool, &probes, &plain, &Installation::plain())
            .into_iter()
            .map(|d| format!("(no ClawHub plugin) {d}")),
    );
    eprintln!(
        "{} provider ids, {} + {} probes in 2 installations: {} differences",
        catalog().ids.len(),
        comparable.len(),
        probes.len(),
        found.len()
    );
    let report = root.join("target/provider-ids-differences.txt");
    std::fs::write(&report, found.join("\n")).expect("write the differences");
    assert!(
        found.is_empty(),
        "{} differences (all in {}):\n{}",
        found.len(),
        report.display(),
        found.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}
