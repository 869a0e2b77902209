//! `replaylens show SESSION`: the stored active-branch messages, the session's own target
//! and what the file holds beyond them.

use std::io::Write;
use std::path::Path;

use replaylens::export::json::{StoredArray, stored_array};
use replaylens::load::LoadOptions;
use replaylens::model::{Hidden, ModelRef, ModelSource};
use replaylens::policy::config::OpenClawConfig;
use replaylens::text::escape_controls_single_line as esc;
use serde::Serialize;

use super::describe;

/// The `show --format json` document.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ShowDocument<'a, 's> {
    /// The session id.
    session: &'a str,
    /// The format it was read as.
    format: &'static str,
    /// The session's own target (what a replay without a target uses).
    target: &'a ModelRef,
    /// Where the target was read (`model-change`, `assistant`, `header`, `database`,
    /// `mapped`); null when the session names no model.
    target_source: Option<&'static str>,
    /// The latest thinking level on the branch (or the header's).
    thinking_level: Option<&'a str>,
    /// The leaf the active branch was walked from.
    leaf_id: Option<&'a str>,
    /// Messages of the file the stored transcript leaves out, by reason.
    hidden: &'a Hidden,
    /// `hidden` in one sentence; null when nothing is hidden.
    hidden_note: Option<String>,
    /// The OpenClaw configuration read (its path; null: none) and the API it gives the
    /// session's provider.
    configuration: Option<Configured>,
    /// The stored messages (the `stored` array of `replay --format json`).
    stored: StoredArray<'a, 's>,
}

/// What `show` says of the configuration: its path, never its content.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Configured {
    /// The file read.
    path: String,
    /// The API the configuration gives the session's provider, and the field that says so.
    api: Option<(String, String)>,
}

/// The configuration as `show` names it, with the API it gives the session's own provider
/// (a custom provider's `models.providers.<id>.api`, as OpenClaw's model resolution reads it).
fn configured(config: &OpenClawConfig, model: &ModelRef) -> Configured {
    let open = replaylens::policy::Target::new(model.provider.as_deref(), None, model.model.as_deref());
    let applied = replaylens::policy::config::apply(config, &open);
    Configured {
        path: config.path.display().to_string(),
        api: applied
            .target
            .api
            .zip(applied.sources.into_iter().next().map(|(_, field)| field)),
    }
}

/// Print the stored transcript of one session.
pub fn run(path: &Path, load: LoadOptions, config: Option<&OpenClawConfig>, json_out: bool) -> anyhow::Result<()> {
    // Only the transcript is shown: the rest of each message entry is not held.
    let s = super::load_transcript_only(path, load)?;
    let t = s.transcript();
    super::report(&s.diagnostics);
    super::report(&t.diagnostics);
    let mut out = std::io::stdout().lock();
    let configuration = config.map(|c| configured(c, &t.model));
    if json_out {
        super::print_json(&ShowDocument {
            session: &s.id,
            format: s.format.as_str(),
            target: &t.model,
            target_source: t.model_source.map(ModelSource::id),
            thinking_level: t.thinking_level.as_deref(),
            leaf_id: t.leaf_id.as_deref(),
            hidden: &t.hidden,
            hidden_note: t.hidden.sentence(),
            configuration,
            stored: stored_array(&t.messages),
        })?;
        return Ok(());
    }
    writeln!(
        out,
        "session {} ({}), {} stored messages",
        esc(&s.id),
        s.format.as_str(),
        t.messages.len()
    )?;
    writeln!(out, "target: {}", target_line(&t.model, t.model_source))?;
    if let Some(c) = &configuration {
        write!(out, "configuration: {}", esc(&c.path))?;
        if let Some((api, field)) = &c.api {
            write!(out, " (api {} from {})", esc(api), esc(field))?;
        }
        writeln!(out)?;
    }
    if let Some(note) = t.hidden.sentence() {
        writeln!(out, "{}", esc(&note))?;
    }
    if let Some(c) = &t.compaction {
        writeln!(
            out,
            "{} {} applied: {} earlier branch entries replaced",
            esc(c.kind),
            esc(c.entry_id.as_deref().unwrap_or("?")),
            c.entries_cut
        )?;
    }
    for (i, m) in t.messages.iter().enumerate() {
        let head = format!("#{i:<4}");
        describe::write_message(&mut out, &head, m.entry_id.as_deref().unwrap_or("-"), &m.message)?;
    }
    Ok(())
}

/// `anthropic / anthropic-messages / claude-sonnet-4-6 (from the last assistant turn)`, or
/// what a session naming no model means. Escaped.
pub fn target_line(model: &ModelRef, source: Option<ModelSource>) -> String {
    let Some(source) = source else {
        return "none: the session names no model (only transcript-only rows, or no assistant turn); \
                a replay needs a target given with --provider/--api/--model"
            .to_owned();
    };
    let part = |p: &Option<String>| esc(p.as_deref().unwrap_or("?")).into_owned();
    let from = match source {
        ModelSource::ModelChange => "from the last model_change",
        ModelSource::Assistant => "from the last assistant turn",
        ModelSource::Header => "from the session header",
        ModelSource::Database => "from the database's session window",
        ModelSource::Mapped => "from the agent's file",
    };
    format!(
        "{} / {} / {} ({from})",
        part(&model.provider),
        part(&model.api),
        part(&model.model)
    )
}
