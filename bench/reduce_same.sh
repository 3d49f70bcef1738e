#!/bin/sh
# bench/reduce_same.sh — checks that two pamc binaries reduce and predict alike, byte for byte:
# for every model given (files or folders of .pam files; by default models/, bench/tight/,
# tests/models/ and tests/regress/) and the generated models of bench/reduce_bench.c, the output
# (stdout, stderr, exit status) of `pamc reduce` in text (--exact --verbose --expected), json and
# c, and of `pamc predict` in csv at the defaults and over a sweep of P when the model has a
# param P. Made for work on the reduction's speed (issue 15), which must not change a byte.
# Usage: bench/reduce_same.sh OLD_PAMC NEW_PAMC [REDUCE_BENCH] [MODEL_OR_FOLDER...]
#   REDUCE_BENCH: build/bench/reduce_bench, whose --dump, --dump-defs and --dump-members models are added
#   (sizes 10 .. 10^4; 10^5 with SAME_LARGE=1). Exit 0 when every output agrees, 1 otherwise.
set -u
if [ $# -lt 2 ]; then
  echo "usage: bench/reduce_same.sh OLD_PAMC NEW_PAMC [REDUCE_BENCH] [MODEL_OR_FOLDER...]" >&2
  exit 2
fi
old=$1 new=$2
shift 2
bench=""
if [ $# -gt 0 ] && [ -x "$1" ] && [ ! -d "$1" ]; then bench=$1; shift; fi
[ $# -gt 0 ] || set -- models bench/tight tests/models tests/regress
work=$(mktemp -d "${TMPDIR:-/tmp}/reduce_same.XXXXXX") || exit 3
trap 'rm -rf "$work"' EXIT INT TERM

list=$work/models
: > "$list"
for arg in "$@"; do
  if [ -d "$arg" ]; then find "$arg" -name '*.pam' | sort >> "$list"
  else echo "$arg" >> "$list"; fi
done
if [ -n "$bench" ]; then
  sizes="10 100 1000 10000"
  [ "${SAME_LARGE:-0}" = 1 ] && sizes="$sizes 100000"
  for n in $sizes; do
    "$bench" --dump "$n" > "$work/statements_$n.pam" && echo "$work/statements_$n.pam" >> "$list"
    "$bench" --dump-defs "$n" > "$work/definitions_$n.pam" && echo "$work/definitions_$n.pam" >> "$list"
    "$bench" --dump-members "$n" > "$work/members_$n.pam" && echo "$work/members_$n.pam" >> "$list"
  done
fi

# run BINARY OUT ARGS...: stdout, then stderr, then the exit status into OUT (the temporary
# folder's name, which differs between runs, is taken out of messages)
run() {
  bin=$1 out=$2
  shift 2
  "$bin" "$@" < /dev/null > "$out" 2> "$out.err"
  status=$?
  sed "s|$work|WORK|g" "$out.err" >> "$out"
  echo "exit $status" >> "$out"
  rm -f "$out.err"
}

models=0 differ=0
while IFS= read -r model; do
  models=$((models + 1))
  set -- "reduce --exact --verbose --expected" "reduce --format json" "reduce --format c" \
         "predict --format csv"
  if grep -q '^ *param  *P\b' "$model"; then set -- "$@" "predict --format csv -D P=1,2,3,5,8,64,1000"; fi
  for cmd in "$@"; do
    # shellcheck disable=SC2086  # cmd is a list of words
    run "$old" "$work/old" $cmd "$model"
    # shellcheck disable=SC2086
    run "$new" "$work/new" $cmd "$model"
    if ! cmp -s "$work/old" "$work/new"; then
      differ=$((differ + 1))
      echo "differs: pamc $cmd $model"
      diff "$work/old" "$work/new" | head -5
    fi
  done
done < "$list"
echo "reduce_same: $models models, $differ outputs differ"
[ "$differ" -eq 0 ]
