#!/usr/bin/env python3
"""Fan `replaylens scan` out over local Dask workers and union the results.

Usage: python3 scripts/fleet-dask.py REPLAYLENS LIST SHARDS TARGET [WORKERS]
  Runs `REPLAYLENS scan --files-from LIST --shard k/SHARDS --target TARGET --format ndjson` for
  k = 1..SHARDS as Dask tasks on WORKERS local processes (default 2), unions their rows in one
  Dask bag and prints, for the target, {"sessions", "rejected", "findingsByConstraint",
  "rewritesByRule", "rejectedByConstraint", "rejectedByRule"} as one JSON object. On a cluster the same graph runs on a
  `dask.distributed.Client`; only the scheduler changes. docs/fleet.md explains it;
  tests/fleet_recipes.rs checks it against the scan's own JSON summary.
"""
import json
import subprocess
import sys

import dask
import dask.bag as db


def scan_shard(replaylens, listing, k, shards, target):
    """One worker's shard: its NDJSON rows, parsed. A failed worker fails the job."""
    out = subprocess.run(
        [replaylens, "scan", "--files-from", listing, "--shard", f"{k}/{shards}",
         "--target", target, "--format", "ndjson"],
        check=True, capture_output=True, text=True,
    )
    return [json.loads(line) for line in out.stdout.splitlines() if line]


def add_counts(total, counts):
    for key, n in counts.items():
        total[key] = total.get(key, 0) + n
    return total


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    replaylens, listing, shards, target = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    workers = int(sys.argv[5]) if len(sys.argv) == 6 else 2
    rows = db.from_sequence(range(1, shards + 1), npartitions=shards).map(
        lambda k: scan_shard(replaylens, listing, k, shards, target)
    ).flatten()
    first = rows.filter(lambda r: r["targets"]).map(lambda r: r["targets"][0])
    sessions = rows.count()
    rejected = first.filter(lambda t: t["verdict"] == "would-be-rejected").count()
    findings = first.map(lambda t: t["findingsByConstraint"]).fold(add_counts, add_counts, initial={})
    rewrites = first.map(lambda t: t["rewritesByRule"]).fold(add_counts, add_counts, initial={})
    rejected_rows = first.filter(lambda t: t["verdict"] == "would-be-rejected")
    by_constraint = rejected_rows.map(lambda t: list(t["findingsByConstraint"])).flatten().frequencies()
    by_rule = rejected_rows.map(lambda t: list(t["rewritesByRule"])).flatten().frequencies()
    with dask.config.set(scheduler="processes", num_workers=workers):
        sessions, rejected, findings, rewrites, by_constraint, by_rule = dask.compute(
            sessions, rejected, findings, rewrites, by_constraint, by_rule
        )
    print(json.dumps({
        "sessions": sessions,
        "rejected": rejected,
        "findingsByConstraint": findings,
        "rewritesByRule": rewrites,
        "rejectedByConstraint": dict(by_constraint),
        "rejectedByRule": dict(by_rule),
    }, sort_keys=True))


if __name__ == "__main__":
    main()
