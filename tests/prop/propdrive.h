/*
** propdrive.h — the property-test driver: generates seeded models (genmodel.h), checks each
** (propcheck.h), shrinks every failing one to a small model that still fails the same way, and
** saves it as <dir>/<seed>.pam with a comment header (seed, scenario, simulated, bounds).
*/
#ifndef PAMC_PROPDRIVE_H
#define PAMC_PROPDRIVE_H

#include <stdint.h>
#include <stdio.h>

#include "genmodel.h"
#include "propcheck.h"

/* Seeds the driver skips: cases already saved under tests/regress/open (known, not yet fixed). */
#define PROP_MAX_SKIP 1024

typedef struct PropRun {
  long cases;            /* cases checked */
  long failures;         /* counterexamples (violations, reduce and simulator errors) */
  long invalid;          /* generated models that do not check (generator bugs) */
  long skipped;          /* seeds skipped as known open cases */
  int reduce_missing;    /* 1: built without lang/reduce/reduce.h */
} PropRun;

/* A verdict on a model text (prop_check_text, or a stand-in in tests of the shrinker). */
typedef PropStatus (*PropCheckFn)(const char *name, const char *text, uint64_t seed, PropOutcome *out);

/* Shrinks m (which check says fails with status want) while it keeps failing with want. Returns
   the number of accepted steps. */
int prop_shrink(GenModel *m, uint64_t seed, PropStatus want, PropCheckFn check);

/* Runs seeds first .. first+count-1. Each counterexample is shrunk and, when save_dir is not
   NULL, saved there as <seed>.pam; its path is printed on log (may be NULL). Seeds named by a
   file <seed>.pam in skip_dir (may be NULL) are skipped. */
void prop_run(uint64_t first, long count, const char *save_dir, const char *skip_dir, FILE *log,
              PropRun *run);

/* Checks a saved model file; 0 ok, else the status. The message goes to log. */
PropStatus prop_check_file(const char *path, FILE *log);

#endif
