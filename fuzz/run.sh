#!/usr/bin/env bash
# Fuzzing campaign: seed the corpora from the bundled samples, run every target, minimize the
# corpora and print one line of figures per target.
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [PARALLEL]      default 1200 s (20 min), 2 at a time
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`); libFuzzer's instrumentation needs nightly
# flags, which RUSTC_BOOTSTRAP=1 enables on the stable toolchain. Crashes land in
# fuzz/artifacts/<target>/; the corpora in fuzz/corpus/<target>/ are committed.
#
# Leak detection is off: the JPEG decoder of image 0.24.9 (pinned to match OpenClaw's Photon)
# decodes on worker threads that finish just after the input returns, and LeakSanitizer then
# reports their thread-local channel context (a few hundred bytes) as a leak and stops the run.
# A leak that grows still stops the run at the RSS limit below.
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET="${1:-1200}"
PARALLEL="${2:-2}"
export RUSTC_BOOTSTRAP=1
TARGETS=(jsonl_line jsonl_file sqlite_payload json_array replay export wire)
ROOT=..
BIN="$ROOT/target/release/replaylens"
[ -x "$BIN" ] || (cd "$ROOT" && cargo build --release --quiet)

# Seeds are made fresh from the bundled samples into seeds/<target>/ (not committed); what the
# fuzzer finds goes to corpus/<target>/ (committed, minimized, inputs over 8 KB left out).
seed() {
  local t="$1" dir="seeds/$1"
  rm -rf "$dir"
  mkdir -p "$dir" "corpus/$1"
  case "$t" in
    jsonl_file)
      for f in "$ROOT"/sample-sessions/*.jsonl; do cp "$f" "$dir/$(basename "$f")"; done ;;
    jsonl_line)
      for f in "$ROOT"/sample-sessions/*.jsonl; do
        n=0; while IFS= read -r line; do n=$((n+1)); [ $n -gt 1 ] && printf '%s\n' "$line" > "$dir/$(basename "$f").$n"; [ $n -ge 12 ] && break; done < "$f"
      done ;;
    sqlite_payload)
      for f in "$ROOT"/sample-sessions/*.jsonl; do head -c 4000 "$f" | zstd -q -c > "$dir/$(basename "$f").zst"; done ;;
    json_array|replay|export|wire)
      for f in "$ROOT"/sample-sessions/*.jsonl "$ROOT"/tests/oracle_cases/*.json; do
        out="$dir/$(basename "$f").json"
        if [[ "$f" == *.jsonl ]]; then
          "$BIN" show "$f" --format json | python3 -c 'import json,sys; print(json.dumps([e["message"] for e in json.load(sys.stdin)]))' > "$out.tmp"
        else
          python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["messages"]))' "$f" > "$out.tmp"
        fi
        if [ "$t" = json_array ]; then mv "$out.tmp" "$out"; else { printf 'A'; cat "$out.tmp"; } > "$out"; rm "$out.tmp"; fi
      done ;;
  esac
}

run_one() {
  local t="$1"
  seed "$t"
  cargo fuzz run --release "$t" "corpus/$t" "seeds/$t" -- -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=4096 \
    -timeout=20 -detect_leaks=0 -print_final_stats=1 > "logs/$t.log" 2>&1 || true
  cargo fuzz cmin --release "$t" "corpus/$t" > "logs/$t.cmin.log" 2>&1 || true
  find "corpus/$t" -type f -size +8k -delete
}

mkdir -p logs
cargo fuzz build --release > logs/build.log 2>&1
for t in "${TARGETS[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$PARALLEL" ]; do sleep 5; done
  run_one "$t" &
done
wait
for t in "${TARGETS[@]}"; do
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' || echo "?")
  crashes=$(ls "artifacts/$t" 2>/dev/null | wc -l)
  files=$(ls "corpus/$t" | wc -l)
  echo "$t: ${SECONDS_PER_TARGET} s, ${runs} executions, ${crashes} crash artifacts, corpus ${files} files"
done
