//! Cases: one message array, one target and an optional tool allow-list, with the oracle
//! request it becomes and the request files it can be saved as and read back from.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use replaylens::model::json::Value;
use serde::Serialize;

use super::generate::generate;
use super::targets::{TargetSet, TargetSpec};

/// Where a case came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A sample session (bundled or shared).
    Sample,
    /// The random generator.
    Random,
    /// A request file (`tests/oracle_cases/`, `REPLAYLENS_ORACLE_REPLAY`).
    File,
}

/// One differential case.
#[derive(Debug, Clone)]
pub struct Case {
    /// `rand:<seed>:<i>@<target>`, `sample:<file>[#session]@<target>` or `file:<path>@<target>`.
    pub id: String,
    /// Where it came from.
    pub origin: Origin,
    /// The replay target.
    pub target: TargetSpec,
    /// The `--tools` allow-list, if any.
    pub tools: Option<Vec<String>>,
    /// The stored messages (shared: a sample session is one array for all its targets).
    pub messages: Arc<Vec<Value>>,
}

/// An oracle request, serialized straight from a case without copying its messages.
#[derive(Serialize)]
struct Request<'a> {
    id: &'a Value,
    provider: &'a str,
    api: &'a str,
    model: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    tools: Option<&'a [String]>,
    messages: &'a [Value],
}

impl Case {
    fn request<'a>(&'a self, id: &'a Value) -> Request<'a> {
        Request {
            id,
            provider: &self.target.provider,
            api: &self.target.api,
            model: &self.target.model,
            tools: self.tools.as_deref(),
            messages: &self.messages,
        }
    }

    /// The oracle request as one JSON line (no newline); `id` is echoed in the reply.
    pub fn request_line(&self, id: &Value) -> String {
        serde_json::to_string(&self.request(id)).unwrap_or_default()
    }

    /// The request as saved to a file (pretty JSON), with the case id as `id`.
    pub fn saved_request(&self) -> String {
        serde_json::to_string_pretty(&self.request(&Value::from(self.id.as_str()))).unwrap_or_default()
    }
}

/// `count` random cases spread evenly over the targets of `set`: case `i` goes to target
/// `i % targets`, so every target gets its share whatever the number of its provider's
/// siblings (the same-model rules need that many turns of each target's own model; see
/// `wide::Coverage`).
pub fn random_cases(seed: u64, count: usize, set: &TargetSet) -> Vec<Case> {
    (0..count)
        .map(|i| {
            let target = set.targets[i % set.targets.len()].clone();
            let g = generate(seed, i as u64, &target);
            Case {
                id: format!("rand:{seed}:{i}@{}", target.label()),
                origin: Origin::Random,
                target,
                tools: g.tools,
                messages: Arc::new(g.messages),
            }
        })
        .collect()
}

/// `per_target` random cases for every target of `targets`, seeded apart from
/// [`random_cases`] (`rand-t:` ids).
pub fn random_cases_per_target(seed: u64, per_target: usize, targets: &[TargetSpec]) -> Vec<Case> {
    (0..per_target * targets.len())
        .map(|i| {
            let target = targets[i % targets.len()].clone();
            let g = generate(seed ^ 0x7a67_6574, i as u64, &target);
            Case {
                id: format!("rand-t:{seed}:{i}@{}", target.label()),
                origin: Origin::Random,
                target,
                tools: g.tools,
                messages: Arc::new(g.messages),
            }
        })
        .collect()
}

/// The request files at `path`: the file itself, or every `*.json` in the folder (sorted).
pub fn request_files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_owned()];
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Read one request file as a case.
pub fn read_request_file(file: &Path, label: &str) -> Result<Case, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let request: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let messages = request
        .get("messages")
        .and_then(Value::as_array)
        .map(|a| a.to_vec())
        .ok_or_else(|| format!("{}: no messages array", file.display()))?;
    let tools = request
        .get("tools")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(Value::as_str).map(str::to_owned).collect());
    let target = TargetSpec::read_from(&request);
    Ok(Case {
        id: format!("file:{label}@{}", target.label()),
        origin: Origin::File,
        target,
        tools,
        messages: Arc::new(messages),
    })
}

/// A file name made from a case id.
pub fn sanitized_file_name(id: &str) -> String {
    let mut name: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    name.truncate(150);
    format!("{name}.json")
}
