#!/usr/bin/env bash
# tests/e2e/cli.sh — the command line of CLI.md through `pamc check`: help, version, exit
# statuses 0/1/2/3, diagnostics on stderr only, imports, machine files, -D and -e.
set -u
pamc=${PAMC:-./build/pamc}
dir=tests/models/check
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# no default machine file from the user running the tests
export XDG_CONFIG_HOME="$tmp/config"
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run CMD...: runs pamc, keeps status, stdout and stderr
run() {
  "$pamc" "$@" >"$tmp/out" 2>"$tmp/err"
  status=$?
}
expect_status() { # WANT DESCRIPTION
  if [ "$status" -ne "$1" ]; then
    fail "$2: exit $status, want $1"; sed 's/^/  stderr: /' "$tmp/err"
  fi
}
expect_stdout_empty() { [ -s "$tmp/out" ] && fail "$1: stdout not empty: $(head -c 200 "$tmp/out")"; true; }
expect_stderr_empty() { [ -s "$tmp/err" ] && fail "$1: stderr not empty: $(head -c 300 "$tmp/err")"; true; }
expect_stderr_line() { # LINE DESCRIPTION: an exact line of stderr
  grep -qxF -- "$1" "$tmp/err" || { fail "$2: no stderr line '$1'"; sed 's/^/  stderr: /' "$tmp/err"; }
}
expect_stderr_has() { # TEXT DESCRIPTION
  grep -qF -- "$1" "$tmp/err" || { fail "$2: stderr lacks '$1'"; sed 's/^/  stderr: /' "$tmp/err"; }
}

# --- pamc itself
run --help;            expect_status 0 "--help"; grep -q '^usage: pamc' "$tmp/out" || fail "--help: no usage on stdout"
grep -q 'check' "$tmp/out" || fail "--help lists no check"
run --version;         expect_status 0 "--version"; grep -qE '^pamc [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/out" || fail "--version: $(cat "$tmp/out")"
run;                   expect_status 2 "no command"
run frobnicate;        expect_status 2 "unknown command"; expect_stderr_has "unknown command 'frobnicate'" "unknown command"

# --- every subcommand has --help, or says it is not built yet (usage status)
for cmd in check reduce predict simulate calibrate gen; do
  run "$cmd" --help
  if grep -q 'not built yet' "$tmp/err"; then
    expect_status 2 "$cmd (not built)"
  else
    expect_status 0 "$cmd --help"
    grep -q "usage: pamc $cmd" "$tmp/out" || fail "$cmd --help: no usage line on stdout"
  fi
done

# --- check: usage errors
run check;                             expect_status 2 "check without file"
run check --bogus "$dir/good.pam";     expect_status 2 "check --bogus"; expect_stderr_has "unknown option --bogus" "check --bogus"
run check -D N "$dir/good.pam";        expect_status 2 "-D without ="
run check -m;                          expect_status 2 "-m without file"

# --- check: a good model is silent
run check "$dir/good.pam";             expect_status 0 "good.pam"; expect_stdout_empty "good.pam"; expect_stderr_empty "good.pam"
run check models/halo.pam;             expect_status 0 "models/halo.pam"; expect_stderr_empty "halo.pam"

# --- check --dump: the syntax trees of the files read, on stdout
run check --dump "$dir/imports.pam";   expect_status 0 "--dump"
grep -qxF '(const unit 1us)' "$tmp/out" || fail "--dump: no '(const unit 1us)' from the imported file"
grep -qF '(process main ()' "$tmp/out" || fail "--dump: no main"

# --- check: errors on stderr as file:line:col: error:, nothing on stdout
run check "$dir/bad.pam";              expect_status 1 "bad.pam"; expect_stdout_empty "bad.pam"
expect_stderr_line "$dir/bad.pam:5:9: error: unknown name 'Nn'; did you mean 'N'?" "bad.pam"
expect_stderr_line "$dir/bad.pam:7:3: error: unknown process 'work'" "bad.pam"
# each message is followed by its source line and a caret under the place (as GCC, Clang)
expect_stderr_line "    5 |   delay(Nn * 1us);" "bad.pam source line"
expect_stderr_line "      |         ^~" "bad.pam caret"
[ "$(grep -cvE '^ +([0-9]+ )?\| ' "$tmp/err")" -eq 2 ] || fail "bad.pam: want 2 messages on stderr: $(cat "$tmp/err")"
grep -vE '^ +([0-9]+ )?\| ' "$tmp/err" | grep -vqE '^[^:]+:[0-9]+:[0-9]+: (error|note): ' && fail "bad.pam: a stderr line not in file:line:col form"

# --- check: unreadable file (3), several files (worst status)
run check "$dir/no_such.pam";          expect_status 3 "missing file"; expect_stderr_has "no_such.pam" "missing file"
run check "$dir/good.pam" "$dir/bad.pam"; expect_status 1 "good + bad"
run check "$dir/bad.pam" "$dir/no_such.pam"; expect_status 3 "bad + missing"

# --- imports: relative to the importing file, each file once, missing, cycle
run check "$dir/imports.pam";          expect_status 0 "imports.pam"; expect_stderr_empty "imports.pam"
run check "$dir/missing_import.pam";   expect_status 1 "missing import"
expect_stderr_line "$dir/missing_import.pam:2:1: error: cannot import 'no_such_file.pam': No such file or directory" "missing import"
run check "$dir/cycle_a.pam";          expect_status 1 "import cycle"
expect_stderr_line "$dir/cycle_b.pam:1:1: error: import cycle: $dir/cycle_a.pam -> $dir/cycle_b.pam -> $dir/cycle_a.pam" "import cycle"
(cd "$dir/lib" && "$pamc" check ../imports.pam) >"$tmp/out" 2>"$tmp/err"; status=$?
expect_status 0 "imports from another directory"

# --- machine files (-m), -D, -e
run check "$dir/needs_machine.pam";                          expect_status 0 "needs_machine without -m"
run check -m "$dir/machine.mach" "$dir/needs_machine.pam";   expect_status 0 "needs_machine -m"; expect_stderr_empty "-m"
run check -m "$dir/negative_machine.mach" "$dir/needs_machine.pam"; expect_status 1 "negative machine constant"
expect_stderr_line "$dir/needs_machine.pam:5:22: error: duration is negative (-4.99e-06 s) for the values at hand" "negative machine constant"
# the later machine file overrides the earlier one
run check -m "$dir/negative_machine.mach" -m "$dir/machine.mach" "$dir/needs_machine.pam"; expect_status 0 "later -m wins"
run check -m "$dir/bad_machine.mach" "$dir/needs_machine.pam"; expect_status 1 "machine file with a process"
expect_stderr_line "$dir/bad_machine.mach:3:1: error: a machine file holds only const, fn and resource declarations, not process" "bad machine"
run check -m "$dir/no_such.mach" "$dir/needs_machine.pam";   expect_status 3 "missing machine file"
run check -D N=50 "$dir/needs_machine.pam";                  expect_status 0 "-D N=50"
run check -D N=500 "$dir/needs_machine.pam";                 expect_status 1 "-D out of range"
expect_stderr_line "pamc: error: -D N=500: value 500 is outside the admissible values of 'N' (1 .. 100)" "-D out of range"
run check -D latency=-1ms "$dir/needs_machine.pam";          expect_status 1 "-D negative latency"
run check -D "latency=[1us, 2us]" -DN=3 "$dir/needs_machine.pam"; expect_status 0 "-D interval"
run check -D "N=2 +" "$dir/needs_machine.pam"; expect_status 1 "-D syntax error"
grep -qE "^pamc: error: -D N=2 \+: " "$tmp/err" || fail "-D syntax error: $(cat "$tmp/err")"
run check -D M=3 "$dir/needs_machine.pam";                   expect_status 1 "-D unknown name"
run check -e work "$dir/good.pam";                           expect_status 1 "-e a process with parameters"
run check "$dir/machine.mach";                               expect_status 0 "a machine file checks on its own"
run check -e main "$dir/machine.mach";                       expect_status 1 "-e main in a file without processes"
run check -e nothing "$dir/good.pam";                        expect_status 1 "-e missing"
expect_stderr_has "no entry process 'nothing'" "-e missing"

# --- the default machine file, with a note on stderr
mkdir -p "$XDG_CONFIG_HOME/pamc"
cp "$dir/negative_machine.mach" "$XDG_CONFIG_HOME/pamc/machine.mach"
run check "$dir/needs_machine.pam";  expect_status 1 "default machine file"
expect_stderr_line "pamc: note: using machine file $XDG_CONFIG_HOME/pamc/machine.mach" "default machine note"
run check -m "$dir/machine.mach" "$dir/needs_machine.pam"; expect_status 0 "-m replaces the default"
rm -f "$XDG_CONFIG_HOME/pamc/machine.mach"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "cli: all passed"
