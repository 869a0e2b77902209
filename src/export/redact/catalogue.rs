//! The gitleaks rule catalogue as data: `gitleaks.toml` is gitleaks' own `config/gitleaks.toml`
//! (MIT licence, notice in `GITLEAKS-LICENSE`), copied unchanged and refreshed by
//! `scripts/refresh-gitleaks-rules.sh`. It is read once, at first use; a rule applies as gitleaks
//! applies it, where a session's text allows:
//!
//! - `keywords` are a prefilter: one Aho-Corasick pass over the text (ASCII case folded, as
//!   gitleaks lowercases) picks the rules worth running; a rule without keywords always runs;
//! - the secret is `secretGroup`, else the first capture group that matched, else the match;
//! - `entropy` is a floor on the secret's Shannon entropy;
//! - allowlists (`regexes` against the secret, the match or the line, `stopwords`) and the
//!   global allowlist keep what they allow; conditions on file paths or commits cannot hold for
//!   a transcript's text, so a rule's `path` is not required and an allowlist that needs a path
//!   (`condition = "AND"` with `paths`) never applies.
//!
//! gitleaks writes Go RE2 patterns; the `regex` crate reads nearly all of them. `\w`, `\d`, `\s`
//! and case folding are ASCII in RE2, so a pattern is compiled ASCII-only first, and with
//! Unicode only where ASCII-only could match inside a UTF-8 sequence (`.`, negated classes). A
//! rule or allowlist pattern that does not compile, and a rule with nothing to match in text
//! (a `path`-only rule), is skipped and listed in [`Catalogue::skipped`]; a test names them.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use regex::{Regex, RegexBuilder};

use super::entropy;

/// gitleaks' rules, unchanged.
const GITLEAKS_TOML: &str = include_str!("gitleaks.toml");

#[derive(serde::Deserialize)]
struct FileSpec {
    #[serde(default)]
    allowlist: Option<AllowSpec>,
    #[serde(default)]
    allowlists: Vec<AllowSpec>,
    #[serde(default)]
    rules: Vec<RuleSpec>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct RuleSpec {
    id: String,
    #[serde(default)]
    regex: Option<String>,
    #[serde(default)]
    secret_group: Option<usize>,
    #[serde(default)]
    entropy: Option<f64>,
    #[serde(default)]
    keywords: Vec<String>,
    #[serde(default)]
    allowlists: Vec<AllowSpec>,
}

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct AllowSpec {
    #[serde(default)]
    regexes: Vec<String>,
    #[serde(default)]
    regex_target: Option<String>,
    #[serde(default)]
    stopwords: Vec<String>,
    #[serde(default)]
    paths: Vec<String>,
    #[serde(default)]
    commits: Vec<String>,
    #[serde(default)]
    condition: Option<String>,
}

/// What an allowlist's regexes are matched against.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Secret,
    Match,
    Line,
}

/// One compiled allowlist.
struct Allow {
    target: Target,
    regexes: Vec<Regex>,
    /// Lowercase; a secret containing one is allowed.
    stopwords: Vec<String>,
    /// `condition = "AND"`: every criterion must hold.
    all: bool,
}

/// One compiled rule.
struct Rule {
    #[cfg_attr(not(test), allow(dead_code))]
    id: String,
    /// Lowercase (the tests check the prefilter against them).
    #[cfg_attr(not(test), allow(dead_code))]
    keywords: Vec<String>,
    re: Regex,
    secret_group: usize,
    entropy: f64,
    allow: Vec<Allow>,
}

/// The compiled catalogue.
pub(super) struct Catalogue {
    rules: Vec<Rule>,
    /// Rules without keywords: run on every text.
    always: Vec<usize>,
    keywords: AhoCorasick,
    /// For each keyword pattern, the rules it selects.
    keyword_rules: Vec<Vec<usize>>,
    global: Vec<Allow>,
    /// Rules and allowlist patterns left out, with the reason.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(super) skipped: Vec<(String, String)>,
}

/// The catalogue, compiled at first use.
pub(super) static CATALOGUE: LazyLock<Catalogue> =
    LazyLock::new(|| Catalogue::parse(GITLEAKS_TOML).expect("gitleaks.toml parses"));

/// Compile an RE2 pattern: ASCII classes first (RE2's meaning), Unicode where ASCII-only is
/// refused because it could match part of a UTF-8 sequence.
fn compile(pattern: &str) -> Result<Regex, String> {
    let build = |unicode: bool| {
        RegexBuilder::new(pattern)
            .unicode(unicode)
            .size_limit(32 << 20)
            .dfa_size_limit(8 << 20)
            .build()
    };
    let first = build(false).or_else(|_| build(true));
    first.or_else(|e| {
        let literal = literal_braces(pattern);
        if literal == pattern {
            return Err(e.to_string());
        }
        RegexBuilder::new(&literal)
            .unicode(false)
            .build()
            .or_else(|_| RegexBuilder::new(&literal).build())
            .map_err(|e| e.to_string())
    })
}

/// RE2 reads a `{` that starts no repetition (`{\d+}`, `${VAR}`, `{{ x }}`) as a literal; the
/// `regex` crate wants it escaped.
fn literal_braces(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut chars = pattern.char_indices().peekable();
    let mut class = false;
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                if let Some((_, n)) = chars.next() {
                    out.push(n);
                }
                continue;
            }
            '[' if !class => class = true,
            ']' if class => class = false,
            '{' if !class && !repetition(&pattern[i + 1..]) => {
                out.push_str("\\{");
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

/// Whether `rest` (what follows a `{`) is a counted repetition: `n}`, `n,}` or `n,m}`.
fn repetition(rest: &str) -> bool {
    let Some(end) = rest.find('}') else { return false };
    let inner = &rest[..end];
    let (low, high) = inner.split_once(',').unwrap_or((inner, "0"));
    !low.is_empty() && low.bytes().all(|b| b.is_ascii_digit()) && high.bytes().all(|b| b.is_ascii_digit())
}

impl Allow {
    fn compile(spec: &AllowSpec, owner: &str, skipped: &mut Vec<(String, String)>) -> Option<Allow> {
        let all = spec.condition.as_deref().is_some_and(|c| c.eq_ignore_ascii_case("AND"));
        if all && (!spec.paths.is_empty() || !spec.commits.is_empty()) {
            // Needs a file path or commit to hold: never holds for a transcript.
            return None;
        }
        let target = match spec.regex_target.as_deref() {
            Some("match") => Target::Match,
            Some("line") => Target::Line,
            _ => Target::Secret,
        };
        let mut regexes = Vec::new();
        for pattern in &spec.regexes {
            match compile(pattern) {
                Ok(re) => regexes.push(re),
                Err(e) => skipped.push((format!("{owner} allowlist {pattern}"), first_line(&e))),
            }
        }
        let stopwords = spec
            .stopwords
            .iter()
            .map(|s| s.to_ascii_lowercase())
            .collect::<Vec<_>>();
        (!regexes.is_empty() || !stopwords.is_empty()).then_some(Allow {
            target,
            regexes,
            stopwords,
            all,
        })
    }

    /// Whether this allowlist keeps `secret` (found as `whole` on `line`).
    fn allows(&self, secret: &str, whole: &str, line: &str) -> bool {
        let target = match self.target {
            Target::Secret => secret,
            Target::Match => whole,
            Target::Line => line,
        };
        let by_regex = (!self.regexes.is_empty()).then(|| self.regexes.iter().any(|r| r.is_match(target)));
        let by_word = (!self.stopwords.is_empty()).then(|| {
            let lower = secret.to_ascii_lowercase();
            self.stopwords.iter().any(|w| lower.contains(w.as_str()))
        });
        let held = [by_regex, by_word].into_iter().flatten();
        if self.all {
            held.into_iter().all(|h| h)
        } else {
            held.into_iter().any(|h| h)
        }
    }
}

/// `text` with one level of JSON string escapes undone (`\"`, `\\`, `\/`, `\n`, `\r`, `\t`),
/// and for each byte of the result the offset of the text it came from.
fn unescaped(text: &str) -> (String, Vec<usize>) {
    let mut plain = String::with_capacity(text.len());
    let mut at = Vec::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let out = match (c, chars.peek().map(|&(_, n)| n)) {
            ('\\', Some(n @ ('"' | '\\' | '/'))) => Some(n),
            ('\\', Some('n')) => Some('\n'),
            ('\\', Some('r')) => Some('\r'),
            ('\\', Some('t')) => Some('\t'),
            _ => None,
        };
        let c = match out {
            Some(o) => {
                chars.next();
                o
            }
            None => c,
        };
        plain.push(c);
        at.resize(plain.len(), i);
    }
    (plain, at)
}

fn first_line(s: &str) -> String {
    s.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .to_owned()
}

impl Catalogue {
    /// Read and compile a gitleaks configuration.
    fn parse(text: &str) -> Result<Catalogue, toml::de::Error> {
        let file: FileSpec = toml::from_str(text)?;
        let mut skipped = Vec::new();
        let global = file
            .allowlist
            .iter()
            .chain(&file.allowlists)
            .filter_map(|a| Allow::compile(a, "global", &mut skipped))
            .collect();
        let mut rules = Vec::new();
        let mut always = Vec::new();
        let mut words: Vec<String> = Vec::new();
        let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
        for spec in file.rules {
            let Some(pattern) = spec.regex.as_deref() else {
                skipped.push((spec.id, "no regex: matches file paths only".into()));
                continue;
            };
            let re = match compile(pattern) {
                Ok(re) => re,
                Err(e) => {
                    skipped.push((spec.id, first_line(&e)));
                    continue;
                }
            };
            let index = rules.len();
            if spec.keywords.is_empty() {
                always.push(index);
            }
            for word in &spec.keywords {
                let word = word.to_ascii_lowercase();
                match words.iter().position(|w| *w == word) {
                    Some(i) => keyword_rules[i].push(index),
                    None => {
                        words.push(word);
                        keyword_rules.push(vec![index]);
                    }
                }
            }
            let allow = spec
                .allowlists
                .iter()
                .filter_map(|a| Allow::compile(a, &spec.id, &mut skipped))
                .collect();
            rules.push(Rule {
                keywords: spec.keywords.iter().map(|k| k.to_ascii_lowercase()).collect(),
                secret_group: spec.secret_group.unwrap_or(0),
                entropy: spec.entropy.unwrap_or(0.0),
                id: spec.id,
                re,
                allow,
            });
        }
        let keywords = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(&words)
            .expect("keywords build");
        Ok(Catalogue {
            rules,
            always,
            keywords,
            keyword_rules,
            global,
            skipped,
        })
    }

    /// How many rules were loaded.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.rules.len()
    }

    /// The byte ranges of the secrets the catalogue finds in `text`, appended to `out`
    /// (unsorted, possibly overlapping).
    pub(super) fn find(&self, text: &str, out: &mut Vec<(usize, usize)>) {
        let mut selected = vec![false; self.rules.len()];
        let mut any = false;
        for m in self.keywords.find_overlapping_iter(text) {
            for &r in &self.keyword_rules[m.pattern().as_usize()] {
                selected[r] = true;
                any = true;
            }
        }
        for &r in &self.always {
            selected[r] = true;
        }
        if !any && self.always.is_empty() {
            return;
        }
        for (rule, _) in self.rules.iter().zip(&selected).filter(|(_, s)| **s) {
            self.run(rule, text, out);
        }
        // JSON inside a JSON string (`{\"log\":\"…\"}`): gitleaks' rules end a secret at a
        // quote, not at an escaped one, so the text is read again with its escapes undone.
        if text.contains("\\\"") || text.contains("\\n") {
            let (plain, at) = unescaped(text);
            let mut found = Vec::new();
            self.find(&plain, &mut found);
            let original = |i: usize| at.get(i).copied().unwrap_or(text.len());
            out.extend(found.into_iter().map(|(s, e)| (original(s), original(e))));
        }
    }

    fn run(&self, rule: &Rule, text: &str, out: &mut Vec<(usize, usize)>) {
        for caps in rule.re.captures_iter(text) {
            let whole = caps.get(0).expect("group 0");
            let secret = if rule.secret_group > 0 {
                caps.get(rule.secret_group)
            } else {
                (1..caps.len()).filter_map(|i| caps.get(i)).find(|m| !m.is_empty())
            }
            .unwrap_or(whole);
            if secret.is_empty() || (rule.entropy > 0.0 && entropy(secret.as_str()) < rule.entropy) {
                continue;
            }
            let line_start = text[..whole.start()].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[whole.end()..].find('\n').map_or(text.len(), |i| whole.end() + i);
            let line = &text[line_start..line_end];
            let allowed = rule
                .allow
                .iter()
                .chain(&self.global)
                .any(|a| a.allows(secret.as_str(), whole.as_str(), line));
            if !allowed {
                out.push((secret.start(), secret.end()));
            }
        }
    }

    /// The id of every rule loaded (tests name them).
    #[cfg(test)]
    pub(super) fn ids(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().map(|r| r.id.as_str())
    }
}

#[cfg(test)]
#[path = "catalogue_tests.rs"]
mod tests;
