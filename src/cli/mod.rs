//! Command implementations of the binary: they call the library and print.

pub mod describe;
pub mod explain_text;
pub mod export;
pub mod lint;
pub mod payload;
pub mod policy;
pub mod repair;
pub mod replay;
pub mod rules;
pub mod scan;
pub mod scan_output;
pub mod sessions;
pub mod show;

use std::process::ExitCode;

use replaylens::load::LoadError;
use replaylens::model::Diagnostic;

/// Print one error sentence to stderr and map it to the exit status of README §3:
/// 2 for unusable input or arguments, 1 for internal failure.
pub fn finish(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) if err.downcast_ref::<lint::Rejected>().is_some() => ExitCode::from(1),
        Err(err) => {
            let unusable_input = err.downcast_ref::<LoadError>().is_some()
                || err.downcast_ref::<rules::UnknownRule>().is_some()
                || err.downcast_ref::<export::OverwritesInput>().is_some()
                || err.downcast_ref::<replaylens::wire::WireError>().is_some()
                || matches!(
                    err.downcast_ref::<replaylens::repair::RepairError>(),
                    Some(
                        replaylens::repair::RepairError::Read { .. }
                            | replaylens::repair::RepairError::Refused(_)
                            | replaylens::repair::RepairError::Unsafe(_)
                    )
                );
            let internal = !unusable_input;
            eprintln!(
                "replaylens: {}",
                replaylens::text::escape_controls_single_line(&err.to_string())
            );
            if internal { ExitCode::from(1) } else { ExitCode::from(2) }
        }
    }
}

/// Stream a value as pretty JSON to stdout, with every character a terminal could act on
/// written as a `\uXXXX` escape (the same JSON value); nothing is built in memory first.
pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    use std::io::Write;
    let safe = replaylens::text::TerminalSafeWriter::new(std::io::stdout().lock());
    let mut out = std::io::BufWriter::with_capacity(1 << 16, safe);
    serde_json::to_writer_pretty(&mut out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// Print load diagnostics to stderr, one per line.
pub fn report(diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        eprintln!("{}", replaylens::text::escape_controls_single_line(&d.to_string()));
    }
}

/// A closed stdout (e.g. piped into `head`) is not a failure.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .filter_map(|e| e.downcast_ref::<std::io::Error>())
        .any(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
}
