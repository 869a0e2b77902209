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
    let s = load_path(path, &load)?;
    let text_format = options.format != replaylens::export::ExportFormat::Json;
    let (r, _) = super::replay_reported(&s, target, replay_options, text_format);
    let text = export(&s, &r, options);
    match output {
        Some(file) => {
            std::fs::write(file, text.as_bytes()).map_err(super::OutputFileError::new(file))?;
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
