//! `scan --format parquet`: one row per session × target with typed columns, written as
//! rows stream in, in files that roll over at a size limit. The schema is versioned
//! ([`SCHEMA_VERSION`]) and documented in `docs/scan-parquet.md`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{Int32Builder, Int64Builder, MapBuilder, StringBuilder};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

use super::row::{SessionScan, TargetScan};

/// The schema's version, in each file's key-value metadata as `replaylens.schema`
/// (`scan-v1`); a column's meaning never changes within a version.
pub const SCHEMA_VERSION: u32 = 1;

/// Rows gathered before they are handed to the Parquet writer.
const BATCH_ROWS: usize = 1024;

/// Rows per row group: bounds what the writer holds in memory.
const ROW_GROUP_ROWS: usize = 65_536;

/// Where the files go.
#[derive(Debug, Clone)]
pub enum Destination {
    /// A folder: `PREFIX00000.parquet`, `PREFIX00001.parquet`, ….
    Folder {
        /// The folder (created when missing).
        dir: PathBuf,
        /// Start of every file name (`scan-`, or `scan-shard-2-of-8-` for a shard).
        prefix: String,
    },
    /// One named file; once it reaches the size limit the next rows go to `STEM-00001.parquet`
    /// beside it, and so on.
    File(PathBuf),
}

impl Destination {
    /// The path of the `index`th file (0-based).
    pub fn file(&self, index: usize) -> PathBuf {
        match self {
            Self::Folder { dir, prefix } => dir.join(format!("{prefix}{index:05}.parquet")),
            Self::File(path) if index == 0 => path.clone(),
            Self::File(path) => {
                let stem = path.file_stem().map_or_else(|| "scan".into(), |s| s.to_string_lossy());
                path.with_file_name(format!("{stem}-{index:05}.parquet"))
            }
        }
    }
}

/// A Parquet write that failed, naming the file.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {source}", path.display())]
pub struct WriteError {
    /// The file being written.
    pub path: PathBuf,
    /// What went wrong.
    #[source]
    pub source: ParquetError,
}

/// The Arrow schema of every file.
pub fn schema() -> SchemaRef {
    let text = |name: &str, nullable: bool| Field::new(name, DataType::Utf8, nullable);
    let int = |name: &str, nullable: bool| Field::new(name, DataType::Int64, nullable);
    Arc::new(Schema::new(vec![
        text("path", false),
        text("agent", true),
        text("session_id", false),
        text("session_key", true),
        text("format", true),
        int("bytes", true),
        int("messages", false),
        int("skipped", false),
        int("warnings", false),
        int("notes", false),
        text("error", true),
        text("rule_set", true),
        Field::new("target_index", DataType::Int32, true),
        text("target_provider", true),
        text("target_api", true),
        text("target_model", true),
        text("family", true),
        int("replay_messages", true),
        int("rewrites", true),
        Field::new("rewrites_by_rule", count_map_type(), true),
        int("stored_findings", true),
        int("replay_findings", true),
        Field::new("findings_by_constraint", count_map_type(), true),
        int("first_finding_stored", true),
        text("verdict", true),
    ]))
}

/// `MAP<STRING, BIGINT>` as the map builder makes it.
fn count_map_type() -> DataType {
    count_map().finish().data_type().clone()
}

fn count_map() -> MapBuilder<StringBuilder, Int64Builder> {
    MapBuilder::new(None, StringBuilder::new(), Int64Builder::new())
}

/// Column builders for one batch, in schema order.
struct Columns {
    path: StringBuilder,
    agent: StringBuilder,
    session_id: StringBuilder,
    session_key: StringBuilder,
    format: StringBuilder,
    bytes: Int64Builder,
    messages: Int64Builder,
    skipped: Int64Builder,
    warnings: Int64Builder,
    notes: Int64Builder,
    error: StringBuilder,
    rule_set: StringBuilder,
    target_index: Int32Builder,
    provider: StringBuilder,
    api: StringBuilder,
    model: StringBuilder,
    family: StringBuilder,
    replay_messages: Int64Builder,
    rewrites: Int64Builder,
    rewrites_by_rule: MapBuilder<StringBuilder, Int64Builder>,
    stored_findings: Int64Builder,
    replay_findings: Int64Builder,
    findings_by_constraint: MapBuilder<StringBuilder, Int64Builder>,
    first_finding_stored: Int64Builder,
    verdict: StringBuilder,
    rows: usize,
}

fn int(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Columns {
    fn new() -> Self {
        Self {
            path: StringBuilder::new(),
            agent: StringBuilder::new(),
            session_id: StringBuilder::new(),
            session_key: StringBuilder::new(),
            format: StringBuilder::new(),
            bytes: Int64Builder::new(),
            messages: Int64Builder::new(),
            skipped: Int64Builder::new(),
            warnings: Int64Builder::new(),
            notes: Int64Builder::new(),
            error: StringBuilder::new(),
            rule_set: StringBuilder::new(),
            target_index: Int32Builder::new(),
            provider: StringBuilder::new(),
            api: StringBuilder::new(),
            model: StringBuilder::new(),
            family: StringBuilder::new(),
            replay_messages: Int64Builder::new(),
            rewrites: Int64Builder::new(),
            rewrites_by_rule: count_map(),
            stored_findings: Int64Builder::new(),
            replay_findings: Int64Builder::new(),
            findings_by_constraint: count_map(),
            first_finding_stored: Int64Builder::new(),
            verdict: StringBuilder::new(),
            rows: 0,
        }
    }

    /// One row per target of the session, or one row without target columns when it has
    /// none (a source that could not be read).
    fn push(&mut self, row: &SessionScan) -> Result<(), ParquetError> {
        if row.targets.is_empty() {
            return self.push_one(row, None);
        }
        for (i, t) in row.targets.iter().enumerate() {
            self.push_one(row, Some((i, t)))?;
        }
        Ok(())
    }

    fn push_one(&mut self, row: &SessionScan, target: Option<(usize, &TargetScan)>) -> Result<(), ParquetError> {
        self.path.append_value(row.path.to_string_lossy());
        self.agent.append_option(row.agent);
        self.session_id.append_value(&row.id);
        self.session_key.append_option(row.session_key.as_deref());
        self.format.append_option(row.format);
        self.bytes
            .append_option(row.bytes.map(|b| i64::try_from(b).unwrap_or(i64::MAX)));
        self.messages.append_value(int(row.messages));
        self.skipped.append_value(int(row.skipped));
        self.warnings.append_value(int(row.warnings));
        self.notes.append_value(int(row.notes));
        self.error.append_option(row.error.as_deref());
        self.rule_set.append_option(row.rule_set);
        let t = target.map(|(_, t)| t);
        self.target_index
            .append_option(target.map(|(i, _)| i32::try_from(i + 1).unwrap_or(i32::MAX)));
        self.provider
            .append_option(t.and_then(|t| t.target.provider.as_deref()));
        self.api.append_option(t.and_then(|t| t.target.api.as_deref()));
        self.model.append_option(t.and_then(|t| t.target.model.as_deref()));
        self.family.append_option(t.map(|t| t.family));
        self.replay_messages.append_option(t.map(|t| int(t.replay_messages)));
        self.rewrites.append_option(t.map(|t| int(t.rewrites)));
        append_counts(&mut self.rewrites_by_rule, t.map(|t| &t.rewrites_by_rule))?;
        self.stored_findings.append_option(t.map(|t| int(t.stored_findings)));
        self.replay_findings.append_option(t.map(|t| int(t.replay_findings)));
        append_counts(&mut self.findings_by_constraint, t.map(|t| &t.findings_by_constraint))?;
        self.first_finding_stored
            .append_option(t.and_then(|t| t.first_finding_stored).map(int));
        self.verdict.append_option(t.map(|t| t.verdict.id()));
        self.rows += 1;
        Ok(())
    }

    fn finish(&mut self, schema: &SchemaRef) -> Result<RecordBatch, ParquetError> {
        self.rows = 0;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.path.finish()),
            Arc::new(self.agent.finish()),
            Arc::new(self.session_id.finish()),
            Arc::new(self.session_key.finish()),
            Arc::new(self.format.finish()),
            Arc::new(self.bytes.finish()),
            Arc::new(self.messages.finish()),
            Arc::new(self.skipped.finish()),
            Arc::new(self.warnings.finish()),
            Arc::new(self.notes.finish()),
            Arc::new(self.error.finish()),
            Arc::new(self.rule_set.finish()),
            Arc::new(self.target_index.finish()),
            Arc::new(self.provider.finish()),
            Arc::new(self.api.finish()),
            Arc::new(self.model.finish()),
            Arc::new(self.family.finish()),
            Arc::new(self.replay_messages.finish()),
            Arc::new(self.rewrites.finish()),
            Arc::new(self.rewrites_by_rule.finish()),
            Arc::new(self.stored_findings.finish()),
            Arc::new(self.replay_findings.finish()),
            Arc::new(self.findings_by_constraint.finish()),
            Arc::new(self.first_finding_stored.finish()),
            Arc::new(self.verdict.finish()),
        ];
        Ok(RecordBatch::try_new(schema.clone(), columns)?)
    }
}

fn append_counts(
    map: &mut MapBuilder<StringBuilder, Int64Builder>,
    counts: Option<&std::collections::BTreeMap<&'static str, usize>>,
) -> Result<(), ParquetError> {
    let Some(counts) = counts else {
        return Ok(map.append(false)?);
    };
    for (key, n) in counts {
        map.keys().append_value(key);
        map.values().append_value(int(*n));
    }
    Ok(map.append(true)?)
}

/// A Parquet output being written: rows go in as sessions finish, batches go to the current
/// file, and a file that reaches the size limit is closed and the next one begun. Each file
/// is written through [`crate::write`] (a temporary no one can plant, renamed when complete),
/// so a reader's glob never sees half a file and a planted link or FIFO is never written
/// through. A folder already holding this prefix's files is refused unless `replace` was given
/// (then they are removed first), so `DIR/*.parquet` reads back this scan's rows alone.
pub struct ParquetSink {
    destination: Destination,
    max_file_bytes: u64,
    schema: SchemaRef,
    columns: Columns,
    writer: Option<(ArrowWriter<crate::write::AtomicFile>, PathBuf)>,
    files: Vec<PathBuf>,
    rows: u64,
}

impl ParquetSink {
    /// A sink writing to `destination`, starting a new file once one holds about
    /// `max_file_bytes` (at least one batch goes to each file).
    pub fn new(destination: Destination, max_file_bytes: u64, replace: bool) -> Result<Self, WriteError> {
        let external = |path: &Path, e: Box<dyn std::error::Error + Send + Sync>| WriteError {
            path: path.to_path_buf(),
            source: ParquetError::External(e),
        };
        if let Destination::Folder { dir, prefix } = &destination {
            std::fs::create_dir_all(dir).map_err(|e| external(dir, Box::new(e)))?;
            let earlier = earlier_files(dir, prefix).map_err(|e| external(dir, Box::new(e)))?;
            if let Some(first) = earlier.first() {
                if !replace {
                    let why = format!(
                        "{} already holds {} file(s) of an earlier scan ({}…); their rows would be read with this scan's: pass --replace to remove them first, or choose another folder",
                        dir.display(),
                        earlier.len(),
                        first.file_name().unwrap_or_default().to_string_lossy()
                    );
                    return Err(external(dir, why.into()));
                }
                for file in &earlier {
                    std::fs::remove_file(file).map_err(|e| external(file, Box::new(e)))?;
                }
            }
        }
        Ok(Self {
            destination,
            max_file_bytes,
            schema: schema(),
            columns: Columns::new(),
            writer: None,
            files: Vec::new(),
            rows: 0,
        })
    }

    /// Add a session's rows (one per target).
    pub fn push(&mut self, row: &SessionScan) -> Result<(), WriteError> {
        let (destination, written) = (&self.destination, self.files.len());
        self.columns.push(row).map_err(|source| WriteError {
            path: destination.file(written),
            source,
        })?;
        if self.columns.rows >= BATCH_ROWS {
            self.flush_batch()?;
        }
        Ok(())
    }

    /// Write what is buffered and close the last file; returns the files written, in order,
    /// and the number of rows. A scan without rows still writes one file, with the schema.
    pub fn finish(mut self) -> Result<(Vec<PathBuf>, u64), WriteError> {
        if self.columns.rows > 0 || self.files.is_empty() {
            self.flush_batch()?;
        }
        self.close_file()?;
        Ok((self.files, self.rows))
    }

    fn flush_batch(&mut self) -> Result<(), WriteError> {
        if self.writer.is_none() {
            self.open_file()?;
        }
        let Some((writer, path)) = self.writer.as_mut() else {
            return Ok(());
        };
        let fail = |source| WriteError {
            path: path.clone(),
            source,
        };
        let batch = self.columns.finish(&self.schema).map_err(fail)?;
        self.rows += batch.num_rows() as u64;
        writer.write(&batch).map_err(fail)?;
        if (writer.bytes_written() + writer.in_progress_size()) as u64 >= self.max_file_bytes {
            self.close_file()?;
        }
        Ok(())
    }

    fn open_file(&mut self) -> Result<(), WriteError> {
        let path = self.destination.file(self.files.len());
        let fail = |source| WriteError {
            path: path.clone(),
            source,
        };
        let replace = if matches!(self.destination, Destination::File(_)) {
            crate::write::Replace::Allowed
        } else {
            crate::write::Replace::Never
        };
        let file = crate::write::create(&path, &crate::write::Protected::none(), replace)
            .map_err(|e| fail(ParquetError::External(Box::new(e))))?;
        let properties = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .set_created_by(format!("replaylens {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(Some(vec![KeyValue::new(
                "replaylens.schema".to_owned(),
                format!("scan-v{SCHEMA_VERSION}"),
            )]))
            .build();
        let writer = ArrowWriter::try_new(file, self.schema.clone(), Some(properties)).map_err(fail)?;
        self.writer = Some((writer, path));
        Ok(())
    }

    fn close_file(&mut self) -> Result<(), WriteError> {
        let Some((writer, path)) = self.writer.take() else {
            return Ok(());
        };
        let fail = |source| WriteError {
            path: path.clone(),
            source,
        };
        let file = writer.into_inner().map_err(fail)?;
        file.commit().map_err(|e| fail(ParquetError::External(Box::new(e))))?;
        self.files.push(path);
        Ok(())
    }
}

/// The files of an earlier scan in `dir`: `PREFIX<digits>.parquet`.
fn earlier_files(dir: &Path, prefix: &str) -> std::io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.strip_prefix(prefix)
                .and_then(|rest| rest.strip_suffix(".parquet"))
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .map(|e| e.path())
        .collect();
    out.sort();
    Ok(out)
}
