#!/usr/bin/env bash
# Regenerate the captures in README.md from the real binary, so they cannot go stale.
#
#   bash scripts/readme-captures.sh           # rewrite README.md in place
#   bash scripts/readme-captures.sh --check   # exit 1 (and show the diff) when README.md differs
#
# A capture is a fenced block between `<!-- capture: NAME -->` and `<!-- /capture -->`; NAME
# picks the command below. A NAME ending in `-table` is Markdown the command prints, kept as is
# (no fence). The inspector is captured under tmux at 120×40 with
# `tmux capture-pane -p`, after the projection and its payload lint are on screen. The binary
# is $REPLAYLENS_BIN, else target/release/replaylens (built when missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=scripts/lib.sh
source "$root/scripts/lib.sh"
check=0
[ "${1:-}" = "--check" ] && check=1

bin="$(release_bin)"
work="$(mktemp -d)"
socket="readme-captures-$$"
cleanup() {
  tmux -L "$socket" kill-server >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# The pane, with trailing blanks cut from every line and trailing empty lines dropped.
pane() {
  tmux -L "$socket" capture-pane -p -t cap | sed -e 's/[[:space:]]*$//' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}


# The inspector at 120×40 on ARGS, after KEYS.
inspector() {
  local keys="$1"
  shift
  local cmd="env TERM=xterm-256color HOME='$work' REPLAYLENS_CONFIG_DIR='$work' '$bin'"
  for a in "$@"; do cmd="$cmd '$a'"; done
  tmux -L "$socket" -f /dev/null new-session -d -x 120 -y 40 -s cap "$cmd"
  settle "replay projection ("
  if [ -n "$keys" ]; then
    tmux -L "$socket" send-keys -t cap "$keys"
    sleep 0.3
    settle "replay projection ("
  fi
  pane
  tmux -L "$socket" kill-server >/dev/null 2>&1 || true
}

capture() {
  case "$1" in
    inspector-mistral)
      inspector "]" sample-sessions/mistral-ids-and-images.jsonl \
        --provider mistral --api mistral-conversations --model devstral-medium-2507
      ;;
    lint-mistral)
      "$bin" lint sample-sessions/mistral-ids-and-images.jsonl --stage both || true
      ;;
    scan-samples)
      "$bin" scan sample-sessions
      ;;
    providers-table)
      "$bin" providers --format markdown
      ;;
    *)
      echo "unknown capture $1" >&2
      return 1
      ;;
  esac
}

for name in $(grep -o '<!-- capture: [a-z0-9-]* -->' README.md | sed -e 's/<!-- capture: //' -e 's/ -->//'); do
  capture "$name" > "$work/$name.txt"
done

python3 - "$work" README.md "$work/README.md" <<'PY'
import re, sys
work, src, dst = sys.argv[1:4]
text = open(src, encoding="utf-8").read()
def fill(m):
    body = open(f"{work}/{m.group(1)}.txt", encoding="utf-8").read().rstrip("\n")
    if m.group(1).endswith("-table"):
        return f"<!-- capture: {m.group(1)} -->\n{body}\n<!-- /capture -->"
    return f"<!-- capture: {m.group(1)} -->\n```\n{body}\n```\n<!-- /capture -->"
out = re.sub(r"<!-- capture: ([a-z0-9-]+) -->\n.*?<!-- /capture -->", fill, text, flags=re.S)
open(dst, "w", encoding="utf-8").write(out)
PY

if [ "$check" = 1 ]; then
  if ! diff -u README.md "$work/README.md"; then
    echo "README.md captures differ from the binary: run bash scripts/readme-captures.sh" >&2
    exit 1
  fi
  echo "README.md captures match the binary"
else
  cp "$work/README.md" README.md
  echo "README.md captures regenerated"
fi
