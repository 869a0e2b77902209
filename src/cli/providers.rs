//! `replaylens providers`: every provider a user of the OpenClaw release can pick, where its
//! replay policy comes from, and the family replaylens resolves on each profile the inspector's
//! picker offers (the list is `replaylens::policy::providers`).

use std::io::Write;

use replaylens::model::json::{Map, Value};
use replaylens::policy::providers::{Catalog, ListedProvider, Origin, catalog_for};
use replaylens::rule_set::RuleSet;

/// The width text output keeps to.
const WIDTH: usize = 80;

/// Output format of `providers` (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One block per provider, its profiles indented.
    Text,
    /// One JSON document on stdout.
    Json,
    /// A Markdown table (the README's).
    Markdown,
}

/// `--openclaw` named a rule set whose release's provider list replaylens does not hold.
#[derive(Debug, thiserror::Error)]
#[error(
    "replaylens holds the provider list of OpenClaw {known} only (rule sets newest and 2026.9.6); rule set {asked} reproduces {releases}"
)]
pub struct NoProviderList {
    known: String,
    asked: &'static str,
    releases: &'static str,
}

/// Print the providers for `rule_set` in `format`.
pub fn run(rule_set: &'static RuleSet, format: Format) -> anyhow::Result<()> {
    let Some(catalog) = catalog_for(rule_set) else {
        return Err(NoProviderList {
            known: replaylens::policy::providers::catalog().openclaw.clone(),
            asked: rule_set.name,
            releases: rule_set.releases,
        }
        .into());
    };
    let listing = catalog.listing(rule_set);
    match format {
        Format::Json => super::print_json(&to_json(catalog, rule_set, &listing)),
        Format::Text => print_text(catalog, rule_set, &listing),
        Format::Markdown => print_markdown(catalog, &listing),
    }
}

/// The policy owner as shown: the plugin id, noting a plugin without a replay hook (OpenClaw
/// then applies the unowned fallback), or the unowned fallback itself.
fn owner(p: &ListedProvider<'_>) -> String {
    match p.plugin {
        Some(plugin) if has_replay_hook(p.provider) => plugin.to_owned(),
        Some(plugin) => format!("{plugin} (no hook)"),
        None => "none (unowned fallback)".to_owned(),
    }
}

/// Whether the provider's plugin builds its own replay policy (`buildReplayPolicy`), found
/// through the registration the release resolves the id to.
fn has_replay_hook(provider: &str) -> bool {
    let owner = replaylens::policy::owner::owner(provider, "", &replaylens::policy::Installation::Unknown);
    owner
        .registration()
        .is_some_and(|r| replaylens::policy::plugin_family(r, "", "").is_some())
}

/// The JSON document of docs/providers.md.
fn to_json(catalog: &Catalog, rule_set: &RuleSet, listing: &[ListedProvider<'_>]) -> Value {
    let strings = |items: &[String]| Value::from_iter(items.iter().map(|s| Value::from(s.as_str())));
    let providers = listing.iter().map(|p| {
        let mut o = Map::new();
        o.insert("provider".into(), p.provider.into());
        o.insert("origin".into(), p.origin.id().into());
        o.insert("plugin".into(), p.plugin.map_or(Value::Null, Value::from));
        o.insert("package".into(), p.package.map_or(Value::Null, Value::from));
        o.insert("apis".into(), strings(p.apis));
        o.insert("anyApi".into(), p.apis.is_empty().into());
        o.insert("inPicker".into(), p.in_picker().into());
        let profiles = p.profiles.iter().map(|x| {
            let mut q = Map::new();
            q.insert("api".into(), x.api.as_str().into());
            q.insert("model".into(), x.model.as_str().into());
            q.insert("family".into(), x.family.id().into());
            Value::Object(q)
        });
        o.insert("profiles".into(), Value::from_iter(profiles));
        Value::Object(o)
    });
    let mut doc = Map::new();
    doc.insert("openclaw".into(), catalog.openclaw.as_str().into());
    doc.insert("ruleSet".into(), rule_set.name.into());
    doc.insert("apis".into(), strings(&catalog.apis));
    doc.insert("providers".into(), Value::from_iter(providers));
    Value::Object(doc)
}

/// `s` cut to `width` characters, the last one `…` when cut.
fn fit(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_owned()
    } else {
        let mut cut: String = s.chars().take(width.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

/// Words joined by `, ` in lines of at most [`WIDTH`] characters, each indented by two.
fn wrapped(words: &[String]) -> Vec<String> {
    let mut lines = vec![String::from(" ")];
    for (i, w) in words.iter().enumerate() {
        let piece = if i + 1 < words.len() {
            format!("{w},")
        } else {
            w.clone()
        };
        let line = lines.last_mut().expect("one line");
        if line.len() + 1 + piece.len() > WIDTH && line.len() > 1 {
            lines.push(format!("  {piece}"));
        } else {
            line.push(' ');
            line.push_str(&piece);
        }
    }
    lines
}

fn print_text(catalog: &Catalog, rule_set: &RuleSet, listing: &[ListedProvider<'_>]) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let (shown, clawhub): (Vec<_>, Vec<_>) = listing.iter().partition(|p| p.in_picker());
    let installed = shown.iter().filter(|p| p.origin != Origin::Unowned).count();
    writeln!(
        out,
        "OpenClaw {} (rule set {}): {installed} providers installed, {} on ClawHub only",
        catalog.openclaw,
        rule_set.name,
        clawhub.len()
    )?;
    writeln!(
        out,
        "(no hook): plugin without a replay policy; OpenClaw uses the unowned fallback"
    )?;
    writeln!(out)?;
    let id_w = shown.iter().map(|p| p.provider.len()).max().unwrap_or(0);
    let origin_w = shown.iter().map(|p| p.origin.id().len()).max().unwrap_or(0);
    let profiles = || shown.iter().flat_map(|p| &p.profiles);
    let api_w = profiles().map(|x| x.api.len()).max().unwrap_or(0);
    let family_w = profiles().map(|x| x.family.id().len()).max().unwrap_or(0);
    let model_max = profiles().map(|x| x.model.chars().count()).max().unwrap_or(0);
    let model_w = model_max.min(WIDTH.saturating_sub(2 + api_w + 2 + 2 + family_w));
    writeln!(out, "{:<id_w$}  {:<origin_w$}  POLICY OWNER", "PROVIDER", "ORIGIN")?;
    writeln!(out, "  {:<api_w$}  {:<model_w$}  FAMILY", "API", "MODEL")?;
    for p in &shown {
        let any = if p.apis.is_empty() { "  (any API)" } else { "" };
        let (id, origin) = (p.provider, p.origin.id());
        writeln!(out, "{id:<id_w$}  {origin:<origin_w$}  {}{any}", owner(p))?;
        for x in &p.profiles {
            let model = fit(&x.model, model_w);
            writeln!(out, "  {:<api_w$}  {model:<model_w$}  {}", x.api, x.family.id())?;
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "ClawHub-only, not installed with {} (the unowned fallback policy applies):",
        catalog.openclaw
    )?;
    let names: Vec<String> = clawhub.iter().map(|p| p.provider.to_owned()).collect();
    for line in wrapped(&names) {
        writeln!(out, "{line}")?;
    }
    if let Some(unowned) = shown.iter().find(|p| p.origin == Origin::Unowned) {
        let differing: Vec<String> = clawhub
            .iter()
            .filter(|p| !p.resolves_as_unowned(unowned))
            .map(|p| {
                let family = p
                    .profiles
                    .iter()
                    .zip(&unowned.profiles)
                    .find(|(a, b)| a.family != b.family);
                format!("{} ({})", p.provider, family.map_or("?", |(a, _)| a.family.id()))
            })
            .collect();
        if !differing.is_empty() {
            writeln!(
                out,
                "replaylens assumes the plugin installed and resolves its family for {} of them:",
                differing.len()
            )?;
            for line in wrapped(&differing) {
                writeln!(out, "{line}")?;
            }
        }
    }
    Ok(())
}

fn print_markdown(catalog: &Catalog, listing: &[ListedProvider<'_>]) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "| provider | APIs | policy owner | origin |")?;
    writeln!(out, "|---|---|---|---|")?;
    for p in listing {
        let apis = if p.apis.is_empty() {
            "any".to_owned()
        } else {
            p.apis.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ")
        };
        let provider = if p.origin == Origin::Unowned {
            format!("`{}` (any other id)", p.provider)
        } else {
            format!("`{}`", p.provider)
        };
        let owner = match p.plugin {
            Some(o) if has_replay_hook(p.provider) => format!("`{o}`"),
            Some(o) => format!("`{o}` (no replay hook: unowned fallback)"),
            None => "unowned fallback".to_owned(),
        };
        writeln!(out, "| {provider} | {apis} | {owner} | {} |", p.origin.id())?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "ClawHub-only providers are not installed with a plain OpenClaw {}, which gives them the unowned fallback \
         policy; when nothing says which plugins are installed, replaylens assumes the plugin is and says what \
         changes without it.",
        catalog.openclaw
    )?;
    Ok(())
}
