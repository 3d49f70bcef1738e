/*
** proptest_main.c — `make proptest N=... [SEED=...]`: the property tests of REDUCTION.md on N
** random models in the normal build; prints "N cases, K counterexamples" and the path of every
** shrunk counterexample (saved in tests/regress/open/<seed>.pam).
** Usage: proptest N [FIRST_SEED [SAVE_DIR]]
*/
#include <stdio.h>
#include <stdlib.h>

#include "propdrive.h"

int main(int argc, char **argv) {
  long count = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
  uint64_t first = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  const char *save_dir = argc > 3 ? argv[3] : "tests/regress/open";
  PropRun run;
  prop_run(first, count, save_dir, NULL, stdout, &run);
  if (run.reduce_missing) printf("note: built without lang/reduce/reduce.h: only load, check and simulate ran\n");
  if (run.invalid) printf("%ld generated models did not check (generator bug)\n", run.invalid);
  printf("%ld cases, %ld counterexamples\n", run.cases, run.failures);
  return run.failures || run.invalid ? 1 : 0;
}
