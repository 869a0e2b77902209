//! Names on the command line (issue 30): the export format follows the `-o` file name, a
//! mistyped subcommand is named with its nearest command, and an unknown provider is an error
//! unless `--api` says which API it speaks.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn sample() -> PathBuf {
    common::bundled_samples().join("anthropic-tool-repair.jsonl")
}

fn run_in(dir: &Path, args: &[&std::ffi::OsStr]) -> Output {
    Command::new(common::bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Exit status 2 and one line on stderr.
fn assert_refused(out: &Output) -> String {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

fn export(dir: &Path, extra: &[&str]) -> Output {
    let session = sample();
    let mut args: Vec<&std::ffi::OsStr> = vec!["export".as_ref(), session.as_os_str()];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    run_in(dir, &args)
}

#[test]
fn export_format_follows_the_output_extension() {
    let dir = tempfile::tempdir().unwrap();
    for (name, starts) in [
        ("report.html", "<!DOCTYPE html>"),
        ("REPORT.HTM", "<!DOCTYPE html>"),
        ("report.md", "# replaylens export: "),
        ("report.markdown", "# replaylens export: "),
        ("report.json", "{"),
    ] {
        let out = export(dir.path(), &["-o", name]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        let written = std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert!(
            written.starts_with(starts),
            "{name}: {}",
            &written[..40.min(written.len())]
        );
    }
    // An agreeing --format is fine; an explicit one wins for an extension naming no format.
    let out = export(dir.path(), &["--format", "html", "-o", "same.html"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = export(dir.path(), &["--format", "md", "-o", "notes.txt"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        std::fs::read_to_string(dir.path().join("notes.txt"))
            .unwrap()
            .starts_with("# ")
    );
}

#[test]
fn export_format_conflicts_and_unknown_extensions_are_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let err = assert_refused(&export(dir.path(), &["--format", "md", "-o", "x.html"]));
    assert!(
        err.contains("--format md") && err.contains("x.html") && err.contains("HTML"),
        "{err}"
    );
    assert!(!dir.path().join("x.html").exists());
    let err = assert_refused(&export(dir.path(), &["-o", "report.txt"]));
    assert!(err.contains("report.txt") && err.contains("--format"), "{err}");
    assert!(!dir.path().join("report.txt").exists());
    // Neither --format nor -o: still clap's missing-argument error.
    let out = export(dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--format"), "{}", stderr(&out));
}

#[test]
fn a_mistyped_subcommand_names_the_nearest_command() {
    let dir = tempfile::tempdir().unwrap();
    let session = sample();
    for args in [
        vec!["relpay".as_ref(), session.as_os_str()],
        vec!["relpay".as_ref()],
        vec![
            "--provider".as_ref(),
            "anthropic".as_ref(),
            "relpay".as_ref(),
            session.as_os_str(),
        ],
    ] {
        let err = assert_refused(&run_in(dir.path(), &args));
        assert_eq!(
            err.trim_end(),
            "replaylens: no file or command `relpay`; did you mean `replay`?"
        );
    }
    let err = assert_refused(&run_in(dir.path(), &["exprot".as_ref(), session.as_os_str()]));
    assert!(err.contains("did you mean `export`?"), "{err}");
    // A file by that name is a session to open, not a typo.
    std::fs::write(dir.path().join("relpay"), "").unwrap();
    let out = run_in(dir.path(), &["relpay".as_ref()]);
    assert!(!stderr(&out).contains("did you mean"), "{}", stderr(&out));
    // A far word is left to the usual errors.
    let out = run_in(dir.path(), &["nothing-like-a-command".as_ref(), session.as_os_str()]);
    assert!(!stderr(&out).contains("did you mean"), "{}", stderr(&out));
}

fn lint(dir: &Path, extra: &[&str]) -> Output {
    let session = sample();
    let mut args: Vec<&std::ffi::OsStr> = vec!["lint".as_ref(), session.as_os_str()];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    run_in(dir, &args)
}

#[test]
fn an_api_given_as_provider_is_refused_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let err = assert_refused(&lint(dir.path(), &["--provider", "openai-responses"]));
    assert_eq!(
        err.trim_end(),
        "replaylens: openai-responses is an API, not a provider: pass --api openai-responses with --provider openai"
    );
    let err = assert_refused(&lint(dir.path(), &["--provider", "totally-unknown"]));
    assert!(
        err.contains("unknown provider \"totally-unknown\" (the closest known ones are "),
        "{err}"
    );
    assert!(err.contains("--api"), "{err}");
    // policy and export check the same way.
    let out = run_in(
        dir.path(),
        &["policy".as_ref(), "--provider".as_ref(), "openai-responses".as_ref()],
    );
    assert_refused(&out);
    assert_refused(&export(dir.path(), &["--format", "md", "--provider", "antropic"]));
}

#[test]
fn a_custom_provider_with_an_api_runs_with_one_note() {
    let dir = tempfile::tempdir().unwrap();
    let out = lint(dir.path(), &["--provider", "my-gateway", "--api", "anthropic-messages"]);
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err.lines().filter(|l| l.starts_with("note: ")).collect::<Vec<_>>(),
        ["note: custom provider my-gateway over API anthropic-messages"],
        "{err}"
    );
    // A known provider says nothing of the kind.
    let out = lint(dir.path(), &["--provider", "anthropic"]);
    assert!(!stderr(&out).contains("custom provider"), "{}", stderr(&out));
}
