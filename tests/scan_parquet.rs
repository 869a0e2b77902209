//! `replaylens scan --format parquet`: one row per session × target with typed columns that
//! say what the NDJSON rows say, files that roll over at the size limit and whose union is
//! the whole scan, a schema version in the metadata, and glob patterns as inputs.

mod common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

fn scan(args: &[&str]) -> Output {
    Command::new(common::bin())
        .arg("scan")
        .args(args)
        .output()
        .expect("run replaylens scan")
}

/// `copies` × the bundled JSONL samples under `dir/sessions`, plus one corrupt file.
fn fleet(dir: &Path, copies: usize) -> PathBuf {
    let root = dir.join("sessions");
    std::fs::create_dir_all(&root).unwrap();
    for entry in std::fs::read_dir(common::bundled_samples()).unwrap() {
        let sample = entry.unwrap().path();
        if sample.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        for i in 0..copies {
            let stem = sample.file_stem().unwrap().to_string_lossy();
            std::fs::copy(&sample, root.join(format!("{stem}-{i:03}.jsonl"))).unwrap();
        }
    }
    std::fs::write(root.join("corrupt.jsonl"), b"\x00 not json\n").unwrap();
    root
}

/// One row, as the comparison sees it: session, target index, and the target's figures.
type Row = (String, Option<i32>, Option<String>, String);

/// The rows of every file, in file order.
fn parquet_rows(files: &[PathBuf]) -> Vec<Row> {
    let mut rows = Vec::new();
    for file in files {
        let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(file).unwrap())
            .unwrap()
            .build()
            .unwrap();
        for batch in reader {
            rows.extend(batch_rows(&batch.unwrap()));
        }
    }
    rows
}

fn batch_rows(batch: &RecordBatch) -> Vec<Row> {
    let text = |name: &str, i: usize| {
        let col = batch.column_by_name(name).unwrap().as_string::<i32>();
        (!col.is_null(i)).then(|| col.value(i).to_owned())
    };
    let int = |name: &str, i: usize| {
        let col = batch.column_by_name(name).unwrap().as_primitive::<Int64Type>();
        (!col.is_null(i)).then(|| col.value(i))
    };
    let map = |name: &str, i: usize| {
        let col = batch.column_by_name(name).unwrap().as_map();
        if col.is_null(i) {
            return None;
        }
        let entries = col.value(i);
        let keys = entries.column(0).as_string::<i32>();
        let values = entries.column(1).as_primitive::<Int64Type>();
        Some(
            (0..entries.len())
                .map(|j| format!("{}={}", keys.value(j), values.value(j)))
                .collect::<Vec<_>>()
                .join(";"),
        )
    };
    let index = batch
        .column_by_name("target_index")
        .unwrap()
        .as_primitive::<Int32Type>();
    (0..batch.num_rows())
        .map(|i| {
            let figures = format!(
                "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                text("rule_set", i),
                text("family", i),
                int("messages", i),
                int("replay_messages", i),
                int("rewrites", i),
                map("rewrites_by_rule", i),
                int("stored_findings", i),
                map("findings_by_constraint", i),
                int("first_finding_stored", i),
                text("error", i).map(|e| e.len()),
            );
            (
                text("path", i).unwrap(),
                (!index.is_null(i)).then(|| index.value(i)),
                text("verdict", i),
                figures,
            )
        })
        .collect()
}

/// The same rows from `scan --format ndjson`.
fn ndjson_rows(args: &[&str]) -> Vec<Row> {
    let out = scan(&[args, &["--format", "ndjson"][..]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let counts = |m: &serde_json::Value| {
        m.as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(";")
    };
    let mut rows = Vec::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let s: serde_json::Value = serde_json::from_str(line).unwrap();
        let path = s["path"].as_str().unwrap().to_owned();
        let str_of = |v: &serde_json::Value| v.as_str().map(str::to_owned);
        let targets = s["targets"].as_array().unwrap();
        if targets.is_empty() {
            let figures = format!(
                "None None Some({}) None None None None None None {:?}",
                s["messages"],
                s["error"].as_str().map(str::len)
            );
            rows.push((path, None, None, figures));
            continue;
        }
        for (i, t) in targets.iter().enumerate() {
            let figures = format!(
                "{:?} {:?} Some({}) Some({}) Some({}) Some({:?}) Some({}) Some({:?}) {:?} None",
                str_of(&s["ruleSet"]),
                str_of(&t["family"]),
                s["messages"],
                t["replayMessages"],
                t["rewrites"],
                counts(&t["rewritesByRule"]),
                t["storedFindings"],
                counts(&t["findingsByConstraint"]),
                t["firstFindingStored"].as_i64(),
            );
            rows.push((path.clone(), Some(i as i32 + 1), str_of(&t["verdict"]), figures));
        }
    }
    rows
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

#[test]
fn parquet_rows_say_what_the_ndjson_rows_say_one_per_session_and_target() {
    let dir = tempfile::tempdir().unwrap();
    let root = fleet(dir.path(), 3);
    let root = root.to_str().unwrap();
    let out_file = dir.path().join("scan.parquet");
    let targets = ["--target", "anthropic", "--target", "mistral"];
    let out = scan(
        &[
            &[root][..],
            &targets,
            &["--format", "parquet", "-o", out_file.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Parquet file: ") && err.contains("scanned "), "{err}");
    let parquet = parquet_rows(std::slice::from_ref(&out_file));
    let ndjson = ndjson_rows(&[&[root][..], &targets].concat());
    assert_eq!(parquet, ndjson, "row for row, in scan order");
    assert!(parquet.iter().any(|r| r.1.is_none()), "the corrupt file is a row");
    assert!(parquet.iter().any(|r| r.2.as_deref() == Some("would-be-rejected")));

    let metadata = ParquetRecordBatchReaderBuilder::try_new(File::open(&out_file).unwrap())
        .unwrap()
        .metadata()
        .clone();
    let kv = metadata.file_metadata().key_value_metadata().unwrap();
    assert!(
        kv.iter()
            .any(|e| e.key == "replaylens.schema" && e.value.as_deref() == Some("scan-v1"))
    );
}

#[test]
fn files_roll_over_at_the_size_limit_and_together_are_the_whole_scan() {
    let dir = tempfile::tempdir().unwrap();
    let root = fleet(dir.path(), 100);
    let root = root.to_str().unwrap();
    let out_dir = dir.path().join("out");
    let out = scan(&[
        root,
        "--target",
        "mistral",
        "--target",
        "anthropic",
        "--target",
        "openai",
        "--format",
        "parquet",
        "-o",
        out_dir.to_str().unwrap(),
        "--max-file-size",
        "16K",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let files = files_in(&out_dir);
    assert!(files.len() >= 2, "{files:?}");
    for (i, f) in files.iter().enumerate() {
        assert_eq!(f.file_name().unwrap().to_string_lossy(), format!("scan-{i:05}.parquet"));
    }
    let targets = ["--target", "mistral", "--target", "anthropic", "--target", "openai"];
    assert_eq!(parquet_rows(&files), ndjson_rows(&[&[root][..], &targets].concat()));
}

#[test]
fn an_empty_scan_still_writes_the_schema_and_bad_flags_are_one_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out_file = dir.path().join("none.parquet");
    let out = scan(&[
        empty.to_str().unwrap(),
        "--format",
        "parquet",
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(&out_file).unwrap()).unwrap();
    assert_eq!(builder.metadata().file_metadata().num_rows(), 0);
    assert!(builder.schema().field_with_name("findings_by_constraint").is_ok());

    for (args, says) in [
        (&["--format", "parquet"][..], "give -o DIR or -o FILE.parquet"),
        (
            &["--format", "ndjson", "-o", "x.parquet"][..],
            "-o is for --format parquet",
        ),
    ] {
        let out = scan(&[&[empty.to_str().unwrap()][..], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says) && err.lines().count() == 1, "{err}");
    }
}

#[test]
fn glob_patterns_name_sources_and_a_pattern_matching_nothing_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let root = fleet(dir.path(), 2);
    let pattern = format!("{}/*-001.jsonl", root.display());
    let out = scan(&[&pattern, "--format", "ndjson"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = String::from_utf8(out.stdout).unwrap();
    let expected = files_in(&root)
        .iter()
        .filter(|p| p.to_string_lossy().ends_with("-001.jsonl"))
        .count();
    assert!(expected > 1);
    assert_eq!(rows.lines().count(), expected);
    let out = scan(&[&format!("{}/*.nothing", root.display())]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no file or folder matches"));
}
