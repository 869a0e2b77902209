#!/usr/bin/env python3
"""Read `replaylens scan --format ndjson` output with DuckDB: for the first target, the
sessions that would be rejected, the findings by constraint and the rewrites by rule.

Usage: python3 scripts/fleet-duckdb.py SCAN.ndjson [MORE.ndjson ...]   (a shard's parts
together, or one file); prints one JSON object: {"rejected", "findingsByConstraint",
"rewritesByRule"}. docs/fleet.md explains the queries; tests/fleet_recipes.rs checks them
against the scan's own JSON summary.
"""
import json
import sys

import duckdb

files = sys.argv[1:]
if not files:
    sys.exit(__doc__)
con = duckdb.connect()
rows = f"read_ndjson_objects({files!r})"
# One row per session and target: the session's `targets` array unnested; the first target.
targets = f"""
    SELECT from_json(json->'targets', '["JSON"]')[1] AS t
    FROM {rows}
    WHERE json_array_length(json->'targets') > 0
"""
rejected = con.execute(
    f"SELECT count(*) FROM ({targets}) WHERE t->>'verdict' = 'would-be-rejected'"
).fetchone()[0]


def by_key(field):
    query = f"""
        WITH k AS (SELECT t, unnest(json_keys(t->'{field}')) AS key FROM ({targets}))
        SELECT key, sum(CAST(t->'{field}'->>key AS BIGINT)) FROM k GROUP BY key ORDER BY key
    """
    return {key: int(n) for key, n in con.execute(query).fetchall()}


print(
    json.dumps(
        {
            "rejected": rejected,
            "findingsByConstraint": by_key("findingsByConstraint"),
            "rewritesByRule": by_key("rewritesByRule"),
        },
        sort_keys=True,
    )
)
