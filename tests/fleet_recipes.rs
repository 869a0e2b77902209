//! The fleet recipes of docs/fleet.md run as written: workers fanned out with `xargs -P` over
//! `--files-from` and `--shard k/n` give the whole scan together, and DuckDB reading their
//! NDJSON parts (`scripts/fleet-duckdb.py`) counts the same rejected sessions, findings by
//! constraint and rewrites by rule as the scan's own JSON summary. The DuckDB part needs the
//! `duckdb` Python package: skipped with a note without it, required where
//! `REPLAYLENS_REQUIRE_DUCKDB=1` (`.ci/run` sets it once the package is installed).

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
        "seq 1 4 | xargs -P 2 -I K sh -c \"'{bin}' scan --files-from '{list}' --shard K/4 --target mistral --format ndjson > '{dir}/part-K.ndjson' 2>/dev/null\"",
        list = list.display(),
        dir = dir.path().display()
    );
    let status = Command::new("sh").arg("-c").arg(&script).status().unwrap();
    assert!(status.success(), "{script}");
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
    let has_duckdb = Command::new("python3")
        .args(["-c", "import duckdb"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_duckdb {
        assert!(
            std::env::var("REPLAYLENS_REQUIRE_DUCKDB").is_err(),
            "REPLAYLENS_REQUIRE_DUCKDB is set but python3 cannot import duckdb"
        );
        eprintln!("note: the duckdb Python package is absent; the DuckDB recipe is not checked");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/fleet-duckdb.py");
    let out = Command::new("python3").arg(&script).args(&parts).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let duck: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let summary = scan_list(&list, "json");
    let doc: serde_json::Value = serde_json::from_slice(&summary.stdout).unwrap();
    let totals = &doc["summary"]["targets"][0];
    assert!(
        totals["wouldBeRejected"].as_u64().unwrap() > 0,
        "the fleet has rejected sessions"
    );
    assert_eq!(duck["rejected"], totals["wouldBeRejected"]);
    assert_eq!(duck["findingsByConstraint"], totals["findingsByConstraint"]);
    assert_eq!(duck["rewritesByRule"], totals["rewritesByRule"]);
}
