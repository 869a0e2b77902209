//! `replaylens export SESSION [TARGET] --format md|html|json [-o FILE] [--redact[=LEVEL]]`.

use std::io::Write;
use std::path::{Path, PathBuf};

use replaylens::export::{ExportOptions, export};
use replaylens::hygiene::ReplayOptions;
use replaylens::load::{LoadOptions, load_path};
use replaylens::policy::Target;

/// Export one replay to a file or stdout.
pub fn run(
    path: &Path,
    session: Option<String>,
    target: &Target,
    replay_options: &ReplayOptions,
    options: &ExportOptions,
    output: Option<&PathBuf>,
) -> anyhow::Result<()> {
    let s = load_path(path, &LoadOptions { session })?;
    let r = replaylens::replay::replay(&s, target, replay_options);
    super::report(&s.diagnostics);
    super::report(&r.transcript.diagnostics);
    let text = export(&s, &r, options);
    match output {
        Some(file) => {
            std::fs::write(file, text.as_bytes())?;
            eprintln!(
                "wrote {}",
                replaylens::text::escape_controls_single_line(&file.display().to_string())
            );
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
        }
    }
    Ok(())
}
