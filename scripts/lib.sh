# Shared by the scripts that drive the release binary under tmux or shoot pages in Chromium
# (readme-captures.sh, inspector-screenshot.sh, html-screenshots.sh). Source it after
# `root` is set and `cd "$root"`.

# The binary: $REPLAYLENS_BIN, else the release build (built when missing).
release_bin() {
  if [ -n "${REPLAYLENS_BIN:-}" ]; then
    echo "$REPLAYLENS_BIN"
    return
  fi
  cargo build --release --quiet
  echo "${CARGO_TARGET_DIR:-$root/target}/release/replaylens"
}

# The browser: $CHROMIUM, else the first of chromium, chromium-browser, google-chrome on the
# PATH; fails with a sentence when there is none.
find_chromium() {
  if [ -n "${CHROMIUM:-}" ]; then
    echo "$CHROMIUM"
    return
  fi
  local name
  for name in chromium chromium-browser google-chrome; do
    if command -v "$name" >/dev/null 2>&1; then
      command -v "$name"
      return
    fi
  done
  echo "no Chromium found: set CHROMIUM=/path/to/chromium" >&2
  return 1
}

# Wait until the pane (the caller's `pane` function) holds $1, nothing is still being
# computed, and it has not changed for a quarter of a second.
settle() {
  local want="$1" last="" now tries=0
  while :; do
    now="$(pane)"
    if [[ "$now" == *"$want"* ]] && [[ "$now" != *"payload …"* ]] && [[ "$now" != *"(computing)"* ]] \
      && [[ "$now" != *"computing the projection"* ]] && [ "$now" = "$last" ]; then
      return 0
    fi
    last="$now"
    tries=$((tries + 1))
    if [ "$tries" -gt 300 ]; then
      echo "timed out waiting for \"$want\"; screen:" >&2
      echo "$now" >&2
      return 1
    fi
    sleep 0.25
  done
}
