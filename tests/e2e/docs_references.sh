#!/bin/sh
# docs_references.sh — what users read points only at what the repository holds (issue 14, item
# 13): README, docs/manual.md and every --help name docs/language.md, docs/reduction.md and
# docs/manual.md, never the contract's files (../shared/spec, LANGUAGE.md, ...) that are not in
# the repository, and the manual no longer says commands "were not built".
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "docs_references.sh: $*"; exit 1; }
bad='shared/spec\|LANGUAGE\.md\|REDUCTION\.md\|EXAMPLES\.md\|CLI\.md\|GEN\.md\|were not built'
cp README.md docs/manual.md "$tmp/"
"$PAMC" --help > "$tmp/help.txt"
for c in check reduce predict simulate calibrate gen; do "$PAMC" $c --help >> "$tmp/help.txt"; done
for f in README.md manual.md help.txt; do
  hits=$(grep -n "$bad" "$tmp/$f") && die "$f points outside the repository: $hits"
done
# the documents named exist
for d in $(cat README.md docs/manual.md "$tmp/help.txt" | grep -o 'docs/[a-z_]*\.md' | sort -u); do
  [ -f "$d" ] || die "$d is named but missing"
done
grep -q 'docs/language.md' README.md && grep -q 'docs/reduction.md' README.md || die "README names neither docs/language.md nor docs/reduction.md"
exit 0
