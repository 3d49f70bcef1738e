#!/bin/bash
# install.sh — pamc installed like a tool: make install PREFIX=... puts the binary, the man page,
# bash completion, the models and the documentation in place and make uninstall removes them all;
# the man page renders with man -l and no warning; the man page and each command's --help name
# every option the code accepts (so that they cannot drift); the completion completes in bash.
set -u
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "install.sh: $*"; exit 1; }
build=${PAMC%/pamc}; build=${build#$root/}

# --- make install / uninstall ------------------------------------------------------------------
make --no-print-directory -s install BUILD="$build" PREFIX="$tmp/usr" >"$tmp/log" 2>&1 \
  || die "make install failed: $(tail -5 "$tmp/log")"
for f in bin/pamc share/man/man1/pamc.1 share/bash-completion/completions/pamc \
         share/pamc/models/halo.pam share/pamc/models/machine.mach share/pamc/models/gen/primes.spec \
         share/doc/pamc/manual.md; do
  [ -s "$tmp/usr/$f" ] || die "make install did not install $f"
done
"$tmp/usr/bin/pamc" -V | grep -q '^pamc [0-9]' || die "the installed pamc does not run"
"$tmp/usr/bin/pamc" check "$tmp/usr/share/pamc/models/halo.pam" || die "an installed model does not check"
make --no-print-directory -s uninstall BUILD="$build" PREFIX="$tmp/usr" >"$tmp/log" 2>&1 || die "make uninstall failed"
left=$(find "$tmp/usr" -type f)
[ -z "$left" ] || die "make uninstall left: $left"

# --- the man page renders, without warnings ------------------------------------------------------
if command -v man >/dev/null 2>&1; then
  LC_ALL=C MANWIDTH=200 man -E ascii --warnings -l docs/pamc.1 >"$tmp/man.txt" 2>"$tmp/man.err" \
    || die "man -l failed: $(cat "$tmp/man.err")"
  [ -s "$tmp/man.err" ] && die "man -l warned: $(cat "$tmp/man.err")"
  col -b <"$tmp/man.txt" >"$tmp/man.plain" 2>/dev/null || cp "$tmp/man.txt" "$tmp/man.plain"
  grep -q "^COMMANDS" "$tmp/man.plain" || die "the man page has no COMMANDS section"
else
  echo "install.sh: no man, the page is checked as source"
  sed 's/\\-/-/g' docs/pamc.1 >"$tmp/man.plain"
fi

# --- every option the code accepts is in --help and in the man page ------------------------------
# option NAME FILE: options spelled as string literals in a source file ("--plot", "-l")
options_in() { grep -oE '"(--[a-z][a-z-]*|-[a-zA-Z])"' "$1" | tr -d '"' | sort -u; }
common=$( (grep -oE '(match|strcmp)\(arg, "--?[a-zA-Z][a-z-]*"\)' lang/cli/cli.c | grep -oE -- '"--?[a-zA-Z][a-z-]*"' | tr -d '"';
           grep -oE 'strncmp\(arg, "-[a-zA-Z]", 2\)' lang/cli/cli.c | grep -oE -- '-[a-zA-Z]') | sort -u)
common=$(echo "$common" | grep -vx -- -h)   # -h: --help by another name (the man page says so)
echo "$common" | grep -qx -- --quiet || die "the extraction of the common options misses --quiet: $common"
[ -n "$common" ] || die "found no common options in lang/cli/cli.c"
commands=$("$PAMC" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
[ "$(echo "$commands" | wc -w)" -ge 6 ] || die "pamc --help lists no commands: $commands"
for cmd in $commands; do
  help=$("$PAMC" "$cmd" --help) || die "$cmd --help failed"
  src=lang/cli/cmd_$cmd.c
  [ -s "$src" ] || die "no $src: where do the $cmd command's options live?"
  uses_cli=$(grep -c 'cli_parse' "$src")
  own=$(options_in "$src" | grep -vx -- '-h')
  [ "$uses_cli" -gt 0 ] && own=$(echo "$own" | grep -vxF -- "$common")   # the common ones: below
  for opt in $own; do
    echo "$help" | grep -qE -- "(^|[][ ,|])$opt([] =,|]|\$)" || die "$cmd accepts $opt but --help does not say"
    grep -qE -- "(^|[ ,])$opt([ ,=]|\$)" "$tmp/man.plain" || die "$cmd accepts $opt but the man page does not say"
  done
  [ "$uses_cli" -gt 0 ] || continue
  for opt in $common; do   # a common option is documented, or the command refuses it (status 2)
    echo "$help" | grep -qE -- "(^|[][ ,|])$opt([] =,|]|\$)" && continue
    "$PAMC" "$cmd" "$opt" x models/halo.pam >/dev/null 2>"$tmp/err"
    st=$?
    grep -q "unknown option" "$tmp/err" && continue   # not accepted at all (model options of gen)
    [ $st -eq 2 ] || die "$cmd accepts $opt silently (not in --help, not refused)"
  done
  # and every option --help names is one the parser knows
  for opt in $(echo "$help" | grep -oE -- '(^|[][ ,|])--[a-z][a-z-]*' | sed 's/^[][ ,|]//' | sort -u); do
    "$PAMC" "$cmd" "$opt" >/dev/null 2>"$tmp/err" </dev/null
    grep -q "unknown option $opt" "$tmp/err" && die "$cmd --help names $opt, which the parser does not know"
  done
  grep -qE "^ +$cmd " "$tmp/man.plain" || grep -qE "^ *$cmd( |$)" "$tmp/man.plain" || die "the man page has no $cmd"
done
for opt in -V --version; do
  grep -qE -- "(^|[][ ,|])$opt([] ,|]|\$)" "$tmp/man.plain" || die "the man page lacks $opt"
done

# --- bash completion ---------------------------------------------------------------------------
complete_words() {   # the completions of the command line "$@" (the last word being completed)
  bash -c '
    source docs/pamc.bash
    COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
    _pamc
    printf "%s\n" "${COMPREPLY[@]}"' complete "$@"
}
PATH="$(dirname "$PAMC"):$PATH"
complete_words pamc pre | grep -qx predict || die "completion: pamc pre -> $(complete_words pamc pre)"
complete_words pamc help si | grep -qx simulate || die "completion: pamc help si"
for cmd in $("$PAMC" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do   # every command --help lists
  complete_words pamc '' | grep -qx "$cmd" || die "completion: pamc '' lacks $cmd"
done
complete_words pamc simulate --max-m | grep -qx -- --max-memory || die "completion: simulate --max-m"
got=$(complete_words pamc predict --pl)
echo "$got" | grep -qx -- --plot && echo "$got" | grep -qx -- --plot-data || die "completion: predict --pl -> $got"
[ "$(complete_words pamc reduce --format '' | sort | tr '\n' ' ')" = "c json latex text " ] \
  || die "completion: reduce --format -> $(complete_words pamc reduce --format '')"
complete_words pamc simulate --scenario r | grep -qx random || die "completion: --scenario r"
complete_words pamc check --co | grep -qx -- --color || die "completion: check --co"
(cd models && bash -c 'source ../docs/pamc.bash; COMP_WORDS=(pamc check ha); COMP_CWORD=2; _pamc; printf "%s\n" "${COMPREPLY[@]}"') \
  | grep -qx halo.pam || die "completion: check ha -> halo.pam"
exit 0
