//! `$include` and `${VAR}` as OpenClaw resolves them: `IncludeProcessor`
//! (`src/config/includes.ts`: relative to the including file, confined to the configuration's
//! folder and `OPENCLAW_INCLUDE_ROOTS`, depth 10, no cycles; arrays concatenate, objects merge,
//! the including object's own keys win) and `substituteString`
//! (`src/config/env-substitution.ts`: `${NAME}` with `NAME` in `[A-Z_][A-Z0-9_]*`, `$${NAME}`
//! for a literal; on read an unset or empty variable is kept as written, with a warning).

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value};

use super::ConfigError;

const INCLUDE_KEY: &str = "$include";
const MAX_DEPTH: usize = 10;

/// The files read, with their text, for naming a line.
pub(super) type Files = Vec<(PathBuf, String)>;

fn error(file: &Path, line: Option<usize>, message: String) -> ConfigError {
    ConfigError {
        file: file.to_owned(),
        line,
        message,
    }
}

/// The 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> Option<usize> {
    text.find(needle).map(|at| text[..at].matches('\n').count() + 1)
}

/// Lexical normalisation (`path.normalize`): `.` dropped, `..` pops.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        normalize(path)
    } else {
        normalize(&std::env::current_dir().unwrap_or_default().join(path))
    }
}

/// Parse a configuration file: strict JSON first, then JSON5.
fn parse(file: &Path, text: &str) -> Result<Value, ConfigError> {
    if let Ok(v) = serde_json::from_str(text) {
        return Ok(v);
    }
    json5::from_str::<Value>(text).map_err(|e| {
        let line = e.position().map(|p| p.line + 1);
        let what = e.code().map_or_else(|| e.to_string(), |c| c.to_string());
        error(file, line, format!("not valid JSON5: {what}"))
    })
}

fn read(file: &Path, from: Option<(&Path, &str, &str)>) -> Result<String, ConfigError> {
    std::fs::read_to_string(file).map_err(|e| match from {
        Some((parent, text, include)) => error(
            parent,
            line_of(text, include),
            format!("cannot read the included file `{include}` ({}): {e}", file.display()),
        ),
        None => error(file, None, format!("cannot read the configuration: {e}")),
    })
}

/// Deep merge as `deepMerge` in `includes.ts`: arrays concatenate, objects merge, else `source`.
pub(super) fn merge(target: Value, source: Value) -> Value {
    match (target, source) {
        (Value::Array(mut a), Value::Array(b)) => {
            a.extend(b);
            Value::Array(a)
        }
        (Value::Object(mut a), Value::Object(b)) => {
            for (k, v) in b {
                let merged = match a.remove(&k) {
                    Some(old) => merge(old, v),
                    None => v,
                };
                a.insert(k, merged);
            }
            Value::Object(a)
        }
        (_, source) => source,
    }
}

struct Processor<'a> {
    roots: Vec<PathBuf>,
    files: &'a mut Files,
}

impl Processor<'_> {
    fn process(&mut self, value: Value, file: &Path, chain: &[PathBuf]) -> Result<Value, ConfigError> {
        match value {
            Value::Array(items) => items
                .into_iter()
                .map(|v| self.process(v, file, chain))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array),
            Value::Object(mut obj) => {
                let include = obj.remove(INCLUDE_KEY);
                let mut rest = Map::new();
                for (k, v) in obj {
                    rest.insert(k, self.process(v, file, chain)?);
                }
                let Some(include) = include else {
                    return Ok(Value::Object(rest));
                };
                let included = self.include(&include, file, chain)?;
                if rest.is_empty() {
                    return Ok(included);
                }
                if !included.is_object() {
                    let text = self.text_of(file);
                    return Err(error(
                        file,
                        line_of(&text, INCLUDE_KEY),
                        "`$include` beside other keys must include an object".into(),
                    ));
                }
                Ok(merge(included, Value::Object(rest)))
            }
            other => Ok(other),
        }
    }

    fn text_of(&self, file: &Path) -> String {
        self.files
            .iter()
            .find(|(p, _)| p == file)
            .map(|(_, t)| t.clone())
            .unwrap_or_default()
    }

    fn include(&mut self, value: &Value, file: &Path, chain: &[PathBuf]) -> Result<Value, ConfigError> {
        match value {
            Value::String(s) => self.load(s, file, chain),
            Value::Array(items) => {
                let mut out = Value::Object(Map::new());
                for item in items {
                    let Value::String(s) = item else {
                        let text = self.text_of(file);
                        return Err(error(
                            file,
                            line_of(&text, INCLUDE_KEY),
                            format!("`$include` array item is not a path: {item}"),
                        ));
                    };
                    out = merge(out, self.load(s, file, chain)?);
                }
                Ok(out)
            }
            other => {
                let text = self.text_of(file);
                Err(error(
                    file,
                    line_of(&text, INCLUDE_KEY),
                    format!("`$include` must be a path or a list of paths, not {other}"),
                ))
            }
        }
    }

    fn load(&mut self, include: &str, file: &Path, chain: &[PathBuf]) -> Result<Value, ConfigError> {
        let text = self.text_of(file);
        let line = line_of(&text, include);
        let dir = file.parent().unwrap_or(Path::new("/"));
        let target = normalize(&dir.join(include));
        if !self.roots.iter().any(|r| target.starts_with(r)) {
            return Err(error(
                file,
                line,
                format!("`$include` `{include}` leaves the configuration's folder (OpenClaw refuses it)"),
            ));
        }
        if chain.contains(&target) {
            let mut names: Vec<String> = chain.iter().map(|p| p.display().to_string()).collect();
            names.push(target.display().to_string());
            return Err(error(
                file,
                line,
                format!("circular `$include`: {}", names.join(" -> ")),
            ));
        }
        if chain.len() > MAX_DEPTH {
            return Err(error(
                file,
                line,
                format!("`$include` `{include}` exceeds OpenClaw's include depth ({MAX_DEPTH})"),
            ));
        }
        let body = read(&target, Some((file, &text, include)))?;
        let parsed = parse(&target, &body)?;
        self.files.push((target.clone(), body));
        let mut next = chain.to_vec();
        next.push(target.clone());
        self.process(parsed, &target, &next)
    }
}

/// Read `path` and resolve its includes; returns the tree and the files read.
pub(super) fn resolve(path: &Path, env: &BTreeMap<String, String>) -> Result<(Value, Files), ConfigError> {
    let path = absolute(path);
    let text = read(&path, None)?;
    let parsed = parse(&path, &text)?;
    let mut files: Files = vec![(path.clone(), text)];
    let mut roots = vec![path.parent().map(Path::to_owned).unwrap_or_default()];
    if let Some(extra) = env.get("OPENCLAW_INCLUDE_ROOTS") {
        roots.extend(
            extra
                .split(':')
                .map(str::trim)
                .filter(|s| s.starts_with('/'))
                .map(|s| normalize(Path::new(s))),
        );
    }
    let tree = Processor {
        roots,
        files: &mut files,
    }
    .process(parsed, &path, std::slice::from_ref(&path))?;
    Ok((tree, files))
}

fn is_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// `${NAME}` at byte `at` of `s`: the name and the index of `}`.
fn token_at(s: &str, at: usize) -> Option<(&str, usize)> {
    let rest = s.get(at..)?.strip_prefix("${")?;
    let end = rest.find('}')?;
    let name = &rest[..end];
    is_env_name(name).then_some((name, at + 2 + end))
}

fn substitute_str(
    s: &str,
    env: &BTreeMap<String, String>,
    at: &str,
    files: &Files,
    warnings: &mut Vec<String>,
) -> String {
    if !s.contains('$') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let ch = s[i..].chars().next().unwrap_or_default();
        if ch == '$' {
            if let Some((name, end)) = token_at(s, i + 1).filter(|_| s[i + 1..].starts_with("${")) {
                out.push_str(&format!("${{{name}}}"));
                i = end + 1;
                continue;
            }
            if let Some((name, end)) = token_at(s, i) {
                match env.get(name).filter(|v| !v.is_empty()) {
                    Some(v) => out.push_str(v),
                    None => {
                        let needle = format!("${{{name}}}");
                        let place = files
                            .iter()
                            .find_map(|(p, t)| line_of(t, &needle).map(|l| format!("{}:{l}", p.display())))
                            .unwrap_or_default();
                        warnings.push(format!(
                            "{place}: environment variable {name} (at {at}) is not set; kept as written, as OpenClaw does"
                        ));
                        out.push_str(&needle);
                    }
                }
                i = end + 1;
                continue;
            }
        }
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// Substitute `${VAR}` in every string of `value` (keys are left as written).
pub(super) fn substitute(
    value: Value,
    env: &BTreeMap<String, String>,
    files: &Files,
    warnings: &mut Vec<String>,
) -> Value {
    fn walk(v: Value, path: &str, env: &BTreeMap<String, String>, files: &Files, warnings: &mut Vec<String>) -> Value {
        match v {
            Value::String(s) => Value::String(substitute_str(&s, env, path, files, warnings)),
            Value::Array(items) => Value::Array(
                items
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| walk(v, &format!("{path}[{i}]"), env, files, warnings))
                    .collect(),
            ),
            Value::Object(obj) => Value::Object(
                obj.into_iter()
                    .map(|(k, v)| {
                        let p = if path.is_empty() {
                            k.clone()
                        } else {
                            format!("{path}.{k}")
                        };
                        let v = walk(v, &p, env, files, warnings);
                        (k, v)
                    })
                    .collect(),
            ),
            other => other,
        }
    }
    walk(value, "", env, files, warnings)
}
