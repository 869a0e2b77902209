//! `replaylens payload SESSION [TARGET] [--stage stored|replay]`: the request body's
//! conversation part as the provider receives it, each item traced to its messages.

use std::io::Write;
use std::path::Path;

use replaylens::hygiene::ReplayOptions;
use replaylens::load::LoadOptions;
use replaylens::model::json::Value;
use replaylens::policy::Target;
use replaylens::text::escape_controls_single_line as esc;
use replaylens::wire::{WirePayload, WireStage, replay_payload_with, stored_payload_with, wire_target_with};
use serde::Serialize;

/// Longest string printed whole in the text output; longer ones (image data) are cut.
const TEXT_STRING_CAP: usize = 160;

/// The JSON document of `payload --format json`, serialized straight from the payload.
#[derive(Serialize)]
struct PayloadDocument<'a> {
    session: &'a str,
    target: &'a replaylens::policy::Target,
    api: &'static str,
    stage: WireStage,
    /// The conversation part of the request body, exactly as sent.
    body: Body<'a>,
    /// Per item of the body's array: where it came from.
    items: Origins<'a>,
    /// Size of `body` serialized compactly, in bytes.
    body_bytes: usize,
}

/// `{ "<messages|input|contents>": [...] }`, written item by item.
struct Body<'a>(&'a WirePayload);

impl Serialize for Body<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let payload = &self.0.payload;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(payload.api.conversation_key(), &Items(&payload.items))?;
        map.end()
    }
}

struct Items<'a>(&'a [replaylens::wire::WireItem]);

impl Serialize for Items<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|item| &item.value))
    }
}

/// Where each item came from, one `{path, replay, stored}` object per item.
struct Origins<'a>(&'a WirePayload);

#[derive(Serialize)]
struct ItemOrigin<'a> {
    path: String,
    replay: &'a [usize],
    stored: &'a [usize],
}

impl Serialize for Origins<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let w = self.0;
        let key = w.payload.api.conversation_key();
        serializer.collect_seq((0..w.payload.items.len()).map(|i| ItemOrigin {
            path: format!("{key}[{i}]"),
            replay: w.replay(i),
            stored: w.stored(i),
        }))
    }
}

/// Build and print the payload of one session for a target.
pub fn run(
    path: &Path,
    load: LoadOptions,
    target: &Target,
    options: &ReplayOptions,
    stage: WireStage,
    json: bool,
) -> anyhow::Result<()> {
    // One side at a time: the stored payload needs no replay; the replay payload is built
    // after the rules took the stored messages over.
    let (prepared, _) = super::load_prepared(path, load, target, options, !json)?;
    let session = prepared.session.id.clone();
    let target = prepared.resolved.target.clone();
    let config = prepared.options.config.clone();
    let config = config.as_deref();
    let w = match stage {
        WireStage::Stored => {
            let w = stored_payload_with(&prepared.transcript.messages, &target, config)?;
            drop(prepared);
            w
        }
        WireStage::Replay => {
            wire_target_with(&target, config)?;
            replay_payload_with(prepared.run().into_messages(), &target, config)?
        }
    };
    if json {
        let doc = PayloadDocument {
            session: &session,
            target: &target,
            api: w.payload.api.id(),
            stage,
            body: Body(&w),
            items: Origins(&w),
            body_bytes: w.payload.body_bytes(),
        };
        return super::print_json(&doc);
    }
    print_text(&session, &w)
}

fn print_text(session: &str, w: &WirePayload) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "session {} → {} / {} / {}: {} payload, {} items, {} bytes",
        esc(session),
        esc(super::or_unknown(&w.model.provider)),
        esc(w.payload.api.id()),
        esc(super::or_unknown(&w.model.model)),
        w.stage.as_str(),
        w.payload.items.len(),
        w.payload.body_bytes()
    )?;
    let key = w.payload.api.conversation_key();
    for (i, item) in w.payload.items.iter().enumerate() {
        writeln!(out, "\n{key}[{i}]  {}", origin_label(w, i))?;
        let shown = cap_strings(&item.value);
        let pretty = serde_json::to_string_pretty(&shown)?;
        for line in pretty.lines() {
            writeln!(out, "  {}", esc(line))?;
        }
    }
    Ok(())
}

fn origin_label(w: &WirePayload, i: usize) -> String {
    let list = replaylens::text::index_list;
    match w.stage {
        WireStage::Stored if w.stored(i).is_empty() => "← added by the transport".to_string(),
        WireStage::Stored => format!("← stored {}", list(w.stored(i), "s")),
        WireStage::Replay if w.replay(i).is_empty() => "← added by the transport".to_string(),
        WireStage::Replay if w.stored(i).is_empty() => format!("← replay {} (synthesized)", list(w.replay(i), "#")),
        WireStage::Replay => format!(
            "← replay {} ← stored {}",
            list(w.replay(i), "#"),
            list(w.stored(i), "s")
        ),
    }
}

/// A copy of `value` with every string longer than the cap cut, saying how much was left out.
fn cap_strings(value: &Value) -> Value {
    match value {
        Value::String(s) if s.chars().count() > TEXT_STRING_CAP => {
            let head: String = s.chars().take(TEXT_STRING_CAP).collect();
            Value::String(format!("{head}… ({} bytes in all)", s.len()).into())
        }
        Value::Array(items) => Value::Array(items.iter().map(cap_strings).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (*k, cap_strings(v))).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use replaylens::json;

    #[test]
    fn long_strings_are_cut_in_text_and_say_their_size() {
        let long = "A".repeat(1000);
        let capped = cap_strings(&json!({"data": long, "short": "ok", "list": [long]}));
        let data = capped["data"].as_str().unwrap();
        assert!(data.ends_with("… (1000 bytes in all)"));
        assert_eq!(data.chars().filter(|c| *c == 'A').count(), TEXT_STRING_CAP);
        assert_eq!(capped["short"], "ok");
        assert!(capped["list"][0].as_str().unwrap().len() < 200);
    }
}
