//! The `replaylens` binary: parses arguments and dispatches to the commands in `cli`.

mod args;
mod cli;
mod tui;

use std::process::ExitCode;

use args::{Cli, Command};
use clap::{CommandFactory, Parser};

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let command = Cli::command();
    let names: Vec<&str> = command.get_subcommands().map(clap::Command::get_name).collect();
    if let Some(message) = cli::typos::mistyped_command(&args, &names) {
        eprintln!("replaylens: {message}");
        return cli::Exit::Unusable.into();
    }
    let cli = Cli::parse_from(args);
    // `reduce` stops on Ctrl-C itself, writing the smallest case found so far.
    if !matches!(cli.command, Some(Command::Reduce { .. })) {
        cli::signals::install();
    }
    if let Err(message) = cli::dispatch::preflight(&cli) {
        eprintln!("replaylens: {message}");
        return cli::Exit::Unusable.into();
    }
    cli::finish(cli::dispatch::run(cli))
}
