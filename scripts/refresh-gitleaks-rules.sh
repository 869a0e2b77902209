#!/bin/sh
# Replace src/export/redact/gitleaks.toml with the newest gitleaks rule catalogue
# (config/gitleaks.toml of github.com/gitleaks/gitleaks, MIT licence: the notice is
# src/export/redact/GITLEAKS-LICENSE). Run by hand, never by CI; then run
#   cargo test --lib export::redact
# which fails if a rule no longer compiles (it names it: add it to SKIPPED in
# src/export/redact/catalogue_tests.rs with a reason, or fix the cause) and checks the samples.
#
# Usage: scripts/refresh-gitleaks-rules.sh [REF]   (REF: a branch, tag or commit; default master)
set -eu

ref=${1:-master}
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/src/export/redact/gitleaks.toml"
base="https://raw.githubusercontent.com/gitleaks/gitleaks/$ref"
tmp=$(mktemp "$dest.XXXXXX")
trap 'rm -f "$tmp" "$tmp.license"' EXIT INT TERM HUP

curl --fail --silent --show-error --location --proto '=https' "$base/config/gitleaks.toml" -o "$tmp"
curl --fail --silent --show-error --location --proto '=https' "$base/LICENSE" -o "$tmp.license"

# The catalogue must still be gitleaks' MIT-licensed rule set.
grep -q '^MIT License' "$tmp.license" || {
    echo "gitleaks LICENSE at $ref is no longer MIT: not replacing $dest" >&2
    exit 1
}
grep -q '^\[\[rules\]\]' "$tmp" || {
    echo "no [[rules]] in the downloaded file: not replacing $dest" >&2
    exit 1
}

cp "$tmp.license" "$root/src/export/redact/GITLEAKS-LICENSE"
mv "$tmp" "$dest"
echo "gitleaks.toml: $(grep -c '^\[\[rules\]\]' "$dest") rules from gitleaks $ref"
