#!/usr/bin/env bash
# A screenshot of the inspector for the README, from the real binary in a real terminal: the
# release binary runs under tmux on a bundled sample, the screen is captured with its colours
# (`tmux capture-pane -e`), drawn as an HTML page on an exact cell grid (scripts/ansi2html.py)
# and shot with headless Chromium.
#
#   bash scripts/inspector-screenshot.sh            # docs/screenshots/inspector-80x24.png and -120x40.png
#   bash scripts/inspector-screenshot.sh OUT_DIR    # somewhere else
#
# The sample is sample-sessions/mistral-ids-and-images.jsonl on its own target (Mistral): ids
# rewritten, an image re-encoded, and a payload Mistral would still reject. The screen is
# taken after `]` (the first rewrite selected) once the projection and its payload lint are
# on screen and nothing has changed for a quarter of a second. The binary is
# $REPLAYLENS_BIN, else target/release/replaylens (built when missing); the browser is
# $CHROMIUM, else the first of chromium, chromium-browser, google-chrome on the PATH.
# Needs tmux and python3.
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
socket="inspector-screenshot-$$"
cleanup() {
  tmux -L "$socket" kill-server >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

sample=sample-sessions/mistral-ids-and-images.jsonl

# The pane as text, for settling (as scripts/readme-captures.sh does).
pane() {
  tmux -L "$socket" capture-pane -p -t shot | sed -e 's/[[:space:]]*$//'
}


# shoot COLS ROWS: docs/screenshots/inspector-COLSxROWS.png.
shoot() {
  local cols="$1" rows="$2" name="inspector-$1x$2"
  local cmd="env TERM=xterm-256color COLORTERM=truecolor HOME='$work' REPLAYLENS_CONFIG_DIR='$work' '$bin' '$sample'"
  tmux -L "$socket" -f /dev/null new-session -d -x "$cols" -y "$rows" -s shot "$cmd"
  settle "replay projection ("
  tmux -L "$socket" send-keys -t shot "]"
  sleep 0.3
  settle "replay projection ("
  # -e: with colours and attributes; -N: trailing spaces kept (they may carry a background).
  tmux -L "$socket" capture-pane -e -N -p -t shot >"$work/$name.ans"
  tmux -L "$socket" kill-server >/dev/null 2>&1 || true
  python3 scripts/ansi2html.py "$cols" "$rows" <"$work/$name.ans" >"$work/$name.html"
  # The page is the grid plus 12 px and 14 px of padding; shot at twice the pixels.
  local width=$((cols * 10 + 28)) height=$((rows * 20 + 24))
  local png="$out_dir/$name.png"
  "$browser" --headless --disable-gpu --no-sandbox --hide-scrollbars --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --force-color-profile=srgb --force-device-scale-factor=2 \
    --user-data-dir="$work/profile-$name" \
    --window-size="$width,$height" --screenshot="$png" "file://$work/$name.html" >/dev/null 2>&1
  [ -s "$png" ] || { echo "no screenshot written for $name" >&2; exit 1; }
  echo "wrote ${png#"$root"/}"
}

shoot 80 24
shoot 120 40
