#!/bin/sh
# messages_agree.sh — one message, at one place, from every command (issue 14, items 10, 11, 12):
# a const without a value is reported at its declaration with the same words by reduce --subst,
# predict and simulate; a -D value outside the param's admissible values is the first and only
# error (not the family of size 0 it causes); an empty file is the same error at 1:1 everywhere.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
die() { echo "messages_agree.sh: $*"; exit 1; }

# --- item 10: const without a value ------------------------------------------------------------
printf 'const t;\nresource r;\nprocess main = use(r, t);\n' > "$tmp/nov.pam"
want="$tmp/nov.pam:1:7: error: const 't' has no value: give it in a machine file (-m) or with -D t=VALUE"
for c in "reduce --subst" predict simulate; do
  # shellcheck disable=SC2086
  "$PAMC" $c "$tmp/nov.pam" > /dev/null 2> "$tmp/err"; rc=$?
  [ $rc -eq 1 ] || die "no value, $c: exit $rc"
  [ "$(head -1 "$tmp/err")" = "$want" ] || die "no value, $c: $(cat "$tmp/err")"
done

# --- item 11: -D outside the admissible values comes first, alone ----------------------------------
printf 'param P = 4;\nresource cpu[P];\nprocess main = par (i = 0, P - 1) use(cpu[i], 1us);\n' > "$tmp/p0.pam"
for c in check reduce predict simulate; do
  "$PAMC" $c -D P=0 "$tmp/p0.pam" > /dev/null 2> "$tmp/err"; rc=$?
  [ $rc -eq 1 ] || die "P=0, $c: exit $rc"
  [ "$(head -1 "$tmp/err")" = "pamc: error: -D P=0: value 0 is outside the admissible values of 'P' (at least 1)" ] \
    || die "P=0, $c: first error: $(cat "$tmp/err")"
  grep -q "family size" "$tmp/err" && die "P=0, $c: the consequence is reported too: $(cat "$tmp/err")"
done

# --- item 12: an empty file ----------------------------------------------------------------------
: > "$tmp/empty.pam"
printf '# nothing but a comment\n' > "$tmp/comment.pam"
for f in empty comment; do
  for c in check reduce predict simulate; do
    "$PAMC" $c "$tmp/$f.pam" > /dev/null 2> "$tmp/err"; rc=$?
    [ $rc -eq 1 ] || die "$f, $c: exit $rc"
    [ "$(head -1 "$tmp/err")" = "$tmp/$f.pam:1:1: error: the file declares nothing (a model needs at least a process 'main')" ] \
      || die "$f, $c: $(cat "$tmp/err")"
  done
done
# a library without a process still checks; the commands that need an entry say so at 1:1
printf 'const a = 1;\n' > "$tmp/lib.pam"
"$PAMC" check "$tmp/lib.pam" || die "a library does not check"
for c in reduce predict simulate; do
  "$PAMC" $c "$tmp/lib.pam" > /dev/null 2> "$tmp/err"
  [ "$(head -1 "$tmp/err")" = "$tmp/lib.pam:1:1: error: no entry process 'main'" ] || die "library, $c: $(cat "$tmp/err")"
done
exit 0
