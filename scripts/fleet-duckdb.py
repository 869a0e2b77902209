#!/usr/bin/env python3
"""Read `replaylens scan` output with DuckDB: for the first target, the sessions that would be
rejected, the findings by constraint, the rewrites by rule, and the rejected sessions by the
constraint they break and by the rule that rewrote them.

Usage: python3 scripts/fleet-duckdb.py PART [PART ...]
  PART: `scan --format ndjson` output, or `scan --format parquet` files or folders (a shard's
  parts together, or one file). Prints one JSON object: {"rejected", "findingsByConstraint",
  "rewritesByRule", "rejectedByConstraint", "rejectedByRule"}. docs/fleet.md explains the queries;
  tests/fleet_recipes.rs checks them against the scan's own JSON summary.
"""
import json
import os
import sys

import duckdb


def parquet_files(parts):
    files = []
    for part in parts:
        if os.path.isdir(part):
            files.append(os.path.join(part, "*.parquet"))
        else:
            files.append(part)
    return files


def from_ndjson(con, parts):
    # One row per session and target: the session's `targets` array unnested; the first target.
    targets = f"""
        SELECT from_json(json->'targets', '["JSON"]')[1] AS t
        FROM read_ndjson_objects({parts!r})
        WHERE json_array_length(json->'targets') > 0
    """
    rejected = con.execute(
        f"SELECT count(*) FROM ({targets}) WHERE t->>'verdict' = 'would-be-rejected'"
    ).fetchone()[0]

    def by_key(field, where="true"):
        query = f"""
            WITH k AS (SELECT t, unnest(json_keys(t->'{field}')) AS key FROM ({targets}) WHERE {where})
            SELECT key, sum(CAST(t->'{field}'->>key AS BIGINT)) FROM k GROUP BY key ORDER BY key
        """
        return {key: int(n) for key, n in con.execute(query).fetchall()}

    def rejected_by(field):
        query = f"""
            WITH k AS (SELECT unnest(json_keys(t->'{field}')) AS key FROM ({targets})
                       WHERE t->>'verdict' = 'would-be-rejected')
            SELECT key, count(*) FROM k GROUP BY key ORDER BY key
        """
        return {key: int(n) for key, n in con.execute(query).fetchall()}

    return {
        "rejected": rejected,
        "findingsByConstraint": by_key("findingsByConstraint"),
        "rewritesByRule": by_key("rewritesByRule"),
        "rejectedByConstraint": rejected_by("findingsByConstraint"),
        "rejectedByRule": rejected_by("rewritesByRule"),
    }


def from_parquet(con, parts):
    # One row per session and target already: typed columns, MAP(VARCHAR, BIGINT) counts.
    rows = f"read_parquet({parquet_files(parts)!r})"
    first = f"SELECT * FROM {rows} WHERE target_index = 1"
    rejected = con.execute(
        f"SELECT count(*) FROM ({first}) WHERE verdict = 'would-be-rejected'"
    ).fetchone()[0]

    def by_key(column):
        query = f"""
            WITH e AS (SELECT unnest(map_entries({column})) AS e FROM ({first}))
            SELECT e.key, sum(e.value) FROM e GROUP BY e.key ORDER BY e.key
        """
        return {key: int(n) for key, n in con.execute(query).fetchall()}

    def rejected_by(column):
        query = f"""
            WITH k AS (SELECT unnest(map_keys({column})) AS key FROM ({first})
                       WHERE verdict = 'would-be-rejected')
            SELECT key, count(*) FROM k GROUP BY key ORDER BY key
        """
        return {key: int(n) for key, n in con.execute(query).fetchall()}

    return {
        "rejected": rejected,
        "findingsByConstraint": by_key("findings_by_constraint"),
        "rewritesByRule": by_key("rewrites_by_rule"),
        "rejectedByConstraint": rejected_by("findings_by_constraint"),
        "rejectedByRule": rejected_by("rewrites_by_rule"),
    }


def main():
    parts = sys.argv[1:]
    if not parts:
        sys.exit(__doc__)
    con = duckdb.connect()
    parquet = all(p.endswith(".parquet") or os.path.isdir(p) for p in parts)
    counts = (from_parquet if parquet else from_ndjson)(con, parts)
    print(json.dumps(counts, sort_keys=True))


if __name__ == "__main__":
    main()
