//! Random user configurations through the whole replay, beside OpenClaw 2026.9.6: policy,
//! history and payload. Each configuration declares a custom provider on a random API of the
//! release (core and plugin APIs: `ollama`, …) with a random model entry (`reasoning`, `input`,
//! `compat` flags the OpenAI-compatible converter reads, `compat.supportsReasoningEffort`,
//! `params.canonicalModelId`, `baseUrl`), disabled plugins and an image limit
//! (`agents.defaults.imageMaxDimensionPx`). It is written to a file and read back by
//! `policy::config::OpenClawConfig`; replaylens replays a generated transcript under it with
//! no API given (the configuration names it), and OpenClaw resolves the model object itself
//! (`resolveModelAsync`, `resolveModel` in `oracle/openclaw_chain.mjs` and
//! `oracle/openclaw_payload.mjs`) with the same configuration:
//!
//! - policy and the API: `policy` of the chain oracle against the replay's resolved policy;
//! - history: the chain oracle's messages against the replay's history stage;
//! - payload: OpenClaw's body for its own history against replaylens' body for that history
//!   (the converter alone), and against replaylens' body for its whole replay.
//!
//! ≥ 100 configurations per run (`REPLAYLENS_CONFIG_REPLAY_CASES`), fresh seed each run (printed;
//! `REPLAYLENS_SEED` replays one). Needs Node ≥ 24.16 and `oracle/node_modules` (skipped with a
//! note otherwise, failed with `REPLAYLENS_REQUIRE_ORACLE=1`).

#[allow(dead_code, reason = "the shared oracle support serves several differentials")]
#[path = "oracle_support/mod.rs"]
mod oracle_support;

use std::path::Path;
use std::sync::Arc;

use oracle_support::check::oracle_messages;
use oracle_support::compare::{compare, compare_policy, neutralize_equivalent_images, value_difference};
use oracle_support::generate::generate;
use oracle_support::lens::{LensMessage, RuleSetName};
use oracle_support::oracle::{self, OraclePool, OracleSetup};
use oracle_support::rng::Rng;
use oracle_support::targets::TargetSpec;
use replaylens::hygiene::ReplayOptions;
use replaylens::load::message_array::load_message_array;
use replaylens::model::Message;
use replaylens::model::json::Value;
use replaylens::policy::Target;
use replaylens::policy::config::{OpenClawConfig, image_max_dimension_px};
use replaylens::replay::replay_transcript;
use replaylens::wire::{WireApi, WirePayload, WireStage, build, payload_of, wire_target_with};
use serde_json::json;

const DEFAULT_CONFIGS: usize = 100;

/// Custom provider ids no catalog provider has (any case: OpenClaw normalizes it).
const PROVIDERS: [&str; 5] = ["lab", "corp-proxy", "my-gateway", "Acme-LLM", "edge-box"];
/// Model ids across families: Claude (thinking rules), reasoning-content models, Gemini, GPT.
const MODELS: [&str; 8] = [
    "qwen3-coder",
    "claude-sonnet-4-6",
    "claude-3-7-sonnet-20250219",
    "kimi-k2.6",
    "gemini-2.5-pro",
    "gpt-5.1",
    "deepseek-r1",
    "anthropic/claude-opus-4-1",
];
const BASE_URLS: [&str; 4] = [
    "https://llm.example.com/v1",
    "http://127.0.0.1:8000/v1",
    "https://proxy.corp.example/v1/",
    "https://api.deepseek.com/v1",
];
const CANONICAL_IDS: [&str; 3] = ["claude-opus-5-5", "claude-sonnet-4-6", "claude-3-5-sonnet-20241022"];
const THINKING_FORMATS: [&str; 5] = ["openai", "deepseek", "zai", "together", "openrouter"];
const COMPAT_FLAGS: [&str; 6] = [
    "requiresToolResultName",
    "requiresAssistantAfterToolResult",
    "requiresThinkingAsText",
    "requiresReasoningContentOnAssistantMessages",
    "requiresStringContent",
    "strictMessageKeys",
];

/// One random configuration and the target asked of it (provider, model; no API).
fn random_config(rng: &mut Rng, apis: &[String], plugin_paths: &[String]) -> (serde_json::Value, String, String) {
    let provider = (*rng.pick(&PROVIDERS)).to_owned();
    let model = (*rng.pick(&MODELS)).to_owned();
    let provider_api = rng.pick(apis).clone();
    let mut entry = json!({"id": model});
    if rng.chance(25) {
        entry["api"] = json!(rng.pick(apis));
    }
    match rng.below(3) {
        0 => entry["reasoning"] = json!(true),
        1 => entry["reasoning"] = json!(false),
        _ => {}
    }
    match rng.below(3) {
        0 => entry["input"] = json!(["text", "image"]),
        1 => entry["input"] = json!(["text"]),
        _ => {}
    }
    let mut compat = serde_json::Map::new();
    if rng.chance(30) {
        compat.insert("supportsReasoningEffort".into(), json!(false));
    }
    for flag in COMPAT_FLAGS {
        if rng.chance(15) {
            compat.insert(flag.into(), json!(rng.chance(70)));
        }
    }
    if rng.chance(20) {
        compat.insert("thinkingFormat".into(), json!(rng.pick(&THINKING_FORMATS)));
    }
    if rng.chance(15) {
        compat.insert("cacheControlFormat".into(), json!("anthropic"));
    }
    if !compat.is_empty() {
        entry["compat"] = serde_json::Value::Object(compat);
    }
    if rng.chance(25) {
        entry["params"] = json!({"canonicalModelId": rng.pick(&CANONICAL_IDS)});
    }
    if rng.chance(15) {
        entry["baseUrl"] = json!(rng.pick(&BASE_URLS));
    }
    // The target is the declared model, or another model of the provider (the configured
    // fallback model). Not on `bedrock-converse-stream`: OpenClaw 2026.9.6 resolves no
    // fallback model there ("Unknown model"), and replaylens does not yet say so.
    // Nor under a vendor's base URL (`api.deepseek.com`): the fallback model is then
    // "Unknown model" too.
    let base_url = *rng.pick(&BASE_URLS);
    let undeclared = provider_api != "bedrock-converse-stream" && !base_url.contains("deepseek") && rng.chance(20);
    let target_model = if undeclared { "plain-model".to_owned() } else { model };
    let mut plugins = json!({"load": {"paths": plugin_paths}});
    match rng.below(4) {
        0 => plugins["entries"] = json!({"amazon-bedrock": {"enabled": false}}),
        1 => plugins["deny"] = json!(["amazon-bedrock"]),
        _ => {}
    }
    let mut config = json!({
        "models": {"providers": {provider.clone(): {
            "api": provider_api,
            "baseUrl": base_url,
            "apiKey": "sk-planted-secret-never-shown",
            "models": [entry, {"id": "spare-model"}],
        }}},
        "plugins": plugins,
    });
    match rng.below(4) {
        0 => config["agents"] = json!({"defaults": {"imageMaxDimensionPx": 64}}),
        1 => config["agents"] = json!({"defaults": {"imageMaxDimensionPx": 700}}),
        2 => config["agents"] = json!({"defaults": {"imageMaxDimensionPx": 2048}}),
        _ => {}
    }
    (config, provider, target_model)
}

/// What replaylens made of one configured case.
struct Ours {
    label: String,
    target: Target,
    policy: Value,
    history: Vec<LensMessage>,
    /// The body of the whole replay, when the API has a converter and OpenClaw would send.
    replay_body: Option<Value>,
    config: Arc<OpenClawConfig>,
}

fn replay_ours(
    label: String,
    config: Arc<OpenClawConfig>,
    provider: &str,
    model: &str,
    messages: &[Value],
    tools: Option<&[String]>,
) -> Ours {
    let bytes = serde_json::to_vec(messages).expect("messages serialize");
    let session = load_message_array(Path::new("config-case.json"), &bytes).expect("generated array loads");
    let options = ReplayOptions {
        allowed_tools: tools.map(<[String]>::to_vec),
        image_max_px: image_max_dimension_px(&config).unwrap_or(ReplayOptions::default().image_max_px),
        config: Some(Arc::clone(&config)),
        // The release the oracle runs.
        rule_set: replaylens::rule_set::RuleSet::named("2026.9.6").expect("the pinned rule set"),
        ..ReplayOptions::default()
    };
    let replay = replay_transcript(
        session.transcript(),
        &Target::new(Some(provider), None, Some(model)),
        &options,
    );
    let history = replay
        .projection
        .history_stage()
        .iter()
        .map(|m| LensMessage {
            value: replaylens::model::json::to_value(m.message.as_ref()).expect("message serializes"),
            synthesized: m.source.is_empty(),
        })
        .collect();
    let replay_body = (replay.projection.refusal.is_none() && replay.resolved.no_route.is_none())
        .then(|| payload_of(&replay, WireStage::Replay).ok())
        .flatten()
        .map(|w: WirePayload| w.payload.body());
    Ours {
        label,
        target: replay.resolved.target.clone(),
        policy: replay.resolved.to_json(),
        history,
        replay_body,
        config,
    }
}

/// replaylens' body for OpenClaw's own history (the converter alone), under the configuration.
fn body_of(ours: &Ours, history: &[Value]) -> Option<(WireApi, Value)> {
    let (api, model) = wire_target_with(&ours.target, Some(&ours.config)).ok()?;
    let owned: Vec<Message> = history.iter().filter_map(|m| Message::from_value(m.clone())).collect();
    let refs: Vec<&Message> = owned.iter().collect();
    Some((api, build(api, &refs, &model).body()))
}

fn seed() -> u64 {
    oracle_support::oracle::seed_from("REPLAYLENS_SEED")
}

#[test]
fn random_configurations_replay_and_send_as_openclaw_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Some(setup) = oracle::locate_or_skip(root, "configured replay differential") else {
        return;
    };
    let payload_setup = OracleSetup {
        script: root.join("oracle/openclaw_payload.mjs"),
        ..setup.clone()
    };
    let plugin_paths = oracle::plugin_paths(&setup);
    let configs = std::env::var("REPLAYLENS_CONFIG_REPLAY_CASES")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(DEFAULT_CONFIGS);
    let seed = seed();
    eprintln!("seed {seed} (REPLAYLENS_SEED={seed} replays this run)");
    let mut rng = Rng::for_case(seed, u64::MAX);
    let mut apis: Vec<String> = replaylens::policy::providers::catalog().apis.clone();
    apis.retain(|a| replaylens::policy::owner::no_route("x", a).is_none());
    if !apis.iter().any(|a| a == "ollama") {
        apis.push("ollama".to_owned());
    }
    // OpenClaw 2026.9.6 resolves a custom provider on `pi-messages` to another API
    // (`anthropic-messages` for a declared model, `openai-completions` for any other):
    // replaylens does not model that yet.
    apis.retain(|a| a != "pi-messages");
    // A custom provider declared on `github-copilot` gets that plugin's dynamic model hooks
    // (`createGithubCopilotDynamicModelHooks`: image input, its own base URL), which replaylens
    // does not model yet.
    apis.retain(|a| a != "github-copilot");

    let dir = tempfile::tempdir().expect("temp dir");
    let mut ours = Vec::new();
    let mut chain_requests = Vec::new();
    let mut cases = Vec::new();
    for n in 0..configs {
        let (config, provider, model) = random_config(&mut rng, &apis, &plugin_paths);
        let file = dir.path().join(format!("openclaw-{n}.json"));
        std::fs::write(&file, serde_json::to_string_pretty(&config).unwrap()).unwrap();
        let read = Arc::new(OpenClawConfig::load(&file).unwrap_or_else(|e| panic!("{e}")));
        let api = replaylens::policy::config::apply(&read, &Target::new(Some(&provider), None, Some(&model)))
            .target
            .api
            .unwrap_or_default();
        let generated = generate(seed, n as u64, &TargetSpec::new(&provider, &api, &model));
        let label = format!("config {n} : {provider} / {api} / {model}");
        let mine = replay_ours(
            label,
            read,
            &provider,
            &model,
            &generated.messages,
            generated.tools.as_deref(),
        );
        chain_requests.push(
            json!({"id": n, "provider": provider, "api": api, "model": model, "tools": generated.tools,
                   "messages": generated.messages, "config": config, "resolveModel": true})
            .to_string(),
        );
        cases.push((config, provider, model));
        ours.push(mine);
    }

    let mut chain = OraclePool::start(&setup, 2).unwrap_or_else(|e| panic!("oracle: {e}"));
    let replies = chain.run(&chain_requests).unwrap_or_else(|e| panic!("oracle: {e}"));
    drop(chain);
    let mut found: Vec<String> = Vec::new();
    let mut payload_requests = Vec::new();
    let mut payload_of_case = Vec::new();
    for (n, (mine, reply)) in ours.iter().zip(&replies).enumerate() {
        let Some(theirs) = reply.get("policy") else {
            found.push(format!("{}: oracle error {reply}", mine.label));
            continue;
        };
        if let Some(e) = reply.get("modelError") {
            found.push(format!("{}: OpenClaw resolves no model: {e}", mine.label));
            continue;
        }
        let their_api = reply.pointer("/model/api").and_then(Value::as_str);
        if their_api != mine.target.api.as_deref() {
            found.push(format!(
                "{}: API ours {:?}, OpenClaw {their_api:?}",
                mine.label, mine.target.api
            ));
        }
        if let Some(d) = compare_policy(&mine.policy, theirs) {
            found.push(format!("{}: policy {d:?}", mine.label));
        }
        let Ok(history) = oracle_messages(reply) else {
            continue;
        };
        let outcome = compare(&mine.history, history, RuleSetName::Pinned);
        if let Some(d) = outcome.difference {
            found.push(format!("{}: history {d:?}", mine.label));
        }
        let (config, provider, model) = &cases[n];
        if WireApi::for_target(provider, mine.target.api.as_deref().unwrap_or_default()).is_some() {
            payload_requests.push(
                json!({"id": n, "provider": provider, "api": mine.target.api, "model": model,
                       "messages": history, "config": config, "resolveModel": true})
                .to_string(),
            );
            payload_of_case.push((n, history.to_vec()));
        }
    }
    let mut payload = OraclePool::start(&payload_setup, 2).unwrap_or_else(|e| panic!("payload oracle: {e}"));
    let bodies = payload
        .run(&payload_requests)
        .unwrap_or_else(|e| panic!("payload oracle: {e}"));
    let (mut compared, mut no_body) = (0, 0);
    for ((n, history), reply) in payload_of_case.iter().zip(&bodies) {
        let mine = &ours[*n];
        let Some(theirs) = reply.get("payload") else {
            // OpenClaw builds no body here (its converter throws or has no route): nothing to
            // compare, as in the payload differential.
            no_body += 1;
            continue;
        };
        compared += 1;
        let Some((_, mut converted)) = body_of(mine, history) else {
            found.push(format!(
                "{}: replaylens has no converter, OpenClaw sends {theirs}",
                mine.label
            ));
            continue;
        };
        let mut their_copy = theirs.clone();
        neutralize_equivalent_images(&mut converted, &mut their_copy);
        if let Some(d) = value_difference(&converted, &their_copy) {
            found.push(format!("{}: payload of OpenClaw's history {d:?}", mine.label));
        }
        if let Some(mut whole) = mine.replay_body.clone() {
            let mut their_copy = theirs.clone();
            oracle_support::payload::neutralize_replay(&mut whole, &mut their_copy);
            neutralize_equivalent_images(&mut whole, &mut their_copy);
            if let Some(d) = value_difference(&whole, &their_copy) {
                found.push(format!("{}: payload of the replay {d:?}", mine.label));
            }
        }
    }
    let saved = root.join("target/oracle-failures/config-replay");
    if !found.is_empty() {
        let _ = std::fs::create_dir_all(&saved);
        for (n, request) in chain_requests.iter().enumerate() {
            if found.iter().any(|f| f.starts_with(&format!("config {n} "))) {
                let _ = std::fs::write(saved.join(format!("{n}.json")), request);
            }
        }
        eprintln!("the failing cases' requests are in {}", saved.display());
    }
    eprintln!(
        "{configs} configurations: policy and history compared for each, {compared} payloads compared ({no_body} bodies OpenClaw does not build): {} differences",
        found.len()
    );
    assert!(
        found.is_empty(),
        "seed {seed}: {} differences:\n{}",
        found.len(),
        found.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
    );
}
