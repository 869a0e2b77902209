//! The fleet recipes of docs/fleet.md run as written: workers fanned out with `xargs -P` over
//! `--files-from` and `--shard k/n` give the whole scan together; DuckDB reading their NDJSON
//! parts or their Parquet files (`scripts/fleet-duckdb.py`), and a Dask job fanning the shards
//! out over local workers (`scripts/fleet-dask.py`), count the same rejected sessions, findings
//! by constraint, rewrites by rule and rejected sessions by constraint and by rule as the
//! scan's own JSON summary. The Python parts need the `duckdb` and `dask` packages: skipped
//! with a note without them, required where `REPLAYLENS_REQUIRE_DUCKDB=1` or
//! `REPLAYLENS_REQUIRE_DASK=1` (`.ci/run` sets them once the packages are installed).

mod common;

use std::path::Path;
use std::process::Command;

/// A fleet of `copies` × the bundled JSONL samples; the list file of their paths.
fn fleet(dir: &Path, copies: usize) -> std::path::PathBuf {
    let mut listed = Vec::new();
    for entry in std::fs::read_dir(common::bundled_samples()).unwrap() {
        let sample = entry.unwrap().path();
        if sample.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        for i in 0..copies {
            let folder = dir.join(format!("agents/a{:02}", i % 5));
            std::fs::create_dir_all(&folder).unwrap();
            let copy = folder.join(format!(
                "{}-{i:03}.jsonl",
                sample.file_stem().unwrap().to_string_lossy()
            ));
            std::fs::copy(&sample, &copy).unwrap();
            listed.push(copy.display().to_string());
        }
    }
    let list = dir.join("all.txt");
    std::fs::write(&list, listed.join("\n") + "\n").unwrap();
    list
}

/// `scan --files-from LIST --target mistral --format FORMAT` over the whole list.
fn scan_list(list: &Path, format: &str) -> std::process::Output {
    Command::new(common::bin())
        .args([
            "scan",
            "--files-from",
            list.to_str().unwrap(),
            "--target",
            "mistral",
            "--format",
            format,
        ])
        .output()
        .unwrap()
}

fn sorted_lines(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines.sort();
    lines
}

#[test]
fn sharded_workers_and_duckdb_agree_with_the_scan_summary() {
    let dir = tempfile::tempdir().unwrap();
    let list = fleet(dir.path(), 20);
    let bin = common::bin();
    // Recipe: four workers over one list, two at a time (docs/fleet.md, "Workers").
    let script = format!(
        "seq 1 4 | xargs -P 2 -I {{}} sh -c \"'{bin}' scan --files-from '{list}' --shard {{}}/4 --target mistral --format ndjson > '{dir}/part-{{}}.ndjson' 2>'{dir}/err-{{}}.txt'\"",
        list = list.display(),
        dir = dir.path().display()
    );
    // `-I {}`, not a letter: xargs replaces the string everywhere, temporary paths included.
    let status = Command::new("sh").arg("-c").arg(&script).status().unwrap();
    let errors: String = (1..=4)
        .map(|k| std::fs::read_to_string(dir.path().join(format!("err-{k}.txt"))).unwrap_or_default())
        .collect();
    assert!(status.success(), "{script}: {status}\n{errors}");
    let parts: Vec<String> = (1..=4)
        .map(|k| dir.path().join(format!("part-{k}.ndjson")).display().to_string())
        .collect();
    let union: String = parts.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    let whole = scan_list(&list, "ndjson");
    assert_eq!(
        sorted_lines(&union),
        sorted_lines(&String::from_utf8(whole.stdout).unwrap())
    );

    // Recipe: DuckDB over the parts (docs/fleet.md, "DuckDB").
    if !python_has("duckdb", "REPLAYLENS_REQUIRE_DUCKDB") {
        return;
    }
    assert_counts_match_summary(&run_script("fleet-duckdb.py", &parts), &list);
}

#[test]
fn parquet_workers_and_duckdb_agree_with_the_scan_summary() {
    let dir = tempfile::tempdir().unwrap();
    let list = fleet(dir.path(), 20);
    let out_dir = dir.path().join("scan");
    // Recipe: four workers writing Parquet into one folder (docs/fleet.md, "Parquet").
    let script = format!(
        "seq 1 4 | xargs -P 2 -I {{}} '{bin}' scan --files-from '{list}' --shard {{}}/4 --target mistral --format parquet -o '{out}'",
        bin = common::bin(),
        list = list.display(),
        out = out_dir.display()
    );
    let out = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        (1..=4)
            .map(|k| format!("scan-shard-{k}-of-4-00000.parquet"))
            .collect::<Vec<_>>(),
        "one file per worker, no partial file left"
    );
    if !python_has("duckdb", "REPLAYLENS_REQUIRE_DUCKDB") {
        return;
    }
    let counts = run_script("fleet-duckdb.py", &[out_dir.display().to_string()]);
    assert_counts_match_summary(&counts, &list);
}

#[test]
fn dask_recipe_agrees_with_the_scan_summary() {
    if !python_has("dask", "REPLAYLENS_REQUIRE_DASK") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let list = fleet(dir.path(), 20);
    let args = [
        common::bin().to_owned(),
        list.display().to_string(),
        "4".into(),
        "mistral".into(),
    ];
    let counts = run_script("fleet-dask.py", &args);
    let sessions = std::fs::read_to_string(&list).unwrap().lines().count();
    assert_eq!(counts["sessions"], sessions);
    assert_counts_match_summary(&counts, &list);
}

/// Whether `python3` can import `module`; when it cannot, `require` (an environment
/// variable) must be unset, and the recipe is skipped with a note.
fn python_has(module: &str, require: &str) -> bool {
    let has = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .status()
        .is_ok_and(|s| s.success());
    if !has {
        assert!(
            std::env::var(require).is_err(),
            "{require} is set but python3 cannot import {module}"
        );
        eprintln!("note: the {module} Python package is absent; its recipe is not checked");
    }
    has
}

/// Run `scripts/NAME` with `args`; its one JSON object.
fn run_script(name: &str, args: &[String]) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts").join(name);
    let out = Command::new("python3").arg(&script).args(args).output().unwrap();
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The recipe's counts equal the `summary` of `scan --format json` over the same list.
fn assert_counts_match_summary(counts: &serde_json::Value, list: &Path) {
    let summary = scan_list(list, "json");
    let doc: serde_json::Value = serde_json::from_slice(&summary.stdout).unwrap();
    let totals = &doc["summary"]["targets"][0];
    assert!(
        totals["wouldBeRejected"].as_u64().unwrap() > 0,
        "the fleet has rejected sessions"
    );
    assert_eq!(counts["rejected"], totals["wouldBeRejected"]);
    for key in [
        "findingsByConstraint",
        "rewritesByRule",
        "rejectedByConstraint",
        "rejectedByRule",
    ] {
        assert!(totals[key].as_object().is_some_and(|m| !m.is_empty()), "{key}");
        assert_eq!(counts[key], totals[key], "{key}");
    }
}
