#!/usr/bin/env bash
# Screenshots of the HTML export for the README, taken with headless Chromium from the real
# binary, so they show what the current code renders.
#
#   bash scripts/html-screenshots.sh            # writes docs/screenshots/<sample>-<width>.png
#   bash scripts/html-screenshots.sh OUT_DIR    # somewhere else
#
# Two samples, each exported to HTML and shot at 1400 px (sidebar index, side-by-side diffs)
# and 800 px (header index, unified diffs), 2000 px tall, in the light theme. The binary is
# $REPLAYLENS_BIN, else target/release/replaylens (built when missing); the browser is
# $CHROMIUM, else the first of chromium, chromium-browser, google-chrome on the PATH.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=scripts/lib.sh
source "$root/scripts/lib.sh"
out_dir="${1:-docs/screenshots}"
mkdir -p "$out_dir"
out_dir="$(cd "$out_dir" && pwd)"

bin="$(release_bin)"
browser="$(find_chromium)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# shoot NAME WIDTH: a screenshot of $work/NAME.html at WIDTH×2000.
shoot() {
  local name="$1" width="$2"
  local png="$out_dir/$name-$width.png"
  # A fresh profile each time: no state, no first-run pages, nothing fetched.
  "$browser" --headless --disable-gpu --no-sandbox --hide-scrollbars --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --force-color-profile=srgb --force-device-scale-factor=1 \
    --user-data-dir="$work/profile-$name-$width" \
    --window-size="$width,2000" --screenshot="$png" "file://$work/$name.html" >/dev/null 2>&1
  [ -s "$png" ] || { echo "no screenshot written for $name at $width px" >&2; exit 1; }
  echo "wrote ${png#"$root"/}"
}

# export NAME ARGS…: sample-sessions/NAME.jsonl to $work/NAME.html.
export_html() {
  local name="$1"
  shift
  "$bin" export "sample-sessions/$name.jsonl" "$@" --format html -o "$work/$name.html" 2>/dev/null
}

export_html mistral-ids-and-images --provider mistral --api mistral-conversations --model devstral-medium-2507
export_html anthropic-tool-repair
for name in mistral-ids-and-images anthropic-tool-repair; do
  for width in 1400 800; do
    shoot "$name" "$width"
  done
done
