//! A mistyped subcommand: `replaylens relpay FILE` would otherwise open the inspector on a
//! file called `relpay` (or fail on FILE with a clap message about SESSION).

use std::ffi::OsString;
use std::path::Path;

/// Top-level options that take a value as the next argument (`--theme dark`).
const VALUE_OPTIONS: &[&str] = &["--session", "--provider", "--api", "--model", "--openclaw", "--theme"];

/// The sentence for a first positional argument that is no existing path but a near miss of
/// a subcommand name (`relpay` → `replay`), else `None`.
pub fn mistyped_command(args: &[OsString], commands: &[&str]) -> Option<String> {
    let word = first_positional(args)?.to_str()?;
    if commands.contains(&word) || Path::new(word).exists() {
        return None;
    }
    let allowed = if word.chars().count() <= 4 { 1 } else { 2 };
    let (distance, nearest) = commands
        .iter()
        .map(|c| (strsim::osa_distance(word, c), *c))
        .min_by_key(|(d, _)| *d)?;
    (distance <= allowed).then(|| {
        format!(
            "no file or command `{}`; did you mean `{nearest}`?",
            replaylens::text::escape_controls_single_line(word)
        )
    })
}

/// The name of `names` nearest to `word` when it is a near miss (one edit for a word of up
/// to 4 letters, two for a longer one, three for one of over 12), else `None`.
pub fn nearest<'n>(word: &str, names: impl IntoIterator<Item = &'n str>) -> Option<&'n str> {
    let n = word.chars().count();
    let allowed = match n {
        0..=4 => 1,
        5..=12 => 2,
        _ => 3,
    };
    let (distance, nearest) = names
        .into_iter()
        .map(|c| (strsim::osa_distance(word, c), c))
        .min_by_key(|(d, _)| *d)?;
    (distance <= allowed && distance > 0).then_some(nearest)
}

/// The first argument after the program name that is neither an option nor an option's value.
fn first_positional(args: &[OsString]) -> Option<&OsString> {
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        let text = arg.to_string_lossy();
        if text == "--" {
            return rest.next();
        }
        if !text.starts_with('-') || text == "-" {
            return Some(arg);
        }
        if VALUE_OPTIONS.contains(&text.as_ref()) {
            rest.next();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMANDS: &[&str] = &["sessions", "show", "replay", "payload", "lint", "export", "scan"];

    fn check(args: &[&str]) -> Option<String> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        mistyped_command(&args, COMMANDS)
    }

    #[test]
    fn near_misses_are_named_and_others_left_to_clap() {
        assert_eq!(
            check(&["replaylens", "relpay", "x.jsonl"]).as_deref(),
            Some("no file or command `relpay`; did you mean `replay`?")
        );
        assert_eq!(
            check(&["replaylens", "--theme", "dark", "lnt"]).as_deref(),
            Some("no file or command `lnt`; did you mean `lint`?")
        );
        assert_eq!(check(&["replaylens", "replay", "x.jsonl"]), None);
        assert_eq!(check(&["replaylens", "--theme", "shw"]), None);
        assert_eq!(check(&["replaylens", "session.jsonl"]), None);
        assert_eq!(check(&["replaylens", "zzz"]), None);
        assert_eq!(check(&["replaylens"]), None);
    }

    #[test]
    fn the_nearest_name_is_offered_only_for_a_near_miss() {
        let names = ["verdict", "tool-result-pairing", "mistral-user-after-tool"];
        assert_eq!(nearest("verdcit", names), Some("verdict"));
        assert_eq!(nearest("tool-result-paring", names), Some("tool-result-pairing"));
        assert_eq!(
            nearest("mistral-user-after-tools", names),
            Some("mistral-user-after-tool")
        );
        assert_eq!(nearest("banana", names), None);
        assert_eq!(nearest("verdict", names), None);
    }
}
