//! The `replaylens export …` command that reproduces a report: the session path as given,
//! the resolved target spelled out, the rule set, the redaction and the filters.

use super::focus::format_range;
use super::{ExportFormat, ExportOptions, Redaction, default_budget};
use crate::hygiene::ReplayOptions;

/// What a report was made from, besides its options.
#[derive(Debug, Clone, Copy)]
pub struct Reproduce<'a> {
    /// The session path as given (redacted like the rest of the report).
    pub path: &'a str,
    /// For a database: the session id chosen.
    pub database_session: Option<&'a str>,
    /// The resolved target: provider, API, model.
    pub target: &'a [Option<String>; 3],
    /// The replay options (rule set, tools, image size).
    pub replay: &'a ReplayOptions,
    /// The configuration's path (redacted like the rest of the report), when one was used.
    pub config: Option<&'a str>,
}

/// The arguments after `replaylens` that give the same report.
pub fn export_args(from: &Reproduce<'_>, options: &ExportOptions) -> Vec<String> {
    let mut args: Vec<String> = vec!["export".into(), from.path.into()];
    let mut flag = |name: &str, value: String| {
        args.push(name.into());
        args.push(value);
    };
    if let Some(id) = from.database_session {
        flag("--session", id.into());
    }
    for (name, value) in ["--provider", "--api", "--model"].iter().zip(from.target) {
        if let Some(v) = value {
            flag(name, v.clone());
        }
    }
    if let Some(tools) = &from.replay.allowed_tools {
        flag("--tools", tools.join(","));
    }
    if let Some(config) = from.config {
        flag("--config", config.to_owned());
    }
    if from.replay.image_max_px != ReplayOptions::default().image_max_px {
        flag("--image-max-px", from.replay.image_max_px.to_string());
    }
    flag("--openclaw", from.replay.rule_set.name.into());
    flag("--format", options.format.extension().into());
    match options.redaction {
        Redaction::None => {}
        Redaction::Secrets => args.push("--redact".into()),
        Redaction::AllText => args.push("--redact=all-text".into()),
    }
    if options.format == ExportFormat::Html && options.only_changed {
        args.push("--only-changed".into());
    }
    if options.context > 0 && options.format != ExportFormat::Json {
        args.extend(["--context".into(), options.context.to_string()]);
    }
    if !options.only_rules.is_empty() {
        args.extend(["--only-rule".into(), options.only_rules.join(",")]);
    }
    if let Some(range) = options.messages {
        args.extend(["--messages".into(), format_range(range)]);
    }
    if options.format != ExportFormat::Json && options.budget() != default_budget(options.format) {
        args.extend(["--max-chars".into(), options.budget().to_string()]);
    }
    args
}

/// `replaylens` and the arguments, each quoted for a POSIX shell when it needs it.
pub fn command_line(args: &[String]) -> String {
    std::iter::once("replaylens".to_owned())
        .chain(args.iter().map(|a| shell_quote(a)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One argument quoted for a POSIX shell: as is when it is plain, else in single quotes.
pub fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg.chars().all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ':' | ',' | '=' | '@' | '%' | '+')
        });
    if plain {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// `args` with a flag set to a value (replacing it when present), or removed (`None`).
pub fn with_flag(args: &[String], name: &str, value: Option<&str>) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len() + 2);
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
            continue;
        }
        if a == name {
            skip = true;
            continue;
        }
        out.push(a.clone());
    }
    if let Some(v) = value {
        out.extend([name.to_owned(), v.to_owned()]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_and_flags() {
        assert_eq!(shell_quote("a/b.jsonl"), "a/b.jsonl");
        assert_eq!(shell_quote("my file's"), r"'my file'\''s'");
        assert_eq!(shell_quote(""), "''");
        let args: Vec<String> = ["export", "x", "--format", "md"].map(String::from).to_vec();
        assert_eq!(
            with_flag(&args, "--format", Some("html")),
            ["export", "x", "--format", "html"]
        );
        assert_eq!(command_line(&with_flag(&args, "--format", None)), "replaylens export x");
    }
}
