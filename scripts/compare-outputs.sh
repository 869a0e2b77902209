#!/usr/bin/env bash
# Compare two replaylens binaries byte for byte on every sample session, for a behaviour-
# preserving change (a refactoring must not change any output).
#
# Usage: scripts/compare-outputs.sh BEFORE_BIN AFTER_BIN
#
# Samples: sample-sessions/*.jsonl and *.sqlite, and every session file of the shared samples
# ($REPLAYLENS_SHARED_SAMPLES, default ../shared/samples from the repository root, as
# tests/common/mod.rs finds them; .md, .sql, .meta.json and sessions.json are not sessions).
#
# Targets: the session's own (no target flags), then one profile per family that
# `AFTER_BIN providers --format json` lists (the first profile of each family, in the order
# listed). COMPARE_FAMILIES=anthropic,google,… keeps only those families;
# COMPARE_ALL_PROFILES=1 takes every profile of every provider instead.
#
# Commands, for every sample × target: `replay`, `payload` and `lint` as JSON (COMPARE_TEXT=1:
# also as text), and `export` as Markdown, JSON and HTML. stdout, stderr and the exit status
# of both binaries must be identical. `providers` (text and JSON) is compared once.
#
# Exports are deterministic: they embed the replaylens version (the same for both builds of
# one version) and no date or path of the binary, so nothing is normalised. Both binaries run
# in the same directory with the same arguments.
#
# Exit status: 0 when every output is identical, 1 on a difference (each listed), 2 on misuse.
# JOBS (default 2) runs that many comparisons at once.

set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 BEFORE_BIN AFTER_BIN" >&2
    exit 2
fi
before=$(realpath "$1")
after=$(realpath "$2")
for bin in "$before" "$after"; do
    [[ -x $bin ]] || { echo "$0: $bin is not an executable" >&2; exit 2; }
done

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${REPLAYLENS_SHARED_SAMPLES:-$root/../shared/samples}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

samples=()
for f in "$root"/sample-sessions/*.jsonl "$root"/sample-sessions/*.sqlite; do
    [[ -e $f ]] && samples+=("$f")
done
if [[ -d $shared ]]; then
    while IFS= read -r f; do
        case $f in
            *.md | *.sql | *.meta.json | */sessions.json) ;;
            *) samples+=("$f") ;;
        esac
    done < <(find "$shared" -type f | LC_ALL=C sort)
else
    echo "note: no shared samples at $shared" >&2
fi

# Targets, one per line: empty (the session's own), or `provider<TAB>api<TAB>model`.
targets=$'\n'
if [[ ${COMPARE_ALL_PROFILES:-0} == 1 ]]; then
    filter='.providers[] | .provider as $p | .profiles[] | [$p, .api, .model, .family] | @tsv'
else
    filter='[.providers[] | .provider as $p | .profiles[] | {p: $p, api, model, family}]
            | reduce .[] as $x ({seen: {}, out: []};
                if .seen[$x.family] then . else .seen[$x.family] = true | .out += [$x] end)
            | .out[] | [.p, .api, .model, .family] | @tsv'
fi
families=${COMPARE_FAMILIES:-}
targets+=$("$after" providers --format json | jq -r "$filter" | while IFS=$'\t' read -r p api model family; do
    if [[ -z $families || ,$families, == *,$family,* ]]; then printf '%s\t%s\t%s\n' "$p" "$api" "$model"; fi
done)

# One comparison: run both binaries with the same arguments, compare stdout, stderr and status.
compare_one() {
    local id=$1
    shift
    local b=$work/$id.before a=$work/$id.after
    (cd "$work" && set +e && "$before" "$@" >"$b.out" 2>"$b.err"; echo $? >"$b.rc")
    (cd "$work" && set +e && "$after" "$@" >"$a.out" 2>"$a.err"; echo $? >"$a.rc")
    local what
    for what in out err rc; do
        if ! cmp -s "$b.$what" "$a.$what"; then
            echo "DIFF ($what): replaylens $*" >>"$work/diffs"
        fi
    done
    rm -f "$b".* "$a".*
}
export -f compare_one
export before after work

jobs_file=$work/jobs
: >"$jobs_file"
n=0
add() {
    n=$((n + 1))
    printf '%s\0' "$n" "$@" >>"$jobs_file"
    printf '\n' >>"$jobs_file"
}
add providers
add providers --format json
for sample in "${samples[@]}"; do
    while IFS=$'\t' read -r provider api model; do
        t=()
        [[ -n ${provider:-} ]] && t=(--provider "$provider" --api "$api" --model "$model")
        formats=(json)
        [[ ${COMPARE_TEXT:-0} == 1 ]] && formats=(text json)
        for fmt in "${formats[@]}"; do
            add replay "$sample" "${t[@]}" --format "$fmt"
            add payload "$sample" "${t[@]}" --format "$fmt"
            add lint "$sample" "${t[@]}" --format "$fmt"
        done
        for fmt in md json html; do
            add export "$sample" "${t[@]}" --format "$fmt"
        done
    done <<<"$targets"
done
per_target=$((3 * ${#formats[@]} + 3))

# Each job is one NUL-separated argument list ended by a newline.
python3 - "$jobs_file" "${JOBS:-2}" <<'PY'
import os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
jobs = [line.rstrip(b"\0").split(b"\0") for line in open(sys.argv[1], "rb").read().split(b"\0\n") if line]
def run(args):
    subprocess.run(["bash", "-c", 'compare_one "$@"', "compare_one", *[a.decode() for a in args]], check=True)
with ThreadPoolExecutor(int(sys.argv[2])) as pool:
    list(pool.map(run, jobs))
PY

sample_count=${#samples[@]}
target_count=$(wc -l <<<"$targets")
echo "compared $n outputs: $sample_count samples × $target_count targets × $per_target commands (replay, payload, lint as ${formats[*]}; export as md, json, html), plus providers ×2"
if [[ -s $work/diffs ]]; then
    sort "$work/diffs"
    echo "$(wc -l <"$work/diffs") difference(s)"
    exit 1
fi
echo "no differences"
