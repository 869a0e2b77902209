//! Every hygiene rule's tests, as data. `tests/rule_cases/<rule-id>.json` holds the cases of
//! one rule: an input transcript, the target, the rule set and the replay options; this harness
//! applies the rule (or the steps a case names) and compares the replay and the rewrites it
//! reports with the case's insta snapshot in `tests/rule_cases/snapshots/`. Each case is one
//! test (`cargo test --test rule_cases -- blank-text`); review a change with
//! `cargo insta review`. docs/testing.md says how to add a case.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use libtest_mimic::{Arguments, Failed, Trial};
use replaylens::hygiene::registry::by_step;
use replaylens::hygiene::{Action, Context, PendingRewrite, ReplayOptions, Rule, Working};
use replaylens::model::{Message, ModelEvent, ModelRef, Origin, StoredMessage};
use replaylens::policy::{Policy, ResolvedPolicy, Target, resolve};
use replaylens::rule_set::RuleSet;
use serde::Deserialize;
use serde_json::Value as Json;

/// One rule's case file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    rule: String,
    cases: Vec<Case>,
}

/// Where a case runs: target, rule set, options and what the session recorded.
#[derive(Deserialize, Clone, Default)]
struct Setting {
    #[serde(default)]
    target: Option<Target>,
    #[serde(default)]
    rule_set: Option<String>,
    #[serde(default)]
    options: Options,
    /// Replaces the resolved policy (a case about one flag).
    #[serde(default)]
    policy: Option<Json>,
    #[serde(default)]
    thinking_level: Option<String>,
    #[serde(default)]
    model_events: Vec<Event>,
}

/// The replay options a case sets; the rest keep their defaults.
#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields)]
struct Options {
    allowed_tools: Option<Vec<String>>,
    thinking: Option<bool>,
    image_max_px: Option<u32>,
    #[serde(default)]
    rule_set_from_session: bool,
}

/// A model selection recorded on the branch.
#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Event {
    before_message: usize,
    model: ModelJson,
    source: String,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct ModelJson {
    provider: Option<String>,
    api: Option<String>,
    model: Option<String>,
}

/// One gate check: whether a step runs in a setting.
#[derive(Deserialize, Clone)]
struct Gate {
    #[serde(flatten)]
    setting: Setting,
    #[serde(default)]
    step: Option<String>,
}

/// One case: either a transcript the steps are applied to, or a list of gate checks.
#[derive(Deserialize, Clone)]
struct Case {
    name: String,
    /// The steps applied in order (default: the file's rule).
    #[serde(default)]
    steps: Option<Vec<String>>,
    #[serde(flatten)]
    setting: Setting,
    /// Turns a rule earlier in the pipeline finished early (`Working::moved_on_turns`).
    #[serde(default)]
    moved_on_turns: Vec<u32>,
    /// The steps must change nothing and copy no message.
    #[serde(default)]
    untouched: bool,
    /// A second application to the replay must change nothing.
    #[serde(default)]
    second_pass: bool,
    #[serde(default)]
    input: Option<Vec<Json>>,
    #[serde(default)]
    gates: Option<Vec<Gate>>,
}

fn main() {
    let args = Arguments::from_args();
    let dir = cases_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/rule_cases")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut trials = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("case file");
        let raw: Json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(e) = known_keys(&raw) {
            panic!("{}: {e}", path.display());
        }
        let file: CaseFile = serde_json::from_value(raw).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned();
        assert_eq!(file.rule, stem, "{}: the file is named after its rule", path.display());
        assert!(
            replaylens::hygiene::registry::by_id(&file.rule).is_some(),
            "{}: no rule {}",
            path.display(),
            file.rule
        );
        for case in file.cases {
            let rule = file.rule.clone();
            trials.push(Trial::test(format!("{rule}: {}", case.name), move || run(&rule, &case)));
        }
    }
    let covered: Vec<String> = trials
        .iter()
        .map(|t| t.name().split(':').next().unwrap_or("").to_owned())
        .collect();
    trials.push(Trial::test("every rule has a case file", move || {
        let missing: Vec<&str> = replaylens::hygiene::registry::pipeline()
            .iter()
            .map(|r| r.info().id)
            .filter(|id| !covered.iter().any(|c| c == id))
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!("no cases for {missing:?}: add tests/rule_cases/<rule-id>.json").into())
        }
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// Keys a case (or a gate) may hold; `serde(flatten)` cannot refuse the others itself, and a
/// misspelt key would otherwise be a setting silently not applied.
fn known_keys(file: &Json) -> Result<(), String> {
    const SETTING: &[&str] = &[
        "target",
        "rule_set",
        "options",
        "policy",
        "thinking_level",
        "model_events",
    ];
    const CASE: &[&str] = &[
        "name",
        "steps",
        "moved_on_turns",
        "untouched",
        "second_pass",
        "input",
        "gates",
    ];
    const GATE: &[&str] = &["step"];
    let cases = file["cases"].as_array().ok_or("no `cases` array")?;
    for case in cases {
        let name = case["name"].as_str().unwrap_or("?");
        for key in case.as_object().ok_or("a case is not an object")?.keys() {
            if !SETTING.contains(&key.as_str()) && !CASE.contains(&key.as_str()) {
                return Err(format!("case {name:?}: unknown key {key:?}"));
            }
        }
        for gate in case["gates"].as_array().into_iter().flatten() {
            for key in gate.as_object().ok_or("a gate is not an object")?.keys() {
                if !SETTING.contains(&key.as_str()) && !GATE.contains(&key.as_str()) {
                    return Err(format!("case {name:?}: unknown gate key {key:?}"));
                }
            }
        }
    }
    Ok(())
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rule_cases")
}

/// Run one case and compare what it produced with its snapshot.
fn run(rule: &str, case: &Case) -> Result<(), Failed> {
    let text = match (&case.input, &case.gates) {
        (Some(input), None) => transcript_case(rule, case, input)?,
        (None, Some(gates)) => gate_case(rule, case, gates)?,
        _ => return Err("a case has either `input` or `gates`".into()),
    };
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(cases_dir().join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let name = format!("{rule}__{}", slug(&case.name));
    settings.bind(|| insta::assert_snapshot!(name, text));
    Ok(())
}

fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

/// The step objects a case names.
fn steps(rule: &str, names: Option<&[String]>) -> Result<Vec<&'static dyn Rule>, Failed> {
    let names = names.map_or_else(|| vec![rule.to_owned()], <[String]>::to_vec);
    names
        .iter()
        .map(|n| by_step(n).ok_or_else(|| Failed::from(format!("no step {n}"))))
        .collect()
}

/// Everything a rule reads besides the transcript, owned.
struct Built {
    resolved: ResolvedPolicy,
    options: ReplayOptions,
    events: Vec<ModelEvent>,
    thinking_level: Option<String>,
}

impl Built {
    fn new(setting: &Setting) -> Result<Self, Failed> {
        let target = setting.target.as_ref().ok_or("a case needs a target")?;
        let mut resolved = resolve(target);
        if let Some(policy) = &setting.policy {
            resolved.policy = serde_json::from_value::<Policy>(policy.clone()).map_err(|e| format!("policy: {e}"))?;
        }
        let rule_set = match &setting.rule_set {
            Some(name) => RuleSet::named(name).ok_or_else(|| format!("no rule set {name}"))?,
            None => RuleSet::newest(),
        };
        let defaults = ReplayOptions::default();
        let o = &setting.options;
        let options = ReplayOptions {
            allowed_tools: o.allowed_tools.clone(),
            thinking: o.thinking,
            image_max_px: o.image_max_px.unwrap_or(defaults.image_max_px),
            rule_set,
            rule_set_from_session: o.rule_set_from_session,
            config: None,
        };
        let events = setting
            .model_events
            .iter()
            .map(|e| ModelEvent {
                before_message: e.before_message,
                model: ModelRef {
                    provider: e.model.provider.clone(),
                    api: e.model.api.clone(),
                    model: e.model.model.clone(),
                },
                source: if e.source == "model_change" {
                    "model_change"
                } else {
                    "model-snapshot"
                },
            })
            .collect();
        Ok(Self {
            resolved,
            options,
            events,
            thinking_level: setting.thinking_level.clone(),
        })
    }

    fn context(&self) -> Context<'_> {
        Context {
            resolved: &self.resolved,
            options: &self.options,
            model_events: &self.events,
            thinking_level: self.thinking_level.as_deref(),
        }
    }

    fn describe(&self) -> String {
        let t = &self.resolved.target;
        format!(
            "{} / {} / {} · rule set {}",
            t.provider.as_deref().unwrap_or("-"),
            t.api.as_deref().unwrap_or("-"),
            t.model.as_deref().unwrap_or("-"),
            self.options.rule_set.name
        )
    }
}

fn messages(input: &[Json]) -> Result<Vec<Message>, Failed> {
    input
        .iter()
        .map(|m| {
            let value: replaylens::model::json::Value = serde_json::from_value(m.clone()).map_err(|e| e.to_string())?;
            Message::from_value(value).ok_or_else(|| Failed::from("an input message is not an object"))
        })
        .collect()
}

fn json_line(message: &Message) -> String {
    serde_json::to_string(message.as_map()).expect("serialize")
}

fn transcript_case(rule: &str, case: &Case, input: &[Json]) -> Result<String, Failed> {
    let built = Built::new(&case.setting)?;
    let ctx = built.context();
    let steps = steps(rule, case.steps.as_deref())?;
    let stored = messages(input)?;
    let borrowed: Vec<StoredMessage<'_>> = stored
        .iter()
        .map(|m| StoredMessage {
            entry_id: None,
            location: None,
            origin: Origin::Message,
            message: Cow::Borrowed(m),
        })
        .collect();
    let mut work = if case.untouched {
        Working::from_stored(&borrowed)
    } else {
        Working::from_messages(stored.clone())
    };
    work.moved_on_turns.extend(case.moved_on_turns.iter().copied());
    let mut rewrites = Vec::new();
    let mut out = String::new();
    for step in &steps {
        let on = if step.enabled(&ctx) {
            "runs"
        } else {
            "gate closed, applied anyway"
        };
        writeln!(out, "step: {} ({on})", step.step()).ok();
        step.apply(&ctx, &mut work, &mut rewrites);
    }
    writeln!(out, "target: {}", built.describe()).ok();
    check_rewrites(&steps, input.len(), &work, &rewrites)?;
    if case.untouched {
        if !rewrites.is_empty() {
            return Err(format!("expected no rewrites, got {rewrites:?}").into());
        }
        if let Some(m) = work.messages.iter().find(|m| matches!(m.message, Cow::Owned(_))) {
            return Err(format!("message {:?} was copied although nothing changed", m.source).into());
        }
        writeln!(out, "untouched: no rewrite, every message still borrowed").ok();
    }
    writeln!(out, "replay:").ok();
    for m in &work.messages {
        writeln!(out, "  #{} ← {:?} {}", m.uid, m.source, json_line(&m.message)).ok();
    }
    writeln!(out, "rewrites:").ok();
    for r in &rewrites {
        writeln!(
            out,
            "  {} {} {:?} → {:?}: {}",
            r.rule,
            r.action.as_str(),
            r.stored,
            r.result,
            r.detail
        )
        .ok();
    }
    let mut moved: Vec<u32> = work.moved_on_turns.iter().copied().collect();
    moved.sort_unstable();
    if !moved.is_empty() {
        writeln!(out, "moved on: {moved:?}").ok();
    }
    if let Some(refusal) = &work.refusal {
        writeln!(out, "refusal: {refusal}").ok();
    }
    if case.second_pass {
        second_pass(&steps, &ctx, &work)?;
        writeln!(out, "second pass: changes nothing").ok();
    }
    Ok(out)
}

/// The shape every rewrite must have, whatever the rule.
fn check_rewrites(
    steps: &[&dyn Rule],
    inputs: usize,
    work: &Working<'_>,
    rewrites: &[PendingRewrite],
) -> Result<(), Failed> {
    for r in rewrites {
        if !steps.iter().any(|s| s.info().id == r.rule) {
            return Err(format!("rewrite by {} which did not run", r.rule).into());
        }
        if let Some(i) = r.stored.iter().find(|&&i| i >= inputs) {
            return Err(format!("rewrite names stored index {i} of {inputs}: {r:?}").into());
        }
        let shape_ok = match r.action {
            Action::Insert => !r.result.is_empty(),
            Action::Drop => r.result.is_empty() && !r.stored.is_empty(),
            Action::Merge => r.stored.len() >= 2 && !r.result.is_empty(),
            Action::Modify | Action::Move => !r.stored.is_empty() && !r.result.is_empty(),
        };
        if !shape_ok {
            return Err(format!("a {} rewrite of the wrong shape: {r:?}", r.action.as_str()).into());
        }
    }
    let _ = work;
    Ok(())
}

/// Apply the steps again to their own replay: nothing may change.
fn second_pass(steps: &[&dyn Rule], ctx: &Context<'_>, work: &Working<'_>) -> Result<(), Failed> {
    let first: Vec<Message> = work.messages.iter().map(|m| m.message.clone().into_owned()).collect();
    let mut again = Working::from_messages(first.clone());
    let mut rewrites = Vec::new();
    for step in steps {
        step.apply(ctx, &mut again, &mut rewrites);
    }
    let twice: Vec<Message> = again.messages.into_iter().map(|m| m.message.into_owned()).collect();
    if twice != first || !rewrites.is_empty() {
        return Err(format!("a second pass changed the replay: {rewrites:?}").into());
    }
    Ok(())
}

fn gate_case(rule: &str, case: &Case, gates: &[Gate]) -> Result<String, Failed> {
    let mut out = String::new();
    for gate in gates {
        let built = Built::new(&gate.setting)?;
        let step = steps(rule, gate.step.as_ref().map(std::slice::from_ref))?[0];
        let on = step.enabled(&built.context());
        let mut extra = String::new();
        if let Some(level) = &gate.setting.thinking_level {
            write!(extra, " · thinking level {level}").ok();
        }
        if let Some(thinking) = gate.setting.options.thinking {
            write!(extra, " · --thinking {}", if thinking { "on" } else { "off" }).ok();
        }
        if gate.setting.policy.is_some() {
            extra.push_str(" · policy set by the case");
        }
        writeln!(
            out,
            "{} · {}{extra}: {}",
            step.step(),
            built.describe(),
            if on { "runs" } else { "off" }
        )
        .ok();
    }
    let _ = case;
    Ok(out)
}
