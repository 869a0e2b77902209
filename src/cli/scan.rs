//! `replaylens scan [PATH…] [--target SPEC]… [--format text|json|csv]`: every session in the
//! given folders, files and databases (default: every agent's default folders), replayed
//! and linted per target, one row per session, then the totals.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use replaylens::load::discover;
use replaylens::policy::Target;
use replaylens::scan::parquet::{Destination, ParquetSink};
use replaylens::scan::{ScanOptions, Summary, scan};

use super::scan_output::{Output, OutputFormat};

/// A `--target` value: `provider[/api[/model]]`; an empty part or `-` is taken from the
/// session, and the model keeps any further slashes (`openrouter/openai-completions/anthropic/claude-sonnet-4`).
pub fn parse_target(spec: &str) -> Result<Target, String> {
    let mut parts = spec.splitn(3, '/').map(|p| {
        let p = p.trim();
        (!p.is_empty() && p != "-").then(|| p.to_owned())
    });
    let target = Target {
        provider: parts.next().flatten(),
        api: parts.next().flatten(),
        model: parts.next().flatten(),
    };
    if target.provider.is_none() && target.api.is_none() && target.model.is_none() {
        return Err(format!(
            "`{spec}` names no provider, API or model (write provider[/api[/model]])"
        ));
    }
    Ok(target)
}

/// The session sources of the given paths (a folder is searched recursively) and of the paths
/// listed by `--files-from`, each file once (by device and inode), at most `max_files`; or
/// of every agent's default folders when none is given. A missing argument is an error; a
/// missing listed path becomes its own error row (a fleet worker goes on).
pub fn sources(paths: &[PathBuf], listed: &[PathBuf], max_files: usize) -> anyhow::Result<Vec<PathBuf>> {
    if paths.is_empty() && listed.is_empty() {
        return Ok(discover::default_sources());
    }
    let mut out = Vec::new();
    let given = paths.iter().map(|p| (p, false));
    for (p, from_list) in given.chain(listed.iter().map(|p| (p, true))) {
        if p.is_dir() {
            out.extend(discover::sources_under(p));
        } else if p.exists() || p.is_symlink() {
            out.push(p.clone());
        } else if let Some(matches) = glob_matches(p, max_files)? {
            for m in matches {
                if m.is_dir() {
                    out.extend(discover::sources_under(&m));
                } else {
                    out.push(m);
                }
            }
        } else if from_list {
            out.push(p.clone());
        } else {
            return Err(replaylens::load::LoadError::io(
                p,
                std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or folder"),
            )
            .into());
        }
        if out.len() > max_files {
            let why = format!(
                "the paths given name more than {} session files; narrow them, split them with --shard, or raise --max-files",
                replaylens::text::thousands(max_files as u64)
            );
            return Err(ArgumentError(why).into());
        }
    }
    Ok(discover::glob::one_per_file(out))
}

/// A scan argument that cannot be used (a pattern matching nothing, `-o` without Parquet, an
/// output folder that cannot be made): one sentence, exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ArgumentError(String);

/// The paths a glob pattern (`*`, `?`, `[…]`, `**`) names, sorted; `None` when `path` is no
/// pattern. A pattern that matches nothing is an error naming it, as a missing path is; so is
/// one matching more than `max_files`. Symlink loops are walked once
/// ([`discover::glob::expand`]).
fn glob_matches(path: &Path, max_files: usize) -> anyhow::Result<Option<Vec<PathBuf>>> {
    let Some(pattern) = path.to_str().filter(|_| discover::glob::is_pattern(path)) else {
        return Ok(None);
    };
    let found = discover::glob::expand(pattern, max_files).map_err(|e| ArgumentError(e.to_string()))?;
    if found.is_empty() {
        let shown = replaylens::text::escape_controls_single_line(pattern);
        return Err(ArgumentError(format!("no file or folder matches `{shown}`")).into());
    }
    Ok(Some(found))
}

/// `--shard K/N`: this worker's part of the sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based shard number.
    pub k: u32,
    /// Number of shards.
    pub n: u32,
}

impl Shard {
    /// Whether `path` falls in this shard: CRC-32 of its bytes as listed, modulo N.
    pub fn holds(self, path: &Path) -> bool {
        let hash = crc32fast::hash(path.as_os_str().as_encoded_bytes());
        hash % self.n == self.k - 1
    }
}

/// A `--shard` value: `K/N` with 1 ≤ K ≤ N.
pub fn parse_shard(spec: &str) -> Result<Shard, String> {
    let bad = || format!("`{spec}` is not a shard: write K/N with 1 <= K <= N, e.g. 2/8");
    let (k, n) = spec.split_once('/').ok_or_else(bad)?;
    let (k, n): (u32, u32) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok(Shard { k, n })
}

/// What to scan: paths, a list of paths, and this worker's shard.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    /// Paths given as arguments.
    pub paths: Vec<PathBuf>,
    /// `--files-from`: a file listing more paths (`-`: standard input).
    pub files_from: Option<PathBuf>,
    /// `--shard K/N`.
    pub shard: Option<Shard>,
    /// `-o`: where `--format parquet` writes (a folder, or a `.parquet` file).
    pub output: Option<PathBuf>,
    /// `--max-file-mb`: the size at which a Parquet file is closed and the next begun.
    pub max_file_bytes: u64,
    /// `--replace`: remove an earlier scan's Parquet files from the `-o` folder first.
    pub replace: bool,
    /// `--max-files`: the most session files the arguments and the list may name.
    pub max_files: usize,
}

/// The longest line `--files-from` reads (a path is at most 4,096 bytes on Linux).
const MAX_LISTED_LINE: u64 = 64 << 10;

/// The paths listed in `file` (`-`: standard input), one per line; blank lines and lines
/// starting with `#` are skipped. Read line by line: a line over 64 KiB or more than
/// `max_files` paths is refused (`/dev/zero` is not read until memory runs out), and so is a
/// list naming no path at all (an empty list must not scan this machine's own sessions).
fn listed(file: &Path, max_files: usize) -> anyhow::Result<Vec<PathBuf>> {
    use std::io::BufRead;
    use std::os::unix::ffi::OsStrExt;
    let shown = replaylens::text::escape_controls_single_line(&file.to_string_lossy()).into_owned();
    let mut reader: Box<dyn BufRead> = if file == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(file).map_err(|e| replaylens::load::LoadError::io(file, e))?;
        Box::new(std::io::BufReader::new(f))
    };
    let mut out = Vec::new();
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let n = std::io::Read::take(&mut reader, MAX_LISTED_LINE + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| replaylens::load::LoadError::io(file, e))?;
        if n == 0 {
            break;
        }
        if n as u64 > MAX_LISTED_LINE {
            let why = format!("--files-from {shown}: line {number} is longer than 64 KiB; it is not a list of paths");
            return Err(ArgumentError(why).into());
        }
        let path = line.trim_ascii();
        if path.is_empty() || path.starts_with(b"#") {
            continue;
        }
        if out.len() == max_files {
            let why = format!(
                "--files-from {shown} lists more than {} paths; split it with --shard or raise --max-files",
                replaylens::text::thousands(max_files as u64)
            );
            return Err(ArgumentError(why).into());
        }
        out.push(PathBuf::from(std::ffi::OsStr::from_bytes(path)));
    }
    if out.is_empty() {
        let why = format!("--files-from {shown} lists no paths (only blank lines and comments): nothing to scan");
        return Err(ArgumentError(why).into());
    }
    Ok(out)
}

/// Scan and print.
pub fn run(inputs: &Inputs, options: &ScanOptions, format: OutputFormat) -> anyhow::Result<()> {
    let listed = match &inputs.files_from {
        Some(file) => listed(file, inputs.max_files)?,
        None => Vec::new(),
    };
    let mut sources = sources(&inputs.paths, &listed, inputs.max_files)?;
    if let Some(shard) = inputs.shard {
        sources.retain(|p| shard.holds(p));
    }
    if sources.is_empty() && inputs.paths.is_empty() && listed.is_empty() {
        let roots: Vec<String> = discover::default_roots()
            .iter()
            .map(|(_, p)| p.display().to_string())
            .collect();
        eprintln!(
            "no sessions found under {} (set OPENCLAW_STATE_DIR, CLAUDE_CONFIG_DIR or CODEX_HOME, or pass files or folders)",
            replaylens::text::escape_controls_single_line(&roots.join(", "))
        );
    }
    super::allocator::keep_freed_pages_a_while();
    let progress = progress_bar(&sources);
    let targets = options.effective_targets();
    let mut output = match (format, &inputs.output) {
        (OutputFormat::Parquet, Some(path)) => {
            let sink = ParquetSink::new(
                parquet_destination(path, inputs.shard),
                inputs.max_file_bytes,
                inputs.replace,
            )
            .map_err(|e| ArgumentError(e.to_string()))?;
            Output::Parquet(Box::new(sink))
        }
        (OutputFormat::Parquet, None) => {
            let why = "--format parquet writes files: give -o DIR or -o FILE.parquet";
            return Err(ArgumentError(why.into()).into());
        }
        (_, Some(_)) => {
            let why = "-o is for --format parquet; the other formats go to standard output (redirect it)";
            return Err(ArgumentError(why.into()).into());
        }
        (_, None) => Output::start(format, &targets)?,
    };
    let mut summary = Summary::default();
    let mut failed: Option<std::io::Error> = None;
    let mut rows = 0u64;
    scan(&sources, options, &|bytes| progress.inc(bytes), &mut |row| {
        summary.add(&row);
        rows += 1;
        progress.set_message(format!("{rows} sessions"));
        if failed.is_none()
            && let Err(e) = progress.suspend(|| output.row(&row))
        {
            failed = Some(e);
        }
    });
    progress.finish_and_clear();
    if let Some(e) = failed {
        return Err(e.into());
    }
    output.finish(&summary)?;
    if matches!(format, OutputFormat::Ndjson | OutputFormat::Parquet) {
        eprintln!(
            "scanned {} sessions{}: {} rejected payloads over {} targets, {} failed to load",
            summary.sessions,
            inputs
                .shard
                .map_or(String::new(), |s| format!(" (shard {}/{})", s.k, s.n)),
            summary.targets.iter().map(|t| t.would_be_rejected).sum::<usize>(),
            summary.targets.len(),
            summary.errors
        );
    }
    Ok(())
}

/// A size: bytes, or a number with a suffix K, M or G (powers of 1024; a trailing `B` or
/// `iB` is allowed).
pub fn parse_size(spec: &str) -> Result<u64, String> {
    let bad = || format!("`{spec}` is not a size: write bytes or a number with K, M or G, e.g. 256M");
    let upper = spec.trim().to_ascii_uppercase();
    let digits = upper.trim_end_matches("IB").trim_end_matches('B');
    let (number, shift) = match digits.chars().last() {
        Some('K') => (&digits[..digits.len() - 1], 10),
        Some('M') => (&digits[..digits.len() - 1], 20),
        Some('G') => (&digits[..digits.len() - 1], 30),
        _ => (digits, 0),
    };
    let n: u64 = number.trim().parse().map_err(|_| bad())?;
    match n.checked_mul(1 << shift) {
        Some(0) | None => Err(bad()),
        Some(bytes) => Ok(bytes),
    }
}

/// `-o PATH`: a file when it ends in `.parquet`, else a folder whose files are named after
/// the shard, so the workers of one fleet can share it.
fn parquet_destination(path: &Path, shard: Option<Shard>) -> Destination {
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("parquet")) && !path.is_dir() {
        return Destination::File(path.to_owned());
    }
    Destination::Folder {
        dir: path.to_owned(),
        prefix: shard.map_or_else(|| "scan-".to_owned(), |s| format!("scan-shard-{}-of-{}-", s.k, s.n)),
    }
}

/// A progress bar on stderr with sessions and bytes per second, drawn only on a terminal.
fn progress_bar(sources: &[PathBuf]) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let total: u64 = sources.iter().filter_map(|p| size(p)).sum();
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{spinner} scanning {msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .progress_chars("=> ");
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

fn size(p: &Path) -> Option<u64> {
    std::fs::metadata(p).ok().map(|m| m.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_specs_keep_slashes_in_the_model() {
        let t = parse_target("openrouter/openai-completions/anthropic/claude-sonnet-4").unwrap();
        assert_eq!(t.provider.as_deref(), Some("openrouter"));
        assert_eq!(t.api.as_deref(), Some("openai-completions"));
        assert_eq!(t.model.as_deref(), Some("anthropic/claude-sonnet-4"));
        let t = parse_target("mistral").unwrap();
        assert_eq!((t.provider.as_deref(), t.api, t.model), (Some("mistral"), None, None));
        let t = parse_target("-/-/gpt-5.1").unwrap();
        assert_eq!((t.provider, t.api, t.model.as_deref()), (None, None, Some("gpt-5.1")));
        assert!(parse_target("/").is_err());
    }

    #[test]
    fn sizes_take_suffixes() {
        assert_eq!(parse_size("256M"), Ok(256 << 20));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("0").is_err());
        assert!(parse_size("M").is_err());
        assert!(parse_size("12X").is_err());
    }
}
