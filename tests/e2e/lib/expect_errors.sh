# tests/e2e/lib/expect_errors.sh — sourced by the e2e scripts that hold `pamc check` to its exact
# error lines (tests/run.sh runs only tests/e2e/*.sh, not this folder). Sets up a scratch folder
# ($work, removed on exit) and status=0; the caller ends with `exit $status`.
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# expect FILE-CONTENT EXPECTED-LINES: `pamc check` on the model fails and the errors it prints
# (file:line:col: error: ..., the scratch folder left out) are exactly these lines.
expect() {
  printf '%s' "$1" > "$work/m.pam"
  if out=$("$PAMC" check "$work/m.pam" 2>&1); then
    echo "FAIL: pamc check succeeded on: $1"; status=1; return
  fi
  got=$(printf '%s\n' "$out" | grep ': error: ' | sed "s|$work/||")
  if [ "$got" != "$2" ]; then
    printf 'FAIL on: %s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$got"; status=1
  fi
}
