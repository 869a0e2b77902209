//! `replaylens completions SHELL` and `replaylens man`: shell completion scripts and the man page,
//! both generated from the clap definition of the command line (`src/args.rs`), so they list
//! every command and flag of this build. README "Install" says where to put them.

use std::io::Write;

use clap::CommandFactory;

use crate::args::Cli;

/// The shells `completions` writes a script for.
pub use clap_complete::Shell;

/// Write the completion script for `shell` to standard output.
pub fn run_completions(shell: Shell) -> anyhow::Result<()> {
    let mut command = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(shell, &mut command, "replaylens", &mut out);
    out.flush()?;
    Ok(())
}

/// Write the man page, replaylens(1), in roff to standard output: the top-level page (name,
/// synopsis, the inspector's options, the command list), then one section per command with its
/// synopsis, options and examples.
pub fn run_man() -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(&man_page()?)?;
    out.flush()?;
    Ok(())
}

/// The man page as roff.
pub fn man_page() -> std::io::Result<Vec<u8>> {
    let mut command = Cli::command();
    command.build();
    let mut roff = Vec::new();
    let top = clap_mangen::Man::new(command.clone());
    top.render_title(&mut roff)?;
    top.render_name_section(&mut roff)?;
    top.render_synopsis_section(&mut roff)?;
    top.render_description_section(&mut roff)?;
    top.render_options_section(&mut roff)?;
    top.render_subcommands_section(&mut roff)?;
    write_examples(&mut roff, &command, ".SH")?;
    for sub in command
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
    {
        writeln!(roff, ".SH \"REPLAYLENS {}\"", sub.get_name().to_uppercase())?;
        let page = clap_mangen::Man::new(sub.clone());
        // The synopsis, description, options and examples of the command, as subsections.
        let mut section = Vec::new();
        page.render_synopsis_section(&mut section)?;
        page.render_description_section(&mut section)?;
        page.render_options_section(&mut section)?;
        roff.extend(demote_headings(&section));
        write_examples(&mut roff, sub, ".SS")?;
    }
    top.render_version_section(&mut roff)?;
    Ok(roff)
}

/// A command's examples (its `after_help`, `src/cli/examples.rs`) under `heading` EXAMPLES,
/// line for line as `--help` shows them (no filling, so they can be copied).
fn write_examples(roff: &mut Vec<u8>, command: &clap::Command, heading: &str) -> std::io::Result<()> {
    let Some(text) = command.get_after_help() else {
        return Ok(());
    };
    let text = text.to_string();
    let body = text.strip_prefix("Examples:\n").unwrap_or(&text);
    writeln!(roff, "{heading} EXAMPLES\n.nf")?;
    for line in body.lines() {
        writeln!(roff, "{}", roff_line(line))?;
    }
    writeln!(roff, ".fi")
}

/// One line of text as roff: backslashes and hyphens escaped (a `\-` prints the ASCII minus a
/// shell needs), and a leading `.` or `'` kept from being read as a request.
fn roff_line(line: &str) -> String {
    let escaped = line.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

/// A page's `.SH` headings as `.SS` subheadings, so a command's parts sit under its section.
fn demote_headings(roff: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(roff);
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match line.strip_prefix(".SH ") {
            Some(rest) => {
                out.push_str(".SS ");
                out.push_str(rest);
            }
            None => out.push_str(line),
        }
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command of the clap tree, the help subcommand aside.
    fn commands() -> Vec<clap::Command> {
        let mut root = Cli::command();
        root.build();
        root.get_subcommands()
            .filter(|c| c.get_name() != "help")
            .cloned()
            .collect()
    }

    #[test]
    fn every_command_help_ends_with_an_example_of_itself() {
        let mut root = Cli::command();
        let help = root.render_long_help().to_string();
        assert!(help.contains("Examples:\n  replaylens sample-sessions"), "{help}");
        let commands = commands();
        assert!(commands.len() >= 15, "{}", commands.len());
        for mut command in commands {
            let name = command.get_name().to_owned();
            for help in [
                command.render_help().to_string(),
                command.render_long_help().to_string(),
            ] {
                let examples = help
                    .split_once("Examples:\n")
                    .unwrap_or_else(|| panic!("`replaylens {name} --help` has no examples:\n{help}"))
                    .1;
                assert!(
                    examples
                        .lines()
                        .any(|l| l.starts_with(&format!("  replaylens {name} "))),
                    "`replaylens {name} --help`: no example runs `replaylens {name}`:\n{examples}"
                );
            }
        }
    }

    #[test]
    fn the_man_page_has_a_title_and_a_section_per_command() {
        let roff = String::from_utf8(man_page().unwrap()).unwrap();
        assert!(roff.contains(".TH replaylens 1"), "{}", &roff[..200.min(roff.len())]);
        for command in commands() {
            let name = command.get_name();
            let heading = format!(".SH \"REPLAYLENS {}\"", name.to_uppercase());
            let start = roff.find(&heading).unwrap_or_else(|| panic!("no {heading}"));
            let rest = &roff[start + heading.len()..];
            let section = &rest[..rest.find("\n.SH ").unwrap_or(rest.len())];
            assert!(section.contains(".SS SYNOPSIS"), "{name}: {section}");
            assert!(section.contains(".SS EXAMPLES\n.nf\n"), "{name}: {section}");
            assert!(section.contains(&format!("replaylens {name} ")), "{name}: {section}");
        }
    }

    #[test]
    fn an_example_line_in_roff_prints_as_typed() {
        assert_eq!(
            roff_line("  replaylens lint a-b.jsonl \\"),
            "  replaylens lint a\\-b.jsonl \\e"
        );
        assert_eq!(roff_line(".hidden 'x'"), "\\&.hidden 'x'");
        assert_eq!(roff_line("'quoted'"), "\\&'quoted'");
    }
}
