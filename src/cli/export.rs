//! `replaylens export SESSION [TARGET] --format md|html|json [-o FILE] [--redact[=LEVEL]]`.

use std::io::Write;
use std::path::{Path, PathBuf};

use replaylens::export::{ExportOptions, export_to};
use replaylens::hygiene::ReplayOptions;
use replaylens::load::LoadOptions;
use replaylens::policy::Target;

/// Export one replay to a file or stdout.
pub fn run(
    path: &Path,
    load: LoadOptions,
    target: &Target,
    replay_options: &ReplayOptions,
    options: &ExportOptions,
    output: Option<&PathBuf>,
) -> anyhow::Result<()> {
    if let Some(file) = output
        && same_file(path, file)
    {
        return Err(OverwritesInput(file.clone()).into());
    }
    let text_format = options.format != replaylens::export::ExportFormat::Json;
    let (s, r) = super::load_and_replay(path, load, target, replay_options, text_format)?;
    match output {
        Some(file) => {
            let write = || -> std::io::Result<()> {
                let mut out = std::io::BufWriter::new(std::fs::File::create(file)?);
                export_to(&s, &r, options, &mut out)?;
                out.flush()
            };
            write().map_err(super::OutputFileError::new(file))?;
            eprintln!(
                "wrote {}",
                replaylens::text::escape_controls_single_line(&file.display().to_string())
            );
        }
        None => {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            export_to(&s, &r, options, &mut out)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// `-o` names the session being exported (unusable argument: exit status 2).
#[derive(Debug, thiserror::Error)]
#[error("{}: refusing to write the export over the session it comes from; choose another -o file", replaylens::text::escape_controls_single_line(&.0.display().to_string()))]
pub struct OverwritesInput(pub PathBuf);

/// Whether two paths name the same file (symlinks and hard links included).
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}
