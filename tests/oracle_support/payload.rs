//! The wire-stage differential: replaylens' request bodies against those OpenClaw's own
//! transports build (`oracle/openclaw_payload.mjs`), for the same message arrays: the stored
//! messages as they are (what a naive client sends) and OpenClaw's own history projection of
//! them (what OpenClaw sends); and replaylens' whole replay of the stored messages (history and
//! stream stages, then its wire stage) against OpenClaw's body for its own history.

use std::collections::BTreeMap;

use replaylens::json;
use replaylens::model::Message;
use replaylens::model::json::Value;
use replaylens::wire::{WireApi, WireModel, build};

use super::cases::Case;
use super::check::oracle_messages;
use super::compare::{Difference, describe_image_data, neutralize_equivalent_images, value_difference};
use super::lens::replay_messages;
use super::oracle::OraclePool;

/// Most cases sent to the oracles at once.
const CHUNK_CASES: usize = 128;

/// One differing payload.
#[derive(Debug, Clone)]
pub struct PayloadFinding {
    /// The case id and which messages were converted (`stored` or `history`).
    pub case: String,
    /// The first difference.
    pub difference: Difference,
    /// The payload oracle request that shows it (the messages converted, pretty JSON).
    pub request: String,
}

/// What a payload run found.
#[derive(Debug, Default)]
pub struct PayloadTally {
    /// Payloads compared, by API.
    pub compared: BTreeMap<&'static str, usize>,
    /// Payloads the oracle could not build, by API and reason (no converter in the release,
    /// or its converter throws).
    pub oracle_errors: BTreeMap<(&'static str, &'static str), usize>,
    /// Every difference.
    pub findings: Vec<PayloadFinding>,
}

/// The replaylens body for `messages`.
pub fn lens_body(api: WireApi, messages: &[Value], case: &Case) -> Value {
    let owned: Vec<Message> = messages.iter().filter_map(|m| Message::from_value(m.clone())).collect();
    let refs: Vec<&Message> = owned.iter().collect();
    let model = WireModel::new(&case.target.provider, &case.target.api, &case.target.model);
    build(api, &refs, &model).body()
}

fn payload_request(id: usize, stage: &str, case: &Case, messages: &[Value]) -> String {
    json!({
        "id": format!("{id}:{stage}"),
        "provider": case.target.provider,
        "api": case.target.api,
        "model": case.target.model,
        "messages": messages,
    })
    .to_string()
}

/// What differs between replaylens' replay body and OpenClaw's only because each side ran its
/// own history: images each side's encoder re-encoded (compared by format and size, as in the
/// history differential) and message timestamps (a synthesized message takes the clock's; only
/// the bodies that carry whole messages show them).
pub fn neutralize_replay(ours: &mut Value, theirs: &mut Value) {
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => {
            a.shift_remove("timestamp");
            b.shift_remove("timestamp");
            for (key, va) in a.iter_mut() {
                if let Some(vb) = b.get_mut(key) {
                    neutralize_replay(va, vb);
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (va, vb) in a.iter_mut().zip(b.iter_mut()) {
                neutralize_replay(va, vb);
            }
        }
        (Value::String(a), Value::String(b)) if a != b && a.len() > 64 => {
            if let (Some(x), Some(y)) = (describe_image_data(a), describe_image_data(b))
                && x == y
            {
                *a = x.clone().into();
                *b = y.into();
            }
        }
        _ => {}
    }
}

/// Run every case whose API has a converter: history through the chain oracle, then both
/// message arrays through the payload oracle and through replaylens.
pub fn run_payloads(chain: &mut OraclePool, payload: &mut OraclePool, cases: &[Case]) -> Result<PayloadTally, String> {
    let mut tally = PayloadTally::default();
    let wired: Vec<(&Case, WireApi)> = cases
        .iter()
        .filter_map(|c| WireApi::for_target(&c.target.provider, &c.target.api).map(|api| (c, api)))
        .collect();
    for chunk in wired.chunks(CHUNK_CASES) {
        let chain_requests: Vec<String> = chunk
            .iter()
            .enumerate()
            .map(|(i, (case, _))| case.request_line(&json!(i)))
            .collect();
        let histories = chain.run(&chain_requests)?;
        let mut requests = Vec::new();
        let mut inputs: Vec<(usize, &'static str, Vec<Value>)> = Vec::new();
        for (i, ((case, _), reply)) in chunk.iter().zip(&histories).enumerate() {
            requests.push(payload_request(i, "stored", case, &case.messages));
            inputs.push((i, "stored", case.messages.to_vec()));
            if let Ok(history) = oracle_messages(reply) {
                requests.push(payload_request(i, "history", case, history));
                inputs.push((i, "history", history.to_vec()));
            }
        }
        let replies = payload.run(&requests)?;
        for ((i, stage, messages), reply) in inputs.iter().zip(&replies) {
            let (case, api) = chunk[*i];
            if let Some(err) = reply.get("error").and_then(Value::as_str) {
                // OpenClaw cannot build this body at all: no converter in the release, or its
                // converter throws (e.g. a stored tool result whose content is a string).
                let why = if err.contains("no converter") {
                    "no converter"
                } else {
                    "OpenClaw throws"
                };
                *tally.oracle_errors.entry((api.id(), why)).or_default() += 1;
                continue;
            }
            *tally.compared.entry(api.id()).or_default() += 1;
            let theirs = reply.get("payload").cloned().unwrap_or(Value::Null);
            let mut bodies = vec![(*stage, lens_body(api, messages, case), messages.clone())];
            if *stage == "history"
                && let Some(replay) = replay_messages(&case.messages, &case.target, case.tools.as_deref())?
            {
                *tally.compared.entry(api.id()).or_default() += 1;
                bodies.push(("replay", lens_body(api, &replay, case), case.messages.to_vec()));
            }
            for (stage, mut ours, messages) in bodies {
                let mut theirs = theirs.clone();
                if stage == "replay" {
                    neutralize_replay(&mut ours, &mut theirs);
                }
                // Images a transport re-encodes compare by format and size: the encoders differ.
                neutralize_equivalent_images(&mut ours, &mut theirs);
                let Some(difference) = value_difference(&ours, &theirs) else {
                    continue;
                };
                let id = format!("{}#{stage}", case.id);
                let request = serde_json::to_string_pretty(&json!({
                    "id": id, "provider": case.target.provider, "api": case.target.api,
                    "model": case.target.model, "messages": messages,
                }))
                .unwrap_or_default();
                tally.findings.push(PayloadFinding {
                    case: id,
                    difference,
                    request,
                });
            }
        }
    }
    Ok(tally)
}
