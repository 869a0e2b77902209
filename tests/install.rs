//! What installing replaylens gives (README "Install"): a bash completion script that loads, a
//! man page that renders, and an example in every command's `--help` that runs as written on
//! the bundled `sample-sessions/`.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(common::bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The commands `replaylens --help` lists, `help` aside.
fn commands() -> Vec<String> {
    let help = stdout(&run(&["--help"]));
    let list = help.split_once("Commands:\n").expect("a command list").1;
    let names: Vec<String> = list
        .lines()
        .take_while(|l| l.starts_with("  "))
        // A wrapped description continues on a deeper indented line.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect();
    assert!(names.len() >= 15, "{names:?}");
    names
}

#[test]
fn bash_loads_the_completion_script() {
    let out = run(&["completions", "bash"]);
    assert_eq!(out.status.code(), Some(0));
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("replaylens.bash");
    std::fs::write(&script, &out.stdout).unwrap();
    let check = Command::new("bash")
        .arg("-c")
        .arg(r#"source "$1" && complete -p replaylens"#)
        .arg("bash")
        .arg(&script)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&check.stderr)
    );
    assert!(
        said.starts_with("complete ") && said.trim_end().ends_with(" replaylens"),
        "{said}"
    );
    // The script completes the commands and a command's flags.
    let text = stdout(&out);
    for word in ["lint", "scan", "completions", "--stage", "--provider"] {
        assert!(text.contains(word), "no {word} in the bash script");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        assert!(stdout(&out).contains("replaylens"), "{shell}");
    }
    assert_eq!(run(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn man_renders_the_page_with_every_command() {
    let out = run(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    let roff = stdout(&out);
    assert!(
        roff.starts_with(".ie \\n(.g .ds Aq") || roff.contains("\n.TH replaylens 1"),
        "{roff}"
    );
    assert!(roff.contains(".TH replaylens 1"));
    let commands = commands();
    for name in &commands {
        assert!(
            roff.contains(&format!(".SH \"REPLAYLENS {}\"", name.to_uppercase())),
            "no section for {name}"
        );
    }
    // Rendered by man-db when it is installed (`.ci/run` installs it), else only the roff is checked.
    let rendered = Command::new("man")
        .args(["-l", "-"])
        .env("MANWIDTH", "80")
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut man) = rendered else {
        eprintln!("SKIPPED rendering: man is not installed");
        return;
    };
    use std::io::Write;
    man.stdin.take().unwrap().write_all(&out.stdout).unwrap();
    let shown = man.wait_with_output().unwrap();
    // Words as a reader sees them: justification spaces and line-end hyphenation undone.
    let page = String::from_utf8_lossy(&shown.stdout)
        .replace("\u{2010}\n", "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(shown.status.success(), "{}", String::from_utf8_lossy(&shown.stderr));
    // No roff errors, every command's section and its example shown.
    assert!(shown.stderr.is_empty(), "{}", String::from_utf8_lossy(&shown.stderr));
    assert!(
        page.contains("NAME") && page.contains("SYNOPSIS") && page.contains("EXAMPLES"),
        "{page}"
    );
    for name in &commands {
        assert!(
            page.contains(&format!("REPLAYLENS {}", name.to_uppercase())),
            "{name}: {page}"
        );
        assert!(page.contains(&format!("replaylens {name} ")), "{name}: {page}");
    }
}

/// The example lines of a `--help`: those under "Examples:" running `replaylens`, with a
/// continuation line joined, a trailing `# comment` kept (the shell ignores it).
fn examples(help: &str) -> Vec<String> {
    let block = help.split_once("Examples:\n").map_or("", |(_, b)| b);
    let mut lines = Vec::new();
    for line in block.lines().take_while(|l| l.starts_with("  ")) {
        let line = line.trim();
        match lines.last_mut() {
            Some(last @ &mut String { .. }) if last.ends_with('\\') => {
                last.pop();
                last.push_str(line);
            }
            _ => lines.push(line.to_owned()),
        }
    }
    lines
}

#[test]
fn every_help_example_runs_as_written() {
    // Run in a scratch folder holding `sample-sessions` (a link to the bundled one), with HOME
    // there too, so the files examples write land in it.
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(common::bundled_samples(), dir.path().join("sample-sessions")).unwrap();
    for sub in [
        ".local/share/bash-completion/completions",
        ".zfunc",
        ".config/fish/completions",
        ".local/share/man/man1",
    ] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let bin_dir = Path::new(common::bin()).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let mut names = vec![String::new()];
    names.extend(commands());
    let mut ran = 0;
    for name in names {
        let help = match name.as_str() {
            "" => stdout(&run(&["--help"])),
            name => stdout(&run(&[name, "--help"])),
        };
        let lines = examples(&help);
        assert!(!lines.is_empty(), "`replaylens {name} --help` has no example:\n{help}");
        for line in lines {
            // The inspector needs a terminal; its examples are checked for the session only.
            let runs_inspector = name.is_empty();
            if runs_inspector || line.contains("| man -l") {
                continue;
            }
            let out = Command::new("bash")
                .arg("-c")
                .arg(format!("set -o pipefail; {line}"))
                .current_dir(dir.path())
                .env("PATH", &path)
                .env("HOME", dir.path())
                .env("NO_COLOR", "1")
                .stdin(Stdio::null())
                .output()
                .unwrap();
            // 0; `lint` exits 1 for a payload that would be rejected (README "Commands").
            let code = out.status.code();
            assert!(
                code == Some(0) || (name == "lint" && code == Some(1)),
                "`{line}` exited with {code:?}:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 25, "{ran} examples ran");
    for written in ["report.html", "report.md", "case.jsonl", "small.jsonl", "pairing.jsonl"] {
        assert!(dir.path().join(written).is_file(), "{written} not written");
    }
}
