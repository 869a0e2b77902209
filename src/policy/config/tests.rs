use std::collections::BTreeMap;

use super::*;
use crate::policy::Installation;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

#[test]
fn json5_includes_and_env_references_resolve() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "base.json5",
        "{ models: { providers: { lab: { api: 'ollama', models: [{ id: 'a' }] } } }, list: [1] }",
    );
    let main = write(
        dir.path(),
        "openclaw.json",
        "// comment\n{\n  $include: './base.json5',\n  list: [2],\n  models: { providers: { lab: { apiKey: '${LAB_KEY}', baseUrl: '$${LITERAL}' } } },\n  extra: { kept: true },\n}\n",
    );
    let c = OpenClawConfig::load_with_env(&main, &env(&[("LAB_KEY", "sk-1")])).unwrap();
    let lab = &c.providers()["lab"];
    assert_eq!(lab.api.as_deref(), Some("ollama"));
    assert_eq!(lab.models[0].id, "a");
    assert_eq!(lab.other["apiKey"], "sk-1");
    assert_eq!(lab.other["baseUrl"], "${LITERAL}");
    assert_eq!(c.raw["list"], serde_json::json!([1, 2]));
    assert_eq!(c.raw["extra"]["kept"], true);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

#[test]
fn an_unset_variable_is_kept_with_a_warning_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let main = write(dir.path(), "openclaw.json", "{\n  a: 1,\n  key: '${NOPE_KEY}',\n}\n");
    let c = OpenClawConfig::load_with_env(&main, &env(&[])).unwrap();
    assert_eq!(c.raw["key"], "${NOPE_KEY}");
    assert_eq!(c.warnings.len(), 1);
    assert!(c.warnings[0].contains("openclaw.json:3:"), "{}", c.warnings[0]);
    assert!(c.warnings[0].contains("NOPE_KEY (at key)"), "{}", c.warnings[0]);
}

#[test]
fn the_configuration_env_block_fills_references() {
    let dir = tempfile::tempdir().unwrap();
    let main = write(
        dir.path(),
        "openclaw.json",
        "{ env: { vars: { MY_URL: 'http://x' } }, u: '${MY_URL}' }",
    );
    let c = OpenClawConfig::load_with_env(&main, &env(&[])).unwrap();
    assert_eq!(c.raw["u"], "http://x");
}

#[test]
fn what_cannot_be_resolved_is_a_sentence_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.json", "{\n  a: 1,\n  b: ,\n}\n");
    let e = OpenClawConfig::load_with_env(&bad, &env(&[])).unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.to_string().contains("bad.json:3: not valid JSON5"), "{e}");

    let missing = write(dir.path(), "m.json", "{\n  $include: 'gone.json5'\n}\n");
    let e = OpenClawConfig::load_with_env(&missing, &env(&[])).unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(
        e.to_string().contains("cannot read the included file `gone.json5`"),
        "{e}"
    );

    let escape = write(dir.path(), "e.json", "{ $include: '../../etc/passwd' }");
    let e = OpenClawConfig::load_with_env(&escape, &env(&[])).unwrap_err();
    assert!(e.to_string().contains("leaves the configuration's folder"), "{e}");

    write(dir.path(), "c1.json", "{ $include: 'c2.json' }");
    write(dir.path(), "c2.json", "{ $include: 'c1.json' }");
    let e = OpenClawConfig::load_with_env(&dir.path().join("c1.json"), &env(&[])).unwrap_err();
    assert!(e.to_string().contains("circular `$include`"), "{e}");
}

#[test]
fn the_location_follows_openclaw() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().to_str().unwrap();
    let l = locate(&env(&[("HOME", home)]));
    assert_eq!(l.config, dir.path().join(".openclaw/openclaw.json"));
    let l = locate(&env(&[("HOME", home), ("OPENCLAW_STATE_DIR", "/s")]));
    assert_eq!(l.config, Path::new("/s/openclaw.json"));
    let l = locate(&env(&[("HOME", home), ("OPENCLAW_CONFIG_PATH", "~/c.json5")]));
    assert_eq!(l.config, dir.path().join("c.json5"));
}

#[test]
fn installed_and_loaded_plugins_follow_enablement() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("kimi-plugin");
    std::fs::create_dir(&plugin).unwrap();
    write(&plugin, "openclaw.plugin.json", "{ \"id\": \"kimi\" }");
    let main = write(
        dir.path(),
        "openclaw.json",
        "{ plugins: { installs: { moonshot: { source: 'clawhub' }, opencode: {} }, load: { paths: ['./kimi-plugin'] }, deny: ['opencode'] } }",
    );
    let c = OpenClawConfig::load_with_env(&main, &env(&[])).unwrap();
    assert_eq!(
        plugins::installation(&c),
        Installation::Known(["kimi".to_owned(), "moonshot".to_owned()].into())
    );
    assert_eq!(plugins::disabled_by(&c, "opencode"), Some("plugins.deny lists it"));
}

#[test]
fn a_custom_provider_decides_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let main = write(
        dir.path(),
        "openclaw.json",
        "{ models: { providers: { Lab: { api: 'ollama', models: [{ id: 'm1' }, { id: 'm2', api: 'openai-completions' }] } } } }",
    );
    let c = OpenClawConfig::load_with_env(&main, &env(&[])).unwrap();
    let a = apply(&c, &crate::policy::Target::new(Some("lab"), None, Some("m1")));
    assert_eq!(a.target.api.as_deref(), Some("ollama"));
    assert_eq!(a.sources, [("api".to_owned(), "models.providers.Lab.api".to_owned())]);
    let a = apply(&c, &crate::policy::Target::new(Some("lab"), None, Some("m2")));
    assert_eq!(a.target.api.as_deref(), Some("openai-completions"));
    assert_eq!(a.sources[0].1, "models.providers.Lab.models[1].api");
    let a = apply(
        &c,
        &crate::policy::Target::new(Some("lab"), Some("anthropic-messages"), None),
    );
    assert_eq!(a.target.api.as_deref(), Some("anthropic-messages"));
    assert!(a.sources.is_empty());
}

#[test]
fn a_custom_provider_on_a_plugin_api_gets_that_plugin() {
    let dir = tempfile::tempdir().unwrap();
    let main = write(
        dir.path(),
        "openclaw.json",
        "{ models: { providers: { lab: { api: 'ollama' }, vx: { api: 'google-vertex' } } } }",
    );
    let c = OpenClawConfig::load_with_env(&main, &env(&[])).unwrap();
    assert_eq!(
        apply::api_plugin_provider(&c, "lab"),
        Some(("ollama".to_owned(), "models.providers.lab.api".to_owned()))
    );
    assert_eq!(apply::api_plugin_provider(&c, "vx"), None);
    let target = crate::policy::Target::new(Some("lab"), Some("ollama"), Some("qwen3"));
    let r = apply::resolve(&c, &target, crate::rule_set::RuleSet::newest(), &Installation::Unknown);
    assert_eq!(r.owner.plugin(), Some("ollama"));
    assert_eq!(r.target.provider.as_deref(), Some("lab"));
    assert_eq!(r.policy.drop_reasoning_from_history, Some(true));
}
